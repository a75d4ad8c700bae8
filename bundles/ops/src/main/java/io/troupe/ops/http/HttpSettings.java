package io.troupe.ops.http;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import io.troupe.config.ListenAddress;
import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;
import io.troupe.config.TypedConfiguration;

/**
 * The HTTP endpoint's validated settings: the configuration {@value HttpConfiguration#PID}
 * ({@code etc/io.troupe.http.cfg}), checked against the typed model {@link HttpConfiguration}.
 *
 * <table>
 * <caption>When a change applies</caption>
 * <tr><th>key</th><th>applied</th></tr>
 * <tr><td>{@code enabled}, {@code host}, {@code port}, {@code allowPlaintext}</td><td>re-bind (Jetty
 *     restarts; requests in flight are cut)</td></tr>
 * <tr><td>{@code tokenFile}</td><td>live, from the next request</td></tr>
 * </table>
 *
 * A key with a bad value keeps its previous value (its default at first) and the problem names the file,
 * the key, the value and the reason ({@link ConfigurationCheck}). Beyond the metatype, a host has no blanks
 * and {@code tokenFile} is a path of this system. Whether the endpoint may listen at all is
 * {@link #refusal()}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param enabled        whether the endpoint listens at all
 * @param host           the address to listen on
 * @param port           the TCP port
 * @param tokenFile      the admin token's file as configured (relative: to the installation)
 * @param allowPlaintext whether plain HTTP may listen on an address that is not loopback
 * @param values         the accepted values by key, the {@code previous} of the next {@link #parse}
 */
public record HttpSettings(boolean enabled, String host, int port, String tokenFile, boolean allowPlaintext,
                           Map<String, Object> values) {

    /** The ConfigAdmin PID of these settings. */
    public static final String PID = HttpConfiguration.PID;

    static final String HOST = "host";
    static final String TOKEN_FILE = "tokenFile";

    private static final ConfigurationCheck<HttpConfiguration> CHECK = ConfigurationCheck.of(HttpConfiguration.class);

    public HttpSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tokenFile, "tokenFile");
        values = Map.copyOf(values);
    }

    /** Every key at its default. */
    public static HttpSettings defaults() {
        return of(CHECK.defaults().typed(), Map.of());
    }

    /**
     * The settings described by {@code properties}: absent keys take their default, keys with bad values keep
     * their value from {@code previous}.
     *
     * @param rejected receives one problem per bad value
     */
    public static HttpSettings parse(Map<String, ?> properties, HttpSettings previous,
            Consumer<ConfigurationProblem> rejected) {
        ConfigurationSource source = ConfigurationSource.of(PID, properties);
        CheckedConfiguration<HttpConfiguration> checked = CHECK.check(properties, previous.values, source,
                ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(rejected);
        Map<String, Object> values = new HashMap<>(checked.values());
        HttpConfiguration typed = checked.typed();
        if (typed.host().chars().anyMatch(Character::isWhitespace)) {
            rejected.accept(new ConfigurationProblem(source, HOST, typed.host(),
                    "a host name or address has no blanks", previous.host));
            keepPrevious(values, previous, HOST);
        }
        String pathProblem = pathProblem(typed.tokenFile());
        if (pathProblem != null) {
            rejected.accept(new ConfigurationProblem(source, TOKEN_FILE, typed.tokenFile(), pathProblem,
                    previous.tokenFile));
            keepPrevious(values, previous, TOKEN_FILE);
        }
        return of(TypedConfiguration.view(HttpConfiguration.class, values), values);
    }

    /** Keys of {@code properties} that no setting knows, sorted (framework keys left out). */
    public static List<String> unknownKeys(Map<String, ?> properties) {
        return CHECK.check(properties, Map.of(), ConfigurationSource.of(PID, properties),
                ConfigurationCheck.Fallback.NONE).unknown();
    }

    private static HttpSettings of(HttpConfiguration config, Map<String, Object> values) {
        return new HttpSettings(config.enabled(), config.host(), config.port(), config.tokenFile(),
                config.allowPlaintext(), values);
    }

    private static void keepPrevious(Map<String, Object> values, HttpSettings previous, String key) {
        values.remove(key);
        if (previous.values.containsKey(key)) {
            values.put(key, previous.values.get(key));
        }
    }

    private static String pathProblem(String file) {
        try {
            Path.of(file);
            return null;
        } catch (InvalidPathException e) {
            return "not a path: " + e.getReason();
        }
    }

    /**
     * Why the endpoint must not listen as these settings say, or {@code null}: plain HTTP on an address that
     * is not loopback, without {@code allowPlaintext}. A name that does not resolve is left to the bind, which
     * fails with its own error.
     */
    public String refusal() {
        if (allowPlaintext || ListenAddress.isLoopback(host) || !ListenAddress.resolves(host)) {
            return null;
        }
        return "the endpoint would serve plain HTTP on a non-loopback address (the admin token and the console "
                + "readable on the network): listen on a loopback address (127.0.0.1; put a TLS proxy in front) or "
                + "set allowPlaintext = true in etc/" + PID + ".cfg";
    }

    /** The token file: {@link #tokenFile} against {@code home} when relative (and a home is known). */
    public Path resolveTokenFile(Path home) {
        Path path = Path.of(tokenFile);
        return path.isAbsolute() || home == null ? path.toAbsolutePath() : home.resolve(path).toAbsolutePath();
    }

    /** Whether going from these settings to {@code next} changes where (or whether) the endpoint listens. */
    public boolean needsRebind(HttpSettings next) {
        return enabled != next.enabled || !host.equals(next.host) || port != next.port
                || allowPlaintext != next.allowPlaintext;
    }
}
