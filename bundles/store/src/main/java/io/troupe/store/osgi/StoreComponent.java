package io.troupe.store.osgi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoreStats;
import io.troupe.config.ConfigurationSource;
import io.troupe.config.FileConfiguration;
import io.troupe.store.MvStateStore;

/**
 * The state store's Declarative Services component: opens the store file ({@code file}, by default
 * {@code ${troupe.home}/data/state.mv.db}, created with its folder at first start) and registers it as the
 * {@link StateStore} service, with the property {@value #FILE_PROPERTY} naming the file.
 *
 * <p>The configuration {@value StoreSettings#PID} is taken as the raw map and checked
 * ({@link StoreSettings}): a bad value is logged with the file, the key and the reason, and the key keeps
 * its last good value. {@code syncWrites} applies live; {@code file} at the next start (the open store
 * keeps its file, and a WARN says so), since moving the store under running actors would lose their state.
 * When the installation has {@code etc/io.troupe.store.cfg} but FileInstall has not handed it to
 * ConfigAdmin yet, activation waits for it (at most {@value #CONFIG_WAIT_SECONDS} s), so that the first
 * start opens the configured file and not the default one.
 *
 * <p>A store that cannot be opened (another process has the file, it is not an MVStore file) is logged at
 * ERROR with the file and the reason and no service is registered; a changed configuration tries again.
 * Deactivation unregisters the service, then closes the store: what was queued is written and synced.
 *
 * <p><b>Threading:</b> SCR calls activate, modified and deactivate one at a time, and they change the
 * fields under this object's lock.
 */
@Designate(ocd = StoreConfiguration.class)
@Component(name = StoreSettings.PID, configurationPid = StoreSettings.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL, service = {}, immediate = true)
public final class StoreComponent {

    /** The framework property naming the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";
    /** The service property naming the store's file. */
    public static final String FILE_PROPERTY = "troupe.store.file";
    static final int CONFIG_WAIT_SECONDS = 5;
    static final String CONFIG_FILE = StoreSettings.PID + ".cfg";

    private static final Logger LOG = LoggerFactory.getLogger(StoreComponent.class);

    @Reference
    private ConfigurationAdmin configAdmin;

    private BundleContext context;
    private Path home;
    private StoreSettings settings;
    private MvStateStore store;
    private ServiceRegistration<StateStore> registration;

    @Activate
    synchronized void activate(BundleContext context, Map<String, Object> properties) throws InterruptedException {
        this.context = context;
        this.home = homePath(context.getProperty(HOME_PROPERTY));
        Map<String, Object> effective = properties;
        if (!properties.containsKey(ConfigurationSource.FILE_PROPERTY) && configFileExists()) {
            effective = awaitConfiguration(context, properties);
        }
        settings = configure(effective, StoreSettings.defaults());
        open();
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        StoreSettings next = configure(properties, settings);
        StoreSettings before = settings;
        settings = next;
        if (store == null) {
            open();
            return;
        }
        if (next.syncWrites() != store.syncWrites()) {
            store.syncWrites(next.syncWrites());
            LOG.info("State store {}: syncWrites = {}{}", store.fileName(), next.syncWrites(),
                    next.syncWrites() ? " (each write synced to the disk)"
                            : " (writes committed without a sync: a machine crash can lose the last ones)");
        }
        if (!next.resolve(home).toString().equals(store.fileName()) && !next.file().equals(before.file())) {
            LOG.warn("{}: file = '{}' applies at the next start; the running store keeps {}",
                    ConfigurationSource.of(StoreSettings.PID, properties), next.file(), store.fileName());
        }
    }

    @Deactivate
    synchronized void deactivate() {
        if (registration != null) {
            registration.unregister();
            registration = null;
        }
        if (store != null) {
            StoreStats stats = store.stats();
            store.close();
            LOG.info("State store {} closed: {} snapshots written with {} syncs; {} stored ({} bytes)",
                    store.fileName(), stats.writes(), stats.syncs(), stats.storedStates(), stats.storedBytes());
            store = null;
        }
    }

    /** Opens the store of {@link #settings} and registers it; logs why not when it cannot. */
    private void open() {
        Path file = settings.resolve(home);
        try {
            store = MvStateStore.open(file, settings.syncWrites());
        } catch (IOException | RuntimeException e) {
            LOG.error("State store {} cannot be opened ({}): durable actors cannot keep their state until it is "
                    + "fixed (etc/{} key file; another Troupe using the same file?)", file, e.getMessage(),
                    CONFIG_FILE);
            return;
        }
        StoreStats stats = store.stats();
        LOG.info("State store {}: {} snapshots, {} bytes; syncWrites = {}", store.fileName(), stats.storedStates(),
                stats.storedBytes(), settings.syncWrites());
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe state store (H2 MVStore)");
        properties.put(FILE_PROPERTY, store.fileName());
        registration = context.registerService(StateStore.class, store, properties);
    }

    private StoreSettings configure(Map<String, Object> properties, StoreSettings previous) {
        StoreSettings next = StoreSettings.parse(properties, previous, problem -> LOG.error("{}", problem));
        for (String key : StoreSettings.unknownKeys(properties)) {
            LOG.warn("{}: unknown key '{}' ignored", ConfigurationSource.of(StoreSettings.PID, properties), key);
        }
        return next;
    }

    private boolean configFileExists() {
        return home != null && Files.isRegularFile(home.resolve("etc").resolve(CONFIG_FILE));
    }

    /**
     * The properties of {@value StoreSettings#PID} once FileInstall has given ConfigAdmin the file (at most
     * {@value #CONFIG_WAIT_SECONDS} s), else {@code properties} as they are, with a WARN.
     */
    private Map<String, Object> awaitConfiguration(BundleContext context, Map<String, Object> properties)
            throws InterruptedException {
        Map<String, Object> loaded = new FileConfiguration(context, configAdmin, StoreSettings.PID)
                .await(CONFIG_WAIT_SECONDS);
        if (loaded != null) {
            return loaded;
        }
        LOG.warn("FileInstall has not loaded {}/etc/{} within {} s; the state store starts with {}", home, CONFIG_FILE,
                Duration.ofSeconds(CONFIG_WAIT_SECONDS).toSeconds(), properties.isEmpty() ? "its defaults"
                        : "the configuration it has");
        return properties;
    }

    private static Path homePath(String home) {
        if (home == null || home.isBlank()) {
            return null;
        }
        try {
            return Path.of(home.strip());
        } catch (InvalidPathException e) {
            LOG.warn("{}={} is not a path: the state store file is taken relative to the working directory",
                    HOME_PROPERTY, home);
            return null;
        }
    }
}
