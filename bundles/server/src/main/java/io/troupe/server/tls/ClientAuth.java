package io.troupe.server.tls;

import java.util.Locale;

import javax.net.ssl.SSLParameters;

/**
 * Whether the server asks TLS clients for a certificate ({@code tls.clientAuth}).
 *
 * <p><b>Threading:</b> an enum; any thread.
 */
public enum ClientAuth {
    /** Not asked for. */
    NONE,
    /** Asked for; a client without one is still admitted (its token then decides). */
    WANT,
    /** Required: a handshake without a certificate that chains to the trust store fails. */
    NEED;

    /** The value of {@code tls.clientAuth}: {@code none}, {@code want} or {@code need} (any case). */
    public static ClientAuth of(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }

    /** Sets the policy on {@code parameters}. */
    void applyTo(SSLParameters parameters) {
        switch (this) {
            case NONE -> {
                parameters.setNeedClientAuth(false);
                parameters.setWantClientAuth(false);
            }
            case WANT -> parameters.setWantClientAuth(true);
            case NEED -> parameters.setNeedClientAuth(true);
        }
    }

    /** The configuration's spelling. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
