package io.troupe.server;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.api.admin.TenantSessions;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.api.cluster.TenantPlacement;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.net.Reactor;
import io.troupe.config.ConfigurationSource;
import io.troupe.server.cluster.TenantMoves;
import io.troupe.server.cluster.TenantPlacements;
import io.troupe.server.session.Sessions;
import io.troupe.server.tenant.DemoTenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantSessionsAdmin;
import io.troupe.server.tls.CertificateRotation;
import io.troupe.server.tls.ServerTlsContext;
import io.troupe.server.tls.ServerTlsEngines;
import io.troupe.server.tls.TlsConfigurationException;

/**
 * The server's Declarative Services component: wiring and configuration only.
 *
 * <p>Activation (the distribution starts this bundle above the plugins of deploy/, so their
 * handlers are registered by now):
 * <ol>
 * <li>reads {@value ServerSettings#PID} ({@link ServerSettings}, typed by {@link ServerConfiguration}; bad
 *     values are logged with the file, key and reason, and replaced by their defaults);</li>
 * <li>starts following tenant configurations, pushing each tenant's policy to the runtime and stopping a
 *     removed tenant's actors ({@link TenantPolicies}); when {@code troupe.home} has tenant files in
 *     {@code etc/} that FileInstall has not loaded yet, waits for them (at most
 *     {@value #TENANT_FILES_WAIT_SECONDS} s); then reads them all synchronously;</li>
 * <li>with no tenant at all, creates the {@link DemoTenant};</li>
 * <li>with {@code tls.keystore} set, builds the TLS context (relative paths against {@code troupe.home})
 *     and starts its {@link CertificateRotation}; a context that cannot be built is logged and nothing
 *     listens;</li>
 * <li>binds the port with the admission limits (and TLS), logs {@code Troupe ready on <host>:<port>} and
 *     registers that address as a service with the property {@code troupe.server.address} (the launcher
 *     waits for it).</li>
 * <li>starts sampling the tenants' request rates and watching their throttling ({@link TenantSampler}),
 *     and registers the tenants' figures as the {@link io.troupe.api.monitor.ServerStats} service
 *     ({@link ServerStatistics}), which the shell's {@code troupe:tenants} prints.</li>
 * </ol>
 * The component takes its configuration as the raw map, not as a {@link ServerConfiguration}: DS would
 * turn a bad value into the type's zero without a word, so the map is checked first and the
 * accepted values are read through the typed view.
 * A changed configuration applies live ({@link #modified}): limits and timeouts to the live
 * sessions, address and connection options by re-binding. {@code ioThreads} is informational: the
 * IO loops belong to the host's reactor (framework property {@code troupe.ioThreads}), so a value
 * that differs from the reactor's is logged as needing that property and a restart.
 *
 * <p>Deactivation (bundle or framework stop) stops accepting, answers the requests in flight for up
 * to {@value #ANSWER_WITHIN_SECONDS} s and gives up on the rest with {@code server.shutdown} within
 * {@value #CLOSE_WITHIN_SECONDS} s more, sending every session BYE: inside the distribution's 10 s
 * budget for SIGTERM.
 *
 * <p><b>Threading:</b> SCR calls activate, modified and deactivate one at a time. The TLS state (engines,
 * rotation) is also reached from the rotation's thread ({@link #tlsBuilt}): it changes under this
 * object's lock.
 */
@Designate(ocd = ServerConfiguration.class)
@Component(name = ServerSettings.PID, configurationPid = ServerSettings.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL, service = {}, immediate = true)
public final class ServerComponent {

    static final int TENANT_FILES_WAIT_SECONDS = 5;
    static final int ANSWER_WITHIN_SECONDS = 7;
    static final int CLOSE_WITHIN_SECONDS = 1;
    /** The framework property naming the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";
    /** How often the rotation looks at the TLS files. */
    static final Duration ROTATION_PERIOD = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(ServerComponent.class);

    @Reference
    private TroupeRuntime runtime;
    @Reference
    private Reactor reactor;
    @Reference
    private ConfigurationAdmin configAdmin;

    private volatile ServerSettings settings;
    private TenantDirectory tenants;
    private ServiceRegistration<ConfigurationListener> tenantListener;
    private Sessions sessions;
    private Endpoint endpoint;
    private TenantPolicies policies;
    private TenantSampler tenantSampler;
    private ServiceRegistration<ServerStats> statsRegistration;
    /** The operators' disconnect of a tenant's sessions (the web console's). */
    private ServiceRegistration<TenantSessions> sessionsRegistration;
    /** Clustered only: the handover service the cluster calls, announcing where clients reach this node. */
    private ServiceRegistration<TenantHandover> handoverRegistration;
    private volatile TenantPlacements placements;
    /** The cluster's placement service, bound before or after activation. */
    private volatile TenantPlacement boundPlacement;
    private Path home;
    /** The engines of the TLS listener, or null (plaintext, or no usable context). */
    private ServerTlsEngines tlsEngines;
    private CertificateRotation rotation;
    /** Which rotation's contexts count: raised with each new rotation. */
    private int tlsGeneration;
    private boolean deactivated;

