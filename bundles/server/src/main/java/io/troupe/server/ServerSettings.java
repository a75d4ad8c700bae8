package io.troupe.server;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;

import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.FrameDecoder;
import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;
import io.troupe.config.TypedConfiguration;
import io.troupe.server.admission.AdmissionPolicy;
import io.troupe.server.session.SessionLimits;
import io.troupe.server.tls.ClientAuth;
import io.troupe.server.tls.TlsSettings;

/**
 * The server's validated settings: the configuration {@value ServerConfiguration#PID}
 * ({@code etc/io.troupe.server.cfg} in the distribution), checked against the typed model
 * {@link ServerConfiguration}, which holds every key's type, default, bounds and description.
 *
 * <table>
 * <caption>When a change applies</caption>
 * <tr><th>key</th><th>applied</th></tr>
 * <tr><td>{@code host}, {@code port}</td><td>re-bind</td></tr>
 * <tr><td>{@code ioThreads}</td><td>informational: the IO loops are the host's reactor's (framework
 *     property {@code troupe.ioThreads}); a different value is logged as needing that property and a
 *     restart</td></tr>
 * <tr><td>{@code maxFrameBytes}</td><td>live, next frame (re-bind when the input buffer must grow)</td></tr>
 * <tr><td>{@code idleTimeoutSeconds}</td><td>live</td></tr>
 * <tr><td>{@code authTimeoutSeconds}</td><td>live, new connections</td></tr>
 * <tr><td>{@code requestTimeoutSeconds}</td><td>live, next request</td></tr>
 * <tr><td>{@code slowConsumerBytes}</td><td>re-bind: the output a client may leave unread before it
 *     is cut off</td></tr>
 * <tr><td>{@code allowPlaintext}</td><td>re-bind</td></tr>
 * <tr><td>{@code tls.*}</td><td>turning TLS on or off re-binds; any other change builds a new context
 *     for new connections (open ones keep theirs)</td></tr>
 * <tr><td>{@code maxConnections}, {@code maxConnectionsPerAddress}, {@code maxUnauthenticatedConnections},
 *     {@code reservedFileDescriptors}</td><td>re-bind (see {@link AdmissionPolicy})</td></tr>
 * </table>
 *
 * <p>Values may be strings (as FileInstall delivers them) or numbers. A key that is absent takes its
 * default; a key with a bad value keeps its previous value and the problem is reported with the
 * file, the key, the value and the reason ({@link ConfigurationCheck}). Rules the metatype cannot
 * state are checked here: a host name has no blanks; {@code tls.protocols} lists TLSv1.3 and/or TLSv1.2
 * and nothing else.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param values the accepted values by key, the {@code previous} of the next {@link #parse}
 */
