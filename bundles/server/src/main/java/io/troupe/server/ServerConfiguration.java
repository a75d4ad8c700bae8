package io.troupe.server;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

import io.troupe.protocol.FrameDecoder;

/**
 * The server's configuration, PID {@value #PID} ({@code etc/io.troupe.server.cfg} in the
 * distribution): every key with its type, default, bounds and description. bnd writes it into
 * {@code OSGI-INF/metatype/io.troupe.server.ServerConfiguration.xml}; {@link ServerSettings} checks
 * a configuration against that document and reads the accepted values through this interface.
 *
 * <p>Keys of later features (TLS, HTTP, ...) are added here, with their bounds, and nowhere else.
 *
 * <p><b>Threading:</b> the instances ({@link io.troupe.config.TypedConfiguration} views) are
 * immutable.
 */
@ObjectClassDefinition(name = "Troupe server",
        description = "The message server (wire protocol v1): address, TLS, admission limits, frame limit, "
                + "timeouts. Applied while "
                + "Troupe runs; a bad value is logged with its key, file and reason, and the key keeps its "
                + "previous value.")
public @interface ServerConfiguration {

    /** The ConfigAdmin PID. */
    String PID = "io.troupe.server";

    @AttributeDefinition(name = "Listen address", min = "1", max = "255",
            description = "Host name or address to listen on; 0.0.0.0 listens on every interface. Re-binds.")
    String host() default "127.0.0.1";

    @AttributeDefinition(name = "Port", min = "0", max = "65535",
            description = "TCP port; 0 takes any free port. Re-binds.")
    int port() default 7878;

    @AttributeDefinition(name = "IO threads (informational)", min = "0", max = "1024",
            description = "The IO loops are the host's (framework property troupe.ioThreads); a value other "
                    + "than the reactor's is only reported. 0: not set.")
    int ioThreads() default 0;

    @AttributeDefinition(name = "Largest frame", min = "1024", max = "268435456",
            description = "Bytes of the largest frame accepted after authentication (before it: 4096). "
                    + "Live, from the next frame.")
    int maxFrameBytes() default FrameDecoder.DEFAULT_MAX_FRAME_BYTES;

    @AttributeDefinition(name = "Idle timeout", min = "0", max = "86400",
            description = "Seconds a connection may send nothing (not even a PING) before it is closed; 0: never.")
    int idleTimeoutSeconds() default 60;

    @AttributeDefinition(name = "Authentication timeout", min = "1", max = "3600",
            description = "Seconds a new connection has to send HELLO. Live, new connections.")
    int authTimeoutSeconds() default 5;

    @AttributeDefinition(name = "Request timeout", min = "1", max = "86400",
            description = "Seconds before a request without a reply is answered ERROR handler.timeout.")
    int requestTimeoutSeconds() default 30;

    @AttributeDefinition(name = "Slow consumer limit", min = "65536", max = "1073741824",
            description = "Bytes of unread replies after which a client is cut off. Re-binds.")
    long slowConsumerBytes() default 16L << 20;

    @AttributeDefinition(name = "Allow plaintext on a non-loopback address", required = false,
            description = "Without TLS the server listens on a loopback address only; true lets it listen "
                    + "elsewhere in plaintext (tokens and payloads readable on the network), with a WARN at start.")
    boolean allowPlaintext() default false;

    @AttributeDefinition(name = "TLS keystore", required = false,
            description = "PKCS#12 file with the server's private key and certificate chain (relative: to the "
                    + "installation); set, the server speaks TLS only. Watched: a changed file is loaded live for "
                    + "new connections. Empty: plaintext.")
    String tls_keystore() default "";

    @AttributeDefinition(name = "TLS keystore password", type = AttributeType.PASSWORD, required = false,
            description = "The keystore's password. Prefer tls.keystorePasswordFile, which keeps it out of this "
                    + "file; never logged.")
    String tls_keystorePassword() default "";

    @AttributeDefinition(name = "TLS keystore password file", required = false,
            description = "A file whose first line is the keystore's password (relative: to the installation); "
                    + "wins over tls.keystorePassword.")
    String tls_keystorePasswordFile() default "";

    @AttributeDefinition(name = "TLS protocols", required = false,
            description = "Comma-separated: TLSv1.3 (the default), or TLSv1.3, TLSv1.2; nothing else is accepted.")
    String tls_protocols() default "TLSv1.3";

    @AttributeDefinition(name = "TLS client certificates", required = false,
            options = {@Option(value = "none"), @Option(value = "want"), @Option(value = "need")},
            description = "none: not asked for; want: asked for and verified against tls.truststore when given; "
                    + "need: a connection without a trusted client certificate fails its handshake.")
    String tls_clientAuth() default "none";

    @AttributeDefinition(name = "TLS trust store", required = false,
            description = "PKCS#12 file with the certificates that client certificates must chain to (relative: "
                    + "to the installation); required by tls.clientAuth want and need. Watched like the keystore.")
    String tls_truststore() default "";

    @AttributeDefinition(name = "TLS trust store password", type = AttributeType.PASSWORD, required = false,
            description = "The trust store's password; prefer tls.truststorePasswordFile. Never logged.")
    String tls_truststorePassword() default "";

    @AttributeDefinition(name = "TLS trust store password file", required = false,
            description = "A file whose first line is the trust store's password; wins over tls.truststorePassword.")
    String tls_truststorePasswordFile() default "";

    @AttributeDefinition(name = "Connections", min = "0", max = "2147483647", required = false,
            description = "Connections open at once, authenticated or not; 0: the file-descriptor limit less "
                    + "reservedFileDescriptors. Over it a new connection is closed at once. Re-binds.")
    int maxConnections() default 0;

    @AttributeDefinition(name = "Connections per address", min = "0", max = "2147483647", required = false,
            description = "Connections open at once from one IP address; 0: maxConnections / 8, at least 16. "
                    + "Re-binds.")
    int maxConnectionsPerAddress() default 0;

    @AttributeDefinition(name = "Unauthenticated connections", min = "0", max = "2147483647", required = false,
            description = "Connections open at once that have not completed HELLO (nor the TLS handshake); 0: "
                    + "maxConnections / 4, at least 16. Re-binds.")
    int maxUnauthenticatedConnections() default 0;

    @AttributeDefinition(name = "Reserved file descriptors", min = "0", max = "2147483647", required = false,
            description = "File descriptors kept for the server itself (deploy watcher, log, plugins, store), never "
                    + "given to connections; 0: an eighth of the process's limit, at least 64.")
    int reservedFileDescriptors() default 0;
}
