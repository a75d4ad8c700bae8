package io.troupe.store.osgi;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;
import io.troupe.config.TypedConfiguration;

/**
 * The state store's validated settings: the configuration {@value StoreConfiguration#PID}
 * ({@code etc/io.troupe.store.cfg}), checked against the typed model {@link StoreConfiguration}.
 *
 * <table>
 * <caption>When a change applies</caption>
 * <tr><th>key</th><th>applied</th></tr>
 * <tr><td>{@code file}</td><td>at the next start (the open store keeps its file; a WARN says so)</td></tr>
 * <tr><td>{@code syncWrites}</td><td>live, from the next batch of writes</td></tr>
 * </table>
 *
 * A key with a bad value keeps its previous value (its default at first) and the problem names the
 * file, the key, the value and the reason ({@link ConfigurationCheck}). Beyond the metatype, {@code file}
 * must be a path of this system.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param file       the store file as configured (relative: to the installation)
 * @param syncWrites whether writes are synced before they are acknowledged
 * @param values     the accepted values by key, the {@code previous} of the next {@link #parse}
 */
public record StoreSettings(String file, boolean syncWrites, Map<String, Object> values) {

    /** The ConfigAdmin PID of these settings. */
    public static final String PID = StoreConfiguration.PID;

    static final String FILE = "file";

    private static final ConfigurationCheck<StoreConfiguration> CHECK =
            ConfigurationCheck.of(StoreConfiguration.class);

    public StoreSettings {
        Objects.requireNonNull(file, "file");
        values = Map.copyOf(values);
    }

    /** Every key at its default. */
    public static StoreSettings defaults() {
        StoreConfiguration config = CHECK.defaults().typed();
        return new StoreSettings(config.file(), config.syncWrites(), Map.of());
    }

    /**
     * The settings described by {@code properties}: absent keys take their default, keys with bad values
     * keep their value from {@code previous}.
     *
     * @param rejected receives one problem per bad value
     */
    public static StoreSettings parse(Map<String, ?> properties, StoreSettings previous,
            Consumer<ConfigurationProblem> rejected) {
        ConfigurationSource source = ConfigurationSource.of(PID, properties);
        CheckedConfiguration<StoreConfiguration> checked = CHECK.check(properties, previous.values, source,
                ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(rejected);
        Map<String, Object> values = new HashMap<>(checked.values());
        String file = checked.typed().file();
        String wrong = pathProblem(file);
        if (wrong != null) {
            rejected.accept(new ConfigurationProblem(source, FILE, file, wrong, previous.file));
            values.remove(FILE);
            if (previous.values.containsKey(FILE)) {
                values.put(FILE, previous.values.get(FILE));
            }
        }
        StoreConfiguration config = TypedConfiguration.view(StoreConfiguration.class, values);
        return new StoreSettings(config.file(), config.syncWrites(), values);
    }

    /** Why {@code file} cannot name the store file, or null. */
    private static String pathProblem(String file) {
        if (file.isBlank()) {
            return "blank";
        }
        try {
            Path.of(file);
            return null;
        } catch (InvalidPathException e) {
            return "not a path: " + e.getReason();
        }
    }

    /** Keys of {@code properties} that no setting knows, sorted (framework keys left out). */
    public static List<String> unknownKeys(Map<String, ?> properties) {
        return CHECK.check(properties, Map.of(), ConfigurationSource.of(PID, properties),
                ConfigurationCheck.Fallback.NONE).unknown();
    }

    /** The store file: {@link #file} against {@code home} when relative (and a home is known). */
    public Path resolve(Path home) {
        Path path = Path.of(file);
        return path.isAbsolute() || home == null ? path.toAbsolutePath() : home.resolve(path).toAbsolutePath();
    }
}
