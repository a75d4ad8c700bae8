package io.troupe.server.tenant;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationEvent;
import org.osgi.service.cm.ConfigurationListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.server.credential.SecretFile;
import io.troupe.server.credential.TenantFile;

/**
 * The tenants by id, kept in step with the factory configurations of {@value TenantConfig#FACTORY_PID}.
 *
 * <pre>
 *   ConfigAdmin ──ConfigurationEvent(pid)──► reconcile(pid) ──listConfigurations(service.pid=pid)──┐
 *       ▲                                          │ valid: add or update the Tenant; absent: remove │
 *   FileInstall: etc/io.troupe.tenant-&lt;id&gt;.cfg     │ invalid: log, keep the previous state           │
 *                                                  ▼                                                │
 *                                   byId: id → Tenant   (read lock-free by every IO loop at HELLO) ◄┘
 * </pre>
 *
 * <p>A configuration from a file that holds a plaintext {@code token} (at least 32 characters) is
 * served with the token's hash, and the file is rewritten at once with {@code tokenHash} in place of
 * {@code token}, every other line kept, owner-only (0600), through a temporary file moved over it
 * ({@link SecretFile}); one INFO line says so. FileInstall then reads the rewritten file: same
 * credentials, nothing changes for the tenant. Verification itself is {@code io.troupe.server.auth}'s.
 *
 * <p>It listens for configuration events rather than registering a ManagedServiceFactory: events
 * arrive for every configuration whatever bundle location it is bound to, and each one is handled
 * by re-reading the configuration's current state, so handling is idempotent and the synchronous
 * {@link #loadAll()} at activation and the events may overlap freely.
 *
 * <p><b>Threading:</b> lookups ({@link #find}, {@link #tenants}) from any thread, lock-free.
 * Changes (events on ConfigAdmin's event thread, {@link #loadAll}, {@link #serve}) are serialised on
 * this object's monitor.
 */
public final class TenantDirectory implements ConfigurationListener {

    private static final Logger LOG = LoggerFactory.getLogger(TenantDirectory.class);
    private static final String FACTORY_FILTER = "(service.factoryPid=" + TenantConfig.FACTORY_PID + ")";
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** What a removed tenant's sessions are told in their BYE. */
    public static final String REMOVED_REASON = "tenant removed";

    private final ConfigurationAdmin configAdmin;
    private final LongSupplier nanoClock;
    private final TenantLifecycle lifecycle;
    private final ConcurrentHashMap<String, Tenant> byId = new ConcurrentHashMap<>();
    /** Guarded by {@code this}: which tenant each configuration defines. */
    private final Map<String, String> idByPid = new HashMap<>();
    /**
     * The change count of each configuration last applied: ConfigAdmin's event for an update that
     * {@link #loadAll()} has already applied must not apply it again, since a plaintext token would then be
     * hashed anew with another salt, and a HELLO being verified against the first hash refused.
     */
    private final Map<String, Long> appliedChangeCounts = new HashMap<>();
    private volatile boolean closed;

    public TenantDirectory(ConfigurationAdmin configAdmin, LongSupplier nanoClock) {
        this(configAdmin, nanoClock, TenantLifecycle.NONE);
    }

    /** @param lifecycle told of every tenant added, changed or removed */
    public TenantDirectory(ConfigurationAdmin configAdmin, LongSupplier nanoClock, TenantLifecycle lifecycle) {
        this.configAdmin = configAdmin;
        this.nanoClock = nanoClock;
        this.lifecycle = lifecycle;
    }

    /**
     * Reads every tenant configuration now (at activation), adding, updating or keeping tenants as
     * {@link #reconcile} does.
     *
     * @return the number of tenant configurations that exist, valid or not; -1 if ConfigAdmin could
     *         not be read (the tenants are left as they were)
     */
    public synchronized int loadAll() {
        Configuration[] configurations = list(FACTORY_FILTER);
        if (configurations == null) {
            return -1;
        }
        for (Configuration configuration : configurations) {
            applyOnce(configuration);
        }
        Set<String> present = new HashSet<>();
        for (Configuration configuration : configurations) {
            present.add(configuration.getPid());
        }
        for (String pid : List.copyOf(idByPid.keySet())) {
            if (!present.contains(pid)) {
                deleted(pid);
            }
        }
        return configurations.length;
    }

