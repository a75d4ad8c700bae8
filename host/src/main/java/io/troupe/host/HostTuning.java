package io.troupe.host;

import java.util.Collections;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import java.util.function.Consumer;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ManagedService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationSource;

/**
 * Follows the configuration {@value HostConfiguration#PID} ({@code etc/io.troupe.host.cfg}) and
 * hands every change, checked, to the host as new {@link HostSettings}.
 *
 * <pre>
 *   framework properties troupe.&lt;key&gt; ──checked at start──► base values (initial settings)
 *   ConfigAdmin ──updated(properties)──► base + properties ──ConfigurationCheck──► HostSettings
 *                                                                                     ──► apply
 *   a key absent from the PID: its framework property, else its default;
 *   a bad value: logged with file, key and reason; the key keeps its value
 * </pre>
 *
 * A ManagedService rather than a DS component: the host is started by its activator, before SCR
 * may run, and it must run without ConfigAdmin too (then only the framework properties apply).
 * This class is loaded only when the host's wiring has {@code org.osgi.service.cm}.
 *
 * <p><b>Threading:</b> ConfigAdmin calls {@link #updated} on its own thread, one call at a time;
 * the calls are also serialised on this object.
 */
final class HostTuning implements ManagedService {

    private static final Logger LOG = LoggerFactory.getLogger(HostTuning.class);

    private final Map<String, Object> base;
    private final int cores;
    private final Consumer<HostSettings> apply;
    /** Guarded by {@code this}: the values accepted last, kept by the next bad value. */
    private Map<String, Object> previous;

    HostTuning(CheckedConfiguration<HostConfiguration> initial, int cores, Consumer<HostSettings> apply) {
        this.base = initial.values();
        this.previous = initial.values();
        this.cores = cores;
        this.apply = apply;
    }

    /**
     * Registers the ManagedService of {@value HostConfiguration#PID}; {@code apply} then receives the
     * settings of each configuration ConfigAdmin delivers (also when there is none: the initial ones).
     */
    static ServiceRegistration<ManagedService> register(BundleContext context,
            CheckedConfiguration<HostConfiguration> initial, int cores, Consumer<HostSettings> apply) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_PID, HostConfiguration.PID);
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe host settings, applied live");
        return context.registerService(ManagedService.class, new HostTuning(initial, cores, apply), properties);
    }

    @Override
    public synchronized void updated(Dictionary<String, ?> properties) {
        Map<String, Object> raw = new HashMap<>(base);
        if (properties != null) {
            for (String key : Collections.list(properties.keys())) {
                raw.put(key, properties.get(key));
            }
        }
        ConfigurationSource source = properties == null
                ? ConfigurationSource.describedAs("framework properties (troupe.<key>)")
                : ConfigurationSource.of(HostConfiguration.PID, raw);
        CheckedConfiguration<HostConfiguration> checked = HostSettings.CHECK.check(raw, previous, source,
                ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(problem -> LOG.error("{}", problem));
        for (String key : checked.unknown()) {
            LOG.warn("{}: unknown key '{}' ignored", source, key);
        }
        previous = checked.values();
        apply.accept(HostSettings.of(checked.typed(), cores, warning -> LOG.warn("{}: {}", source, warning)));
    }
}
