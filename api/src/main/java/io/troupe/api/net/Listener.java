package io.troupe.api.net;

import java.net.InetSocketAddress;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A listening socket. Closing it stops accepting; connections already accepted stay open.
 *
 * <p><b>Threading:</b> every method from any thread.
 */
@ProviderType
public interface Listener extends AutoCloseable {

    /** The bound address (with the actual port when port 0 was asked for). */
    InetSocketAddress address();

    /**
     * Stops accepting and releases the port; from a non-runtime thread, returns once the port is free.
     * Idempotent.
     */
    @Override
    void close();
}
