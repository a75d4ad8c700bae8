package io.troupe.api.net;

import java.util.Objects;

/**
 * Everything a {@link Listener} applies to the connections it accepts (since 1.2).
 *
 * <p><b>Threading:</b> an immutable record; any thread.
 *
 * @param connections each connection's buffers and water marks
 * @param admission   how many connections are admitted, in all, per address and unauthenticated
 * @param tls         the engines of TLS connections, or {@code null} for plaintext
 */
public record ListenerOptions(ConnectionOptions connections, AdmissionLimits admission, TlsEngines tls) {

    public ListenerOptions {
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(admission, "admission");
    }

    /** Plaintext, no admission limit. */
    public static ListenerOptions of(ConnectionOptions connections) {
        return new ListenerOptions(connections, AdmissionLimits.UNLIMITED, null);
    }

    /** These options with {@code admission}. */
    public ListenerOptions withAdmission(AdmissionLimits admission) {
        return new ListenerOptions(connections, admission, tls);
    }

    /** These options with TLS by {@code tls} ({@code null}: plaintext). */
    public ListenerOptions withTls(TlsEngines tls) {
        return new ListenerOptions(connections, admission, tls);
    }

    /** Whether connections speak TLS. */
    public boolean secure() {
        return tls != null;
    }
}
