package io.troupe.api.net;

import java.net.InetSocketAddress;

import javax.net.ssl.SSLEngine;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Makes the {@link SSLEngine} of each connection a TLS {@link Listener} accepts (since 1.2): in server
 * mode, with its protocols, cipher suites and client-certificate policy already set. The reactor runs
 * the handshake without blocking its IO loops (delegated tasks run off the loop), refuses
 * renegotiation, and hands the handler plaintext only, once the handshake has completed.
 *
 * <p>Each call may return an engine of a different {@link javax.net.ssl.SSLContext}: this is how a
 * rotated certificate reaches new connections while open ones keep theirs.
 *
 * <p><b>Threading:</b> called on the connection's IO loop; must return quickly and never block (build
 * contexts elsewhere and hand over the current one through a volatile field). An exception thrown
 * here closes the connection and is logged.
 */
@ConsumerType
@FunctionalInterface
public interface TlsEngines {

    /** A new server-mode engine for a connection from {@code peer}. */
    SSLEngine newEngine(InetSocketAddress peer);
}
