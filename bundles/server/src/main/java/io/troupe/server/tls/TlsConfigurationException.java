package io.troupe.server.tls;

/**
 * A TLS configuration that cannot be used: its message names the key, the file and the reason, for
 * example {@code tls.keystore /opt/troupe/etc/tls/server.p12: wrong password (tls.keystorePasswordFile
 * /opt/troupe/etc/tls/server.pass)}.
 *
 * <p><b>Threading:</b> an exception; immutable once thrown.
 */
public final class TlsConfigurationException extends Exception {

    private static final long serialVersionUID = 1L;

    public TlsConfigurationException(String message) {
        super(message);
    }

    public TlsConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
