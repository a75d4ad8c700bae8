package io.troupe.client;

import java.util.Objects;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * How a client speaks TLS: its context and whether the server's certificate must name the host the
 * client connects to (HTTPS endpoint identification: a DNS name or IP address in its subject
 * alternative names).
 *
 * <p><b>Threading:</b> immutable; any thread ({@link #newEngine} on a loop: it does not block).
 *
 * @param context              the context (trust and, for mutual TLS, the client's key)
 * @param verifyHostname       whether the certificate must match the host; off only by explicit choice
 */
record ClientTls(SSLContext context, boolean verifyHostname) {

    ClientTls {
        Objects.requireNonNull(context, "context");
    }

    /** A client-mode engine for {@code host:port}, which it uses for SNI and host name verification. */
    SSLEngine newEngine(String host, int port) {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
        engine.setSSLParameters(parameters);
        return engine;
    }
}
