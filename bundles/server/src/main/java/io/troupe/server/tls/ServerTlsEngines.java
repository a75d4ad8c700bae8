package io.troupe.server.tls;

import java.net.InetSocketAddress;
import java.util.Objects;

import javax.net.ssl.SSLEngine;

import io.troupe.api.net.TlsEngines;

/**
 * The {@link TlsEngines} of the server's listener: engines of the current {@link ServerTlsContext},
 * which {@link #swap} replaces when the certificate is rotated. A connection keeps the engine (and so
 * the certificate) it was accepted with; the next one gets the new context.
 *
 * <p><b>Threading:</b> {@link #newEngine} on the IO loops, {@link #swap} from the configuration and
 * rotation threads; the context is handed over through a volatile field.
 */
public final class ServerTlsEngines implements TlsEngines {

    private volatile ServerTlsContext current;

    public ServerTlsEngines(ServerTlsContext initial) {
        this.current = Objects.requireNonNull(initial, "initial");
    }

    @Override
    public SSLEngine newEngine(InetSocketAddress peer) {
        return current.newEngine(peer);
    }

    /** The context new connections get. */
    public ServerTlsContext current() {
        return current;
    }

    /** From now on, new connections get engines of {@code next}. */
    public void swap(ServerTlsContext next) {
        current = Objects.requireNonNull(next, "next");
    }
}