    /** The tenant {@code id}, if configured. */
    public Optional<Tenant> find(String id) {
        return Optional.ofNullable(id == null ? null : byId.get(id));
    }

    /** The tenants configured now. */
    public Collection<Tenant> tenants() {
        return Collections.unmodifiableCollection(byId.values());
    }

    /**
     * Serves a tenant that is not in ConfigAdmin yet (the demo tenant whose file FileInstall has not
     * read): the configuration that later arrives for the same id takes it over.
     */
    public synchronized void serve(TenantConfig config) {
        Tenant tenant = new Tenant(config, nanoClock);
        if (byId.putIfAbsent(config.id(), tenant) == null) {
            LOG.info("Tenant '{}' added from {} ({})", config.id(), config.source(), config.describeLimits());
            lifecycle.configured(tenant);
        }
    }

    /**
     * Waits until FileInstall has turned each of {@code fileNames} (tenant files in etc/) into a
     * configuration; {@link #loadAll()} then reads them. Polls ConfigAdmin; bounded by {@code timeout}.
     *
     * @return the file names still without a configuration (empty when all arrived)
     */
    public Set<String> awaitFiles(Set<String> fileNames, Duration timeout) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + timeout.toNanos();
        while (true) {
            Set<String> missing = new TreeSet<>(fileNames);
            Configuration[] configurations = list(FACTORY_FILTER);
            for (Configuration configuration : configurations == null ? new Configuration[0] : configurations) {
                Dictionary<String, Object> properties = configuration.getProperties();
                String fileName = properties == null ? null
                        : TenantConfig.fileNameOf(properties.get(TenantConfig.FILE_PROPERTY));
                if (fileName != null) {
                    missing.remove(fileName);
                }
            }
            if (missing.isEmpty() || nanoClock.getAsLong() - deadline > 0) {
                return missing;
            }
            LockSupport.parkNanos(this, POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for tenant files " + missing);
            }
        }
    }

    /** Stops reacting to configuration events (the server is stopping). */
    public void close() {
        closed = true;
    }

    @Override
    public void configurationEvent(ConfigurationEvent event) {
        if (!closed && TenantConfig.FACTORY_PID.equals(event.getFactoryPid())) {
            reconcile(event.getPid());
        }
    }

    /** Brings the tenant of configuration {@code pid} in line with the configuration's current state. */
    public synchronized void reconcile(String pid) {
        Configuration[] found = list("(service.pid=" + escape(pid) + ")");
        if (found == null) {
            return;
        }
        if (found.length == 0 || found[0].getProperties() == null) {
            deleted(pid);
        } else {
            applyOnce(found[0]);
        }
    }

    /** Applies {@code configuration} unless this very version of it has been applied already. */
    private void applyOnce(Configuration configuration) {
        String pid = configuration.getPid();
        long changeCount = configuration.getChangeCount();
        Long applied = appliedChangeCounts.get(pid);
        if (applied != null && applied == changeCount) {
            return;
        }
        appliedChangeCounts.put(pid, changeCount);
        apply(pid, configuration.getProperties());
    }

    private void apply(String pid, Dictionary<String, Object> properties) {
        if (properties == null) {
            return;
        }
        String previousId = idByPid.get(pid);
        TenantConfig config;
        try {
            config = TenantConfig.from(pid, toMap(properties));
        } catch (TenantConfigException e) {
            reject(e.source(), e.problem(), previousId);
            return;
        }
        if (!config.unknownKeys().isEmpty()) {
            LOG.warn("{}: unknown key(s) {} ignored", config.source(), config.unknownKeys());
        }
        if (config.hadPlaintextToken()) {
            migrateToken(config);
        }
        Tenant existing = byId.get(config.id());
        String owner = existing == null ? null : existing.config().pid();
        if (owner != null && !owner.equals(pid)) {
            reject(config.source(), "tenant '" + config.id() + "' is already defined by "
                    + existing.config().source(), previousId);
            return;
        }
        if (previousId != null && !previousId.equals(config.id())) {
            removeTenant(previousId, config.source() + " now defines tenant '" + config.id() + "' instead");
        }
        idByPid.put(pid, config.id());
        if (existing == null) {
            Tenant added = new Tenant(config, nanoClock);
            byId.put(config.id(), added);
            LOG.info("Tenant '{}' added from {} ({})", config.id(), config.source(), config.describeLimits());
            lifecycle.configured(added);
        } else {
            boolean changed = !existing.config().sameSettingsAs(config) || owner == null;
            existing.update(config);
            if (changed) {
                LOG.info("Tenant '{}' updated from {} ({})", config.id(), config.source(), config.describeLimits());
                lifecycle.configured(existing);
            }
        }
    }

    /**
     * Rewrites the file of {@code config} with its token's hash in place of the plaintext token, unless the
     * file has changed meanwhile (its token is no longer the one hashed).
     */
    private static void migrateToken(TenantConfig config) {
        if (config.path() == null) {
            LOG.warn("Tenant '{}': {} holds a plaintext token; it is not a file, so it cannot be rewritten with "
                    + "the token's hash: set {} instead", config.id(), config.source(), TenantConfig.TOKEN_HASH);
            return;
        }
        Path file = Path.of(config.path());
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            String token = TenantFile.valueOf(content, TenantFile.TOKEN);
            if (token == null || !config.tokenHash().verify(token.strip())) {
                return; // changed since it was read: the configuration that follows is handled in its turn
            }
            if (!content.equals(Files.readString(file, StandardCharsets.UTF_8))) {
                return; // edited while the token was verified: that edit's configuration comes next
            }
            SecretFile.replace(file, TenantFile.withTokenHash(content, Objects.requireNonNull(config.tokenHash())));
            LOG.info("Tenant '{}': the plaintext token in {} was migrated: the file now holds its hash ({}), "
                    + "owner-only; the token itself is unchanged", config.id(), file, TenantConfig.TOKEN_HASH);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Tenant '{}': could not rewrite {} with the token's hash ({}); the token works, but the file "
                    + "still holds it in plaintext", config.id(), file, e.toString());
        }
    }

    private void deleted(String pid) {
        appliedChangeCounts.remove(pid);
        String id = idByPid.remove(pid);
        if (id != null) {
            removeTenant(id, "its configuration " + pid + " was deleted");
        }
    }

    private void removeTenant(String id, String why) {
        Tenant tenant = byId.remove(id);
        if (tenant != null) {
            int sessions = tenant.remove(REMOVED_REASON);
            LOG.info("Tenant '{}' removed ({}); closing its {} session(s)", id, why, sessions);
            lifecycle.removed(tenant);
        }
    }

    private static void reject(String source, String problem, String previousId) {
        LOG.error("Rejected tenant {}: {}; {}", source, problem, previousId == null
                ? "no tenant was added"
                : "tenant '" + previousId + "' keeps its previous configuration");
    }

    /** The configurations matching {@code filter}; {@code null} when ConfigAdmin cannot be read. */
    private Configuration[] list(String filter) {
        try {
            Configuration[] found = configAdmin.listConfigurations(filter);
            return found == null ? new Configuration[0] : found;
        } catch (IOException | IllegalStateException e) {
            LOG.error("Cannot read tenant configurations from ConfigAdmin ({}); keeping the tenants as they are",
                    e.toString());
            return null;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException("bad filter " + filter, e);
        }
    }

    private static Map<String, Object> toMap(Dictionary<String, Object> properties) {
        Map<String, Object> map = new HashMap<>();
        for (String key : Collections.list(properties.keys())) {
            map.put(key, properties.get(key));
        }
        return map;
    }

    /** Escapes the characters that are special in an LDAP filter value. */
    static String escape(String value) {
        StringBuilder escaped = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            if (c == '\\' || c == '*' || c == '(' || c == ')') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }
}
