package io.troupe.server;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

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
        description = "The message server (wire protocol v1): address, frame limit, timeouts. Applied while "
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
}
