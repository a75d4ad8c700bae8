package io.troupe.server;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.FrameDecoder;
import io.troupe.server.config.ConfigInteger;
import io.troupe.server.session.SessionLimits;

/**
 * The server's validated settings, read from the ConfigAdmin configuration {@value #PID}
 * ({@code etc/io.troupe.server.cfg} in the distribution).
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th><th>range</th><th>applied</th></tr>
 * <tr><td>{@code host}</td><td>127.0.0.1</td><td>a host name or address</td><td>re-bind</td></tr>
 * <tr><td>{@code port}</td><td>7878</td><td>0..65535 (0: any free port)</td><td>re-bind</td></tr>
 * <tr><td>{@code ioThreads}</td><td>cores</td><td>1..1024</td><td>informational: the IO loops are the
 *     host's reactor's (framework property {@code troupe.ioThreads}); a different value is logged as
 *     needing that property and a restart</td></tr>
 * <tr><td>{@code maxFrameBytes}</td><td>1048576</td><td>1024..268435456</td><td>live, next frame
 *     (re-bind when the input buffer must grow)</td></tr>
 * <tr><td>{@code idleTimeoutSeconds}</td><td>60</td><td>0..86400 (0: never)</td><td>live</td></tr>
 * <tr><td>{@code authTimeoutSeconds}</td><td>5</td><td>1..3600</td><td>live, new connections</td></tr>
 * <tr><td>{@code requestTimeoutSeconds}</td><td>30</td><td>1..86400</td><td>live, next request</td></tr>
 * <tr><td>{@code slowConsumerBytes}</td><td>16777216</td><td>65536..1073741824</td><td>re-bind: the
 *     output a client may leave unread before it is cut off</td></tr>
 * </table>
 *
 * <p>Values may be strings (as FileInstall delivers them) or numbers. A key that is absent takes
 * its default; a key with a bad value keeps its previous value and the problem is reported.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public record ServerSettings(String host, int port, int ioThreads, int maxFrameBytes, int idleTimeoutSeconds,
                             int authTimeoutSeconds, int requestTimeoutSeconds, long slowConsumerBytes) {

    /** The ConfigAdmin PID of these settings. */
    public static final String PID = "io.troupe.server";

    static final String HOST = "host";
    static final String PORT = "port";
    static final String IO_THREADS = "ioThreads";
    static final String MAX_FRAME_BYTES = "maxFrameBytes";
    static final String IDLE_TIMEOUT = "idleTimeoutSeconds";
    static final String AUTH_TIMEOUT = "authTimeoutSeconds";
    static final String REQUEST_TIMEOUT = "requestTimeoutSeconds";
    static final String SLOW_CONSUMER_BYTES = "slowConsumerBytes";

    private static final Set<String> KEYS = Set.of(HOST, PORT, IO_THREADS, MAX_FRAME_BYTES, IDLE_TIMEOUT,
            AUTH_TIMEOUT, REQUEST_TIMEOUT, SLOW_CONSUMER_BYTES);

    private static final int MAX_HOST_LENGTH = 255;
    private static final int MIN_FRAME_BYTES = 1024;
    private static final int MAX_FRAME_BYTES_LIMIT = 256 << 20;
    private static final long MIN_SLOW_CONSUMER_BYTES = 64 << 10;
    private static final long MAX_SLOW_CONSUMER_BYTES = 1L << 30;
    /** What the reactor buffers per connection at least; more when a frame may be larger. */
    private static final int BASE_INPUT_BUFFER = 2 << 20;
    private static final int INPUT_BUFFER_SLACK = 64 << 10;
    private static final long HIGH_WATER_MARK = 1 << 20;

    public ServerSettings {
        Objects.requireNonNull(host, "host");
    }

    /** Every key at its default; {@code ioThreads} is the number of available processors. */
    public static ServerSettings defaults() {
        return new ServerSettings("127.0.0.1", 7878, Runtime.getRuntime().availableProcessors(),
                FrameDecoder.DEFAULT_MAX_FRAME_BYTES, 60, 5, 30, 16L << 20);
    }

    /**
     * The settings described by {@code properties}: absent keys take their default, keys with bad
     * values keep their value from {@code previous}.
     *
     * @param rejected receives one line per bad value, naming the key, the value, the problem and
     *                 the value kept
     */
    public static ServerSettings parse(Map<String, ?> properties, ServerSettings previous, Consumer<String> rejected) {
        ServerSettings defaults = defaults();
        Values values = new Values(properties, rejected);
        return new ServerSettings(
                values.host(defaults.host, previous.host),
                (int) values.integer(PORT, 0, 65_535, defaults.port, previous.port),
                (int) values.integer(IO_THREADS, 1, 1024, defaults.ioThreads, previous.ioThreads),
                (int) values.integer(MAX_FRAME_BYTES, MIN_FRAME_BYTES, MAX_FRAME_BYTES_LIMIT,
                        defaults.maxFrameBytes, previous.maxFrameBytes),
                (int) values.integer(IDLE_TIMEOUT, 0, 86_400, defaults.idleTimeoutSeconds,
                        previous.idleTimeoutSeconds),
                (int) values.integer(AUTH_TIMEOUT, 1, 3_600, defaults.authTimeoutSeconds,
                        previous.authTimeoutSeconds),
                (int) values.integer(REQUEST_TIMEOUT, 1, 86_400, defaults.requestTimeoutSeconds,
                        previous.requestTimeoutSeconds),
                values.integer(SLOW_CONSUMER_BYTES, MIN_SLOW_CONSUMER_BYTES, MAX_SLOW_CONSUMER_BYTES,
                        defaults.slowConsumerBytes, previous.slowConsumerBytes));
    }

    /**
     * Keys of {@code properties} that no setting knows. Keys with a dot are left out: those are
     * added by the framework ({@code service.pid}, {@code felix.fileinstall.filename}, ...).
     */
    public static List<String> unknownKeys(Map<String, ?> properties) {
        List<String> unknown = new ArrayList<>();
        for (String key : properties.keySet()) {
            if (!KEYS.contains(key) && key.indexOf('.') < 0) {
                unknown.add(key);
            }
        }
        unknown.sort(null);
        return unknown;
    }

    /** The address to listen on; resolved now (the host name may not resolve). */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }

    /** What sessions apply; see {@link SessionLimits}. */
    public SessionLimits sessionLimits() {
        return new SessionLimits(maxFrameBytes, Duration.ofSeconds(idleTimeoutSeconds),
                Duration.ofSeconds(authTimeoutSeconds), Duration.ofSeconds(requestTimeoutSeconds));
    }

    /**
     * The reactor's per-connection limits: a client may leave {@code slowConsumerBytes} of output
     * unread before it is cut off, and the input buffer holds at least one whole frame of the
     * largest size allowed.
     */
    public ConnectionOptions connectionOptions() {
        int highWaterMark = (int) Math.min(HIGH_WATER_MARK, slowConsumerBytes / 2);
        int lowWaterMark = highWaterMark / 4;
        int maxInputBuffer = Math.max(BASE_INPUT_BUFFER,
                maxFrameBytes + FrameDecoder.LENGTH_FIELD_BYTES + INPUT_BUFFER_SLACK);
        return new ConnectionOptions(highWaterMark, lowWaterMark, slowConsumerBytes, maxInputBuffer);
    }

    /** Whether going from these settings to {@code next} needs a new listening socket. */
    public boolean needsRebind(ServerSettings next) {
        return !host.equals(next.host) || port != next.port
                || !connectionOptions().equals(next.connectionOptions());
    }

    /** Reads keys with fallbacks, reporting bad values. */
    private static final class Values {
        private final Map<String, ?> properties;
        private final Consumer<String> rejected;

        Values(Map<String, ?> properties, Consumer<String> rejected) {
            this.properties = properties;
            this.rejected = rejected;
        }

        String host(String defaultValue, String previous) {
            Object raw = properties.get(HOST);
            if (raw == null) {
                return defaultValue;
            }
            String host = raw instanceof String s ? s.trim() : null;
            if (host == null || host.isEmpty() || host.length() > MAX_HOST_LENGTH
                    || host.chars().anyMatch(Character::isWhitespace)) {
                reject(HOST, raw, "is not a host name or address", previous);
                return previous;
            }
            return host;
        }

        long integer(String key, long min, long max, long defaultValue, long previous) {
            Object raw = properties.get(key);
            if (raw == null) {
                return defaultValue;
            }
            OptionalLong parsed = ConfigInteger.parse(raw);
            if (parsed.isEmpty()) {
                reject(key, raw, "is not an integer", previous);
                return previous;
            }
            long value = parsed.getAsLong();
            if (value < min || value > max) {
                reject(key, raw, "is outside " + min + ".." + max, previous);
                return previous;
            }
            return value;
        }

        private void reject(String key, Object raw, String problem, Object kept) {
            rejected.accept(key + "=" + raw + " " + problem + "; keeping " + key + "=" + kept);
        }
    }
}
