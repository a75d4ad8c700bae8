package io.troupe.api.net;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The host's event loops, registered as an OSGi service: one acceptor loop and a group of IO loops
 * (default: one per core).
 *
 * <p><b>Threading:</b> every method from any thread except the IO loops themselves ({@link #listen}
 * binds synchronously).
 */
@ProviderType
public interface Reactor {

    /**
     * Opens a listening socket. Accepted connections are assigned round-robin to the IO loops, and
     * {@code handlers} creates the handler of each on its loop.
     *
     * @throws IOException when the address cannot be bound
     */
    default Listener listen(InetSocketAddress address, ConnectionHandlerFactory handlers, ConnectionOptions options)
            throws IOException {
        return listen(address, handlers, ListenerOptions.of(options));
    }

    /**
     * Opens a listening socket whose connections get {@code options}: their limits, the admission limits
     * the acceptor enforces, and TLS when {@link ListenerOptions#tls()} is set (since 1.2). Accepted
     * connections are assigned round-robin to the IO loops, and {@code handlers} creates the handler of
     * each on its loop; with TLS, the handler sees plaintext only.
     *
     * @throws IOException when the address cannot be bound
     */
    Listener listen(InetSocketAddress address, ConnectionHandlerFactory handlers, ListenerOptions options)
            throws IOException;

    /** The number of IO loops. */
    int ioLoops();
}