public record ServerSettings(String host, int port, int ioThreads, int maxFrameBytes, int idleTimeoutSeconds,
                             int authTimeoutSeconds, int requestTimeoutSeconds, long slowConsumerBytes,
                             boolean allowPlaintext, TlsSettings tls, int maxConnections,
                             int maxConnectionsPerAddress, int maxUnauthenticatedConnections,
                             int reservedFileDescriptors, Map<String, Object> values) {

    /** The ConfigAdmin PID of these settings. */
    public static final String PID = ServerConfiguration.PID;

    static final String HOST = "host";
    static final String IO_THREADS = "ioThreads";
    static final String TLS_PROTOCOLS = "tls.protocols";

    private static final ConfigurationCheck<ServerConfiguration> CHECK =
            ConfigurationCheck.of(ServerConfiguration.class);

    /** What the reactor buffers per connection at least; more when a frame may be larger. */
    private static final int BASE_INPUT_BUFFER = 2 << 20;
    private static final int INPUT_BUFFER_SLACK = 64 << 10;
    private static final long HIGH_WATER_MARK = 1 << 20;

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tls, "tls");
        values = Map.copyOf(values);
    }

    /** Every key at its default; {@code ioThreads} is the number of available processors. */
    public static ServerSettings defaults() {
        return of(CHECK.defaults().typed(), Map.of());
    }

    /**
     * The settings described by {@code properties}: absent keys take their default, keys with bad
     * values keep their value from {@code previous}.
     *
     * @param rejected receives one problem per bad value, naming the source, the key, the value, the
     *                 reason and the value kept
     */
    public static ServerSettings parse(Map<String, ?> properties, ServerSettings previous,
            Consumer<ConfigurationProblem> rejected) {
        ConfigurationSource source = ConfigurationSource.of(PID, properties);
        CheckedConfiguration<ServerConfiguration> checked = CHECK.check(properties, previous.values, source,
                ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(rejected);
        Map<String, Object> values = new HashMap<>(checked.values());
        String host = checked.typed().host();
        if (host.chars().anyMatch(Character::isWhitespace)) {
            rejected.accept(new ConfigurationProblem(source, HOST, String.valueOf(properties.get(HOST)),
                    "a host name or address has no blanks", previous.host));
            keepPrevious(values, previous, HOST);
        }
        Object protocols = checked.values().get(TLS_PROTOCOLS);
        if (protocols != null) {
            try {
                TlsSettings.parseProtocols(protocols.toString());
            } catch (IllegalArgumentException e) {
                rejected.accept(new ConfigurationProblem(source, TLS_PROTOCOLS, protocols.toString(), e.getMessage(),
                        String.join(", ", previous.tls.protocols())));
                keepPrevious(values, previous, TLS_PROTOCOLS);
            }
        }
        return of(TypedConfiguration.view(ServerConfiguration.class, values), values);
    }

    private static void keepPrevious(Map<String, Object> values, ServerSettings previous, String key) {
        values.remove(key);
        if (previous.values.containsKey(key)) {
            values.put(key, previous.values.get(key));
        }
    }

    /**
     * Keys of {@code properties} that no setting knows, sorted. Keys the framework and its services
     * add ({@code service.pid}, {@code felix.fileinstall.filename}, ...) are left out.
     */
    public static List<String> unknownKeys(Map<String, ?> properties) {
        return CHECK.check(properties, Map.of(), ConfigurationSource.of(PID, properties),
                ConfigurationCheck.Fallback.NONE).unknown();
    }

    private static ServerSettings of(ServerConfiguration config, Map<String, Object> values) {
        int ioThreads = config.ioThreads() == 0 ? Runtime.getRuntime().availableProcessors() : config.ioThreads();
        return new ServerSettings(config.host(), config.port(), ioThreads, config.maxFrameBytes(),
                config.idleTimeoutSeconds(), config.authTimeoutSeconds(), config.requestTimeoutSeconds(),
                config.slowConsumerBytes(), config.allowPlaintext(), tls(config), config.maxConnections(),
                config.maxConnectionsPerAddress(), config.maxUnauthenticatedConnections(),
                config.reservedFileDescriptors(), values);
    }

    private static TlsSettings tls(ServerConfiguration config) {
        return new TlsSettings(config.tls_keystore(), config.tls_keystorePassword(),
                config.tls_keystorePasswordFile(), TlsSettings.parseProtocols(config.tls_protocols()),
                ClientAuth.of(config.tls_clientAuth()), config.tls_truststore(), config.tls_truststorePassword(),
                config.tls_truststorePasswordFile());
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

    /**
     * The admission limits under the process's file-descriptor limit {@code fileLimit} (empty: unknown);
     * see {@link AdmissionPolicy}.
     */
    public AdmissionPolicy admission(OptionalLong fileLimit) {
        return AdmissionPolicy.of(fileLimit, maxConnections, maxConnectionsPerAddress, maxUnauthenticatedConnections,
                reservedFileDescriptors);
    }

    /**
     * Whether going from these settings to {@code next} needs a new listening socket: the address, the
     * per-connection options, the admission keys, plaintext versus TLS, or {@code allowPlaintext} changed.
     * Other TLS keys change the context of the listener in place.
     */
    public boolean needsRebind(ServerSettings next) {
        return !host.equals(next.host) || port != next.port
                || !connectionOptions().equals(next.connectionOptions())
                || allowPlaintext != next.allowPlaintext || tls.enabled() != next.tls.enabled()
                || maxConnections != next.maxConnections || maxConnectionsPerAddress != next.maxConnectionsPerAddress
                || maxUnauthenticatedConnections != next.maxUnauthenticatedConnections
                || reservedFileDescriptors != next.reservedFileDescriptors;
    }
}
