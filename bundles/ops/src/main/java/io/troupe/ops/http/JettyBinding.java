package io.troupe.ops.http;

import java.io.IOException;
import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.config.ListenAddress;

/**
 * Where Felix HTTP Jetty listens: the configuration of its PID {@value #JETTY_PID}, written from the
 * {@link HttpSettings}. The launcher starts the framework with {@code org.apache.felix.http.require.config
 * = true}, so Jetty listens only while that configuration exists: {@link #listen} writes it (Jetty restarts
 * on the new address), {@link #close} deletes it (Jetty stops). Nothing else listens for the endpoint: there
 * is no second web server.
 *
 * <p>The configuration is created unbound ({@code location null}), so that ConfigAdmin hands it to the Jetty
 * bundle's managed service and not to this bundle; an update with the same properties is not delivered again
 * ({@link Configuration#updateIfDifferent}), so Jetty restarts only when the address changes.
 *
 * <p>Once Jetty listens it registers its {@value #RUNTIME} service, and the binding logs where the endpoint
 * is; Jetty logs a failed bind (a port in use) itself.
 *
 * <p><b>Threading:</b> calls are serialised on this object (they come from the component's activate,
 * modified and deactivate); ConfigAdmin applies them to Jetty on its own thread, a moment later, and the
 * service listener runs on the thread that registered Jetty's runtime service, reading the bound settings
 * under this object's lock.
 */
final class JettyBinding {

    /** Felix HTTP Jetty's PID. */
    static final String JETTY_PID = "org.apache.felix.http";

    private static final Logger LOG = LoggerFactory.getLogger(JettyBinding.class);

    /** The service Felix HTTP registers while Jetty listens. */
    static final String RUNTIME = "org.osgi.service.servlet.runtime.HttpServiceRuntime";

    private final ConfigurationAdmin configAdmin;
    private final BundleContext context;
    private final ServiceListener listener = this::runtimeChanged;
    private HttpSettings bound;
    private AdminTokenFile boundTokenFile;

    JettyBinding(ConfigurationAdmin configAdmin, BundleContext context) {
        this.configAdmin = configAdmin;
        this.context = context;
    }

    /**
     * Listens as {@code settings} say, or nowhere when they are disabled or refused (logged).
     *
     * @param tokenFile where the admin token is, for the log line
     */
    synchronized void apply(HttpSettings settings, AdminTokenFile tokenFile) {
        if (!settings.enabled()) {
            if (close()) {
                LOG.info("HTTP endpoint off (enabled = false in etc/{}.cfg)", HttpSettings.PID);
            } else {
                LOG.info("HTTP endpoint off (enabled = false in etc/{}.cfg): nothing listens", HttpSettings.PID);
            }
            return;
        }
        String refusal = settings.refusal();
        if (refusal != null) {
            close();
            LOG.error("HTTP endpoint not listening on {}:{}: {}", settings.host(), settings.port(), refusal);
            return;
        }
        if (bound != null && !bound.needsRebind(settings)) {
            return;
        }
        try {
            Configuration configuration = configAdmin.getConfiguration(JETTY_PID, null);
            configuration.updateIfDifferent(jettyProperties(settings));
        } catch (IOException | RuntimeException e) {
            LOG.error("HTTP endpoint: cannot configure Felix HTTP Jetty ({}: {}); nothing listens", JETTY_PID,
                    e.toString());
            return;
        }
        bound = settings;
        boundTokenFile = tokenFile;
        if (!ListenAddress.isLoopback(settings.host())) {
            LOG.warn("HTTP endpoint on {}:{} in PLAINTEXT (allowPlaintext = true): the admin token and the console "
                    + "can be read and changed on the network", settings.host(), settings.port());
        }
    }

    /**
     * Jetty registers its runtime service once its connector listens (and unregisters it when it stops): the
     * moment to say where the endpoint is. A bind that fails (port in use) is logged by Jetty itself.
     */
    private void runtimeChanged(ServiceEvent event) {
        if (event.getType() != ServiceEvent.REGISTERED) {
            return;
        }
        HttpSettings settings;
        AdminTokenFile tokenFile;
        synchronized (this) {
            settings = bound;
            tokenFile = boundTokenFile;
        }
        if (settings != null) {
            LOG.info("HTTP endpoint listening on http://{}:{}/: /health/live and /health/ready open, every other path "
                    + "needs the admin token of {}", hostInUrl(settings.host()), settings.port(), tokenFile.path());
        }
    }

    /** Starts watching for Jetty's runtime service. */
    void open() {
        try {
            context.addServiceListener(listener, "(" + Constants.OBJECTCLASS + "=" + RUNTIME + ")");
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    synchronized void dispose() {
        try {
            context.removeServiceListener(listener);
        } catch (IllegalStateException e) {
            // the bundle is stopping: its listeners are gone already
        }
        close();
    }

    /**
     * Stops Jetty listening: deletes its configuration.
     *
     * @return whether it was listening (as far as this binding knows)
     */
    synchronized boolean close() {
        boolean was = bound != null;
        bound = null;
        boundTokenFile = null;
        try {
            Configuration[] existing = configAdmin.listConfigurations("(service.pid=" + JETTY_PID + ")");
            if (existing != null) {
                for (Configuration configuration : existing) {
                    configuration.delete();
                }
            }
        } catch (IOException | RuntimeException | InvalidSyntaxException e) {
            LOG.warn("HTTP endpoint: cannot delete the configuration {} ({}); Jetty may keep listening", JETTY_PID,
                    e.toString());
        }
        return was;
    }

    /** Felix HTTP Jetty's properties for {@code settings}: plain HTTP on host and port, no HTTPS. */
    static Dictionary<String, Object> jettyProperties(HttpSettings settings) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("org.apache.felix.http.enable", Boolean.TRUE);
        properties.put("org.apache.felix.https.enable", Boolean.FALSE);
        properties.put("org.apache.felix.http.host", settings.host());
        properties.put("org.osgi.service.http.port", settings.port());
        properties.put("org.apache.felix.http.context_path", "/");
        // no "Server: Jetty(12...)" header: the version helps nobody but a scanner
        properties.put("org.apache.felix.http.jetty.sendServerHeader", Boolean.FALSE);
        properties.put("org.apache.felix.http.mbeans", Boolean.FALSE);
        return properties;
    }

    private static String hostInUrl(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
