package io.troupe.client;

import java.util.List;

/**
 * Where a client's next connection attempt goes: its seeds in the order given, and the owner a redirect
 * named, which comes first until it is left.
 *
 * <pre>
 *   seeds  A ─► B ─► C ─► A ...      advance(): the next seed after the one last used
 *   redirectTo(X): X is current ─── advance() leaves X for the seed after the one last used
 *                  (X a seed: the seeds go on from X)
 * </pre>
 * A session's address stays current after it ends, so that reconnection starts there; each failed attempt
 * advances. A round (one attempt at each address) is {@link #roundSize()} attempts long.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the client's loop thread.
 */
final class ServerAddresses {

    private final List<ServerAddress> seeds;
    private int cursor;
    /** The owner a redirect named, not yet left; null when the current address is a seed. */
    private ServerAddress redirect;

    /** @param seeds at least one */
    ServerAddresses(List<ServerAddress> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no server address");
        }
        this.seeds = List.copyOf(seeds);
    }

    /** Where the next attempt goes. */
    ServerAddress current() {
        return redirect != null ? redirect : seeds.get(cursor);
    }

    /** The next attempt goes to {@code owner}; when it is a seed, the seeds go on from there. */
    void redirectTo(ServerAddress owner) {
        int index = seeds.indexOf(owner);
        if (index >= 0) {
            cursor = index;
            redirect = null;
        } else {
            redirect = owner;
        }
    }

    /** Leaves the current address for the seed after the last one used. */
    void advance() {
        redirect = null;
        cursor = (cursor + 1) % seeds.size();
    }

    /** How many attempts reach every address once, starting from the current one. */
    int roundSize() {
        return seeds.size() + (redirect == null ? 0 : 1);
    }

    List<ServerAddress> seeds() {
        return seeds;
    }
}