    @Activate
    void activate(BundleContext context, Map<String, Object> properties) throws InterruptedException {
        settings = configure(properties, ServerSettings.defaults());
        policies = new TenantPolicies(runtime, settings.maxFrameBytes());
        tenants = new TenantDirectory(configAdmin, System::nanoTime, policies);
        tenantListener = context.registerService(ConfigurationListener.class, tenants, null);
        String home = context.getProperty(HOME_PROPERTY);
        this.home = homePath(home);
        Set<String> files = tenantFiles(home);
        if (!files.isEmpty()) {
            Set<String> missing = tenants.awaitFiles(files, Duration.ofSeconds(TENANT_FILES_WAIT_SECONDS));
            if (!missing.isEmpty()) {
                LOG.warn("FileInstall has not loaded {} from {}/etc within {} s (does felix.fileinstall.dir "
                        + "include etc?); serving without them until it does", missing, home,
                        TENANT_FILES_WAIT_SECONDS);
            }
        }
        int configurations = tenants.loadAll();
        boolean clustered = Boolean.parseBoolean(context.getProperty(TenantPlacements.CLUSTER_PROPERTY));
        if (configurations == 0 && files.isEmpty()) {
            if (clustered) {
                // Each node would make its own, with its own token, and the cluster keeps one file of a name.
                LOG.info("No tenant configured; a cluster node creates no demo tenant: add tenants on any one node"
                        + " (troupe:tenant-add), the cluster copies their files to the others");
            } else {
                createDemoTenant(home);
            }
        }
        sessions = new Sessions(runtime, tenants, settings.sessionLimits(), System::nanoTime);
        TenantMoves moves = new TenantMoves(tenants, runtime, System::nanoTime);
        placements = new TenantPlacements(clustered, moves, TenantPlacements.JOIN_WAIT);
        sessions.placements(placements);
        TenantPlacement early = boundPlacement;
        if (early != null) {
            placements.placementArrived(early);
        }
        endpoint = new Endpoint(reactor, sessions, context);
        synchronized (this) {
            applyTls(settings, null);
            endpoint.apply(settings, tlsEngines);
        }
        if (clustered) {
            LOG.info("Clustered (etc/io.troupe.cluster.cfg): clients are welcomed once the cluster has placed "
                    + "their tenant on this node");
            handoverRegistration = context.registerService(TenantHandover.class, moves, handoverProperties());
        }
        tenantSampler = new TenantSampler(tenants, System::nanoTime, () -> settings.maxFrameBytes());
        tenantSampler.start();
        Dictionary<String, Object> statsProperties = new Hashtable<>();
        statsProperties.put(Constants.SERVICE_DESCRIPTION, "Troupe server statistics (per tenant)");
        statsRegistration = context.registerService(ServerStats.class, tenantSampler.statistics(),
                statsProperties);
        sessionsRegistration = context.registerService(TenantSessions.class, new TenantSessionsAdmin(tenants), null);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        ServerSettings next = configure(properties, settings);
        sessions.updateLimits(next.sessionLimits());
        policies.serverFrameLimit(next.maxFrameBytes(), tenants.tenants());
        synchronized (this) {
            ServerSettings before = settings;
            settings = next;
            applyTls(next, before);
            endpoint.apply(next, tlsEngines);
            if (handoverRegistration != null) {
                handoverRegistration.setProperties(handoverProperties());
            }
        }
    }

    /** The cluster's placement service: HELLOs are placed by it from now on (clustered nodes only). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindPlacement(TenantPlacement placement) {
        boundPlacement = placement;
        TenantPlacements current = placements;
        if (current != null) {
            current.placementArrived(placement);
        }
    }

    void unbindPlacement(TenantPlacement placement) {
        if (boundPlacement == placement) {
            boundPlacement = null;
        }
        TenantPlacements current = placements;
        if (current != null) {
            current.placementLeft(placement);
        }
    }

    /** {@value Endpoint#ADDRESS_PROPERTY}: where the listener is bound, for the cluster's redirects. */
    private Dictionary<String, Object> handoverProperties() {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe server: hands tenants over to other cluster nodes");
        endpoint.address().ifPresent(bound -> properties.put(Endpoint.ADDRESS_PROPERTY,
                settings.host() + ":" + bound.getPort()));
        return properties;
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        long start = System.nanoTime();
        statsRegistration.unregister();
        sessionsRegistration.unregister();
        if (handoverRegistration != null) {
            handoverRegistration.unregister();
            handoverRegistration = null;
        }
        tenantSampler.close();
        CertificateRotation stopping;
        synchronized (this) {
            deactivated = true;
            stopping = rotation;
            rotation = null;
        }
        if (stopping != null) {
            stopping.close();
        }
        endpoint.close();
        tenantListener.unregister();
        tenants.close();
        boolean clean = sessions.shutdown(Duration.ofSeconds(ANSWER_WITHIN_SECONDS),
                Duration.ofSeconds(CLOSE_WITHIN_SECONDS));
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (clean) {
            LOG.info("Troupe server stopped in {} ms", millis);
        } else {
            LOG.warn("Troupe server stopped in {} ms with sessions still closing", millis);
        }
    }

