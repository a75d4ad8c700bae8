package io.troupe.benchmarks.net;

/**
 * The three servers of the network suite, in the order they run.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
enum ServerKind {
    TROUPE("Troupe"),
    NETTY_PEKKO("Netty+Pekko"),
    PLAIN_NETTY("plain Netty");

    private final String label;

    ServerKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
