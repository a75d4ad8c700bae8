package io.troupe.ops.console;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Dictionary;
import java.util.Hashtable;

import jakarta.servlet.Servlet;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.api.admin.TenantSessions;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.client.deploy.DeployFolder;

/**
 * The web console's Declarative Services component: builds the console's parts, subscribes to dead letters
 * and bundle events, starts the sampler thread and registers the two servlets on the HTTP whiteboard, in
 * the servlet context {@value #CONTEXT_NAME} (whose security checks the admin token).
 *
 * <pre>
 *   /console, /console/static/*   ConsolePageServlet   the page (no data; open without the token)
 *   /console/api/*                ConsoleApiServlet    views, events (async), actions
 * </pre>
 *
 * Where things are: the deploy folder is the framework property {@value #DEPLOY_DIR_PROPERTY} (the launcher
 * sets it), the log {@code <troupe.home>/log/troupe.log} as the host's logger writes it, the jars kept for
 * rollbacks this bundle's data area ({@code revisions/}).
 *
 * <p><b>Threading:</b> SCR calls activate and deactivate one at a time; the dynamic references are volatile
 * fields read by the console's threads.
 */
@Component(service = {}, immediate = true)
public final class ConsoleComponent {

    static final String CONTEXT_NAME = "troupe";
    static final String DEPLOY_DIR_PROPERTY = "troupe.deploy.dir";
    static final String HOME_PROPERTY = "troupe.home";
    /** The property of the message server's address service (registered once it listens). */
    static final String SERVER_ADDRESS_PROPERTY = "troupe.server.address";

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleComponent.class);

    @Reference
    private TroupeRuntime runtime;
    @Reference
    private RuntimeStats stats;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ServerStats server;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile TenantSessions sessions;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile ClusterView cluster;

    private BundleContext context;
    private AutoCloseable deadLetterSubscription;
    private PluginCatalog catalog;
    private ConsoleSampler sampler;
    private EventStream events;
    private ServiceRegistration<Servlet> pageRegistration;
    private ServiceRegistration<Servlet> apiRegistration;
    private String version;
    private String host;
    private Instant startedAt;

    @Activate
    void activate(BundleContext context) throws IOException {
        this.context = context;
        Clock clock = Clock.systemUTC();
        version = hostVersion(context);
        host = hostName();
        startedAt = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        PluginHistory history = new PluginHistory(clock);
        PluginRevisions revisions = new PluginRevisions(context.getDataFile("revisions").toPath());
        catalog = new PluginCatalog(context, deployFolder(context), history, revisions);
        context.addBundleListener(catalog);
        catalog.seed();
        DeadLetterLog deadLetters = new DeadLetterLog(clock);
        deadLetterSubscription = runtime.subscribeDeadLetters(deadLetters);
        TenantWindows windows = new TenantWindows();
        ChartHistory chart = new ChartHistory();
        ConsoleViews views = new ConsoleViews(runtime, stats, () -> server, this::node, catalog, history, windows,
                deadLetters, chart, new LogTail(logFile(context)));
        events = new EventStream();
        ConsoleActions actions = new ConsoleActions(runtime, catalog, revisions, history, () -> sessions);
        sampler = new ConsoleSampler(stats, views, windows, chart, catalog, events, System::nanoTime);
        sampler.start();
        pageRegistration = context.registerService(Servlet.class, new ConsolePageServlet(),
                servletProperties("troupe-console-page", false, "/console", "/console/static/*"));
        apiRegistration = context.registerService(Servlet.class, new ConsoleApiServlet(views, actions, events),
                servletProperties("troupe-console-api", true, "/console/api/*"));
        LOG.info("Web console registered at /console (deploy folder {}, log {})",
                catalog.folder().map(DeployFolder::dir).map(Path::toString).orElse("none"),
                logFile(context) == null ? "none" : logFile(context));
    }

    @Deactivate
    void deactivate() throws Exception {
        apiRegistration.unregister();
        pageRegistration.unregister();
        events.close();
        sampler.close();
        context.removeBundleListener(catalog);
        deadLetterSubscription.close();
    }

    private static Dictionary<String, Object> servletProperties(String name, boolean async, String... patterns) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("osgi.http.whiteboard.servlet.name", name);
        properties.put("osgi.http.whiteboard.servlet.pattern", patterns);
        properties.put("osgi.http.whiteboard.context.select", "(osgi.http.whiteboard.context.name=" + CONTEXT_NAME
                + ")");
        properties.put("osgi.http.whiteboard.servlet.asyncSupported", async);
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe web console: " + name);
        return properties;
    }

    /** The node as the overview shows it; the server's and the cluster's addresses as they are now. */
    private NodeIdentity node() {
        ClusterView view = cluster;
        String clusterNode = null;
        if (view != null) {
            try {
                clusterNode = view.localNode();
            } catch (RuntimeException e) {
                clusterNode = null; // leaving the cluster
            }
        }
        return new NodeIdentity(host, ProcessHandle.current().pid(), serverAddress(), clusterNode, version,
                startedAt);
    }

    private String serverAddress() {
        try {
            ServiceReference<?>[] references = context.getServiceReferences((String) null,
                    "(" + SERVER_ADDRESS_PROPERTY + "=*)");
            if (references == null) {
                return null;
            }
            return String.valueOf(references[0].getProperty(SERVER_ADDRESS_PROPERTY));
        } catch (InvalidSyntaxException | IllegalStateException e) {
            return null;
        }
    }

    private static String hostVersion(BundleContext context) {
        for (Bundle bundle : context.getBundles()) {
            if ("io.troupe.host".equals(bundle.getSymbolicName())) {
                return bundle.getVersion().toString();
            }
        }
        return context.getBundle().getVersion().toString();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static DeployFolder deployFolder(BundleContext context) {
        String dir = context.getProperty(DEPLOY_DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            LOG.info("No deploy folder ({} is not set): the console shows no plugins", DEPLOY_DIR_PROPERTY);
            return null;
        }
        try {
            return new DeployFolder(Path.of(dir.strip()));
        } catch (InvalidPathException e) {
            LOG.warn("{} = '{}' is not a path: the console shows no plugins", DEPLOY_DIR_PROPERTY, dir);
            return null;
        }
    }

    /** {@code <troupe.home>/log/troupe.log}, where the host's logger writes; null without a home. */
    private static Path logFile(BundleContext context) {
        String home = context.getProperty(HOME_PROPERTY);
        if (home == null || home.isBlank()) {
            return null;
        }
        try {
            return Path.of(home).resolve("log").resolve("troupe.log");
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