    /**
     * Builds the TLS context of {@code next} when its TLS keys differ from {@code before}'s, or no context is
     * in use (at start, or after one that could not be built): TLS off drops the engines; a context that
     * cannot be built is logged and the engines stay as they were (the previous certificate, or none: then
     * nothing listens); a new one is swapped into the engines the listener already has, or makes new ones.
     * Either way a new {@link CertificateRotation} watches the files, and hands later contexts to
     * {@link #tlsBuilt} (so that a keystore fixed after a failure is picked up too).
     */
    private void applyTls(ServerSettings next, ServerSettings before) {
        if (!next.tls().enabled()) {
            stopRotation();
            tlsEngines = null;
            return;
        }
        if (before != null && tlsEngines != null && before.tls().equals(next.tls())) {
            return;
        }
        stopRotation();
        int generation = ++tlsGeneration;
        rotation = new CertificateRotation(next.tls(), home, built -> tlsBuilt(generation, built), ROTATION_PERIOD);
        ServerTlsContext built;
        try {
            built = ServerTlsContext.build(next.tls(), home);
        } catch (TlsConfigurationException e) {
            LOG.error("TLS configuration {} cannot be used: {}; {}", ServerSettings.PID, e.getMessage(),
                    tlsEngines == null ? "the server does not listen until it is fixed (its files are watched)"
                            : "new connections keep getting " + tlsEngines.current().describe());
            return;
        }
        if (tlsEngines == null) {
            tlsEngines = new ServerTlsEngines(built);
        } else {
            tlsEngines.swap(built);
            LOG.info("TLS configuration changed: new connections get {}", built.describe());
        }
    }

    /**
     * A context the rotation of {@code generation} built after its files changed: swapped in, or, when no
     * context could be built before, the one the server now listens with. Ignored from a rotation already
     * replaced or after deactivation. On the rotation's thread.
     */
    private synchronized void tlsBuilt(int generation, ServerTlsContext built) {
        if (deactivated || generation != tlsGeneration) {
            return;
        }
        if (tlsEngines != null) {
            tlsEngines.swap(built);
            return;
        }
        tlsEngines = new ServerTlsEngines(built);
        endpoint.apply(settings, tlsEngines);
    }

    private void stopRotation() {
        if (rotation != null) {
            rotation.close();
            rotation = null;
        }
    }

    private static Path homePath(String home) {
        if (home == null) {
            return null;
        }
        try {
            return Path.of(home);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private ServerSettings configure(Map<String, Object> properties, ServerSettings previous) {
        ServerSettings next = ServerSettings.parse(properties, previous,
                problem -> LOG.error("{}", problem));
        for (String key : ServerSettings.unknownKeys(properties)) {
            LOG.warn("{}: unknown key '{}' ignored", ConfigurationSource.of(ServerSettings.PID, properties), key);
        }
        if (properties.get(ServerSettings.IO_THREADS) != null && next.ioThreads() != reactor.ioLoops()) {
            LOG.warn("Configuration {}: {}={} is informational: the host's reactor runs {} IO loops; set the "
                    + "framework property troupe.ioThreads and restart to change that", ServerSettings.PID,
                    ServerSettings.IO_THREADS, next.ioThreads(), reactor.ioLoops());
        }
        return next;
    }

    private void createDemoTenant(String home) {
        DemoTenant demo = new DemoTenant(configAdmin, tenants, new SecureRandom(), System.out);
        try {
            if (home == null) {
                demo.createConfiguration();
            } else {
                demo.createFile(Path.of(home));
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("No tenant is configured, and the demo tenant could not be created: {}", e.toString());
        }
    }

    /** The names of the tenant files in {@code home/etc}; empty without a home. */
    private static Set<String> tenantFiles(String home) {
        Set<String> names = new TreeSet<>();
        if (home == null) {
            return names;
        }
        Path etc;
        try {
            etc = Path.of(home, "etc");
        } catch (InvalidPathException e) {
            LOG.warn("{}={} is not a path: {}", HOME_PROPERTY, home, e.getMessage());
            return names;
        }
        if (!Files.isDirectory(etc)) {
            return names;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(etc, TenantConfig.FILE_PREFIX + "*.cfg")) {
            for (Path file : files) {
                names.add(file.getFileName().toString());
            }
        } catch (IOException e) {
            LOG.warn("Cannot list {}: {}", etc, e.toString());
        }
        return names;
    }
}
