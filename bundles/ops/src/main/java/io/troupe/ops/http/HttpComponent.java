package io.troupe.ops.http;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
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
import org.osgi.service.servlet.context.ServletContextHelper;
import org.osgi.service.servlet.whiteboard.HttpWhiteboardConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.config.ConfigurationSource;
import io.troupe.config.FileConfiguration;

import jakarta.servlet.Servlet;

/**
 * The HTTP endpoint's Declarative Services component: reads {@code etc/io.troupe.http.cfg} (PID
 * {@value HttpSettings#PID}) through {@link HttpSettings}, makes the admin token file when it is absent
 * (one INFO line names it; the token itself is never logged), registers the servlet context
 * {@value TroupeContext#NAME} with its token check, the login servlet and the catch-all 404 servlet on the
 * whiteboard, and has Felix HTTP Jetty listen where the settings say ({@link JettyBinding}).
 *
 * <p>A changed configuration applies live: a new address re-binds, a new token file is used from the next
 * request, {@code enabled = false} or a refused address stops the listener. Deactivation stops it too, so
 * that no port stays open without the servlets behind it.
 *
 * <p><b>Threading:</b> SCR calls activate, modified and deactivate one at a time, and they change the fields
 * under this object's lock; the servlets read the token file through a volatile field.
 */
@Designate(ocd = HttpConfiguration.class)
@Component(name = HttpSettings.PID, configurationPid = HttpSettings.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL, service = {}, immediate = true)
public final class HttpComponent {

    /** The framework property naming the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";
    static final int CONFIG_WAIT_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(HttpComponent.class);

    @Reference
    private ConfigurationAdmin configAdmin;

    private Path home;
    private HttpSettings settings;
    private JettyBinding jetty;
    private volatile AdminTokenFile tokenFile;
    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

    @Activate
    synchronized void activate(BundleContext context, Map<String, Object> properties) throws InterruptedException {
        home = homePath(context.getProperty(HOME_PROPERTY));
        Map<String, Object> effective = properties;
        FileConfiguration file = new FileConfiguration(context, configAdmin, HttpSettings.PID);
        if (!properties.containsKey(ConfigurationSource.FILE_PROPERTY) && file.fileExists(home)) {
            Map<String, Object> loaded = file.await(CONFIG_WAIT_SECONDS);
            if (loaded != null) {
                effective = loaded;
            } else {
                LOG.warn("FileInstall has not loaded {}/etc/{}.cfg within {} s; the HTTP endpoint starts with {}", home,
                        HttpSettings.PID, CONFIG_WAIT_SECONDS, properties.isEmpty() ? "its defaults"
                                : "the configuration it has");
            }
        }
        settings = configure(effective, HttpSettings.defaults());
        tokenFile = openTokenFile(settings);
        register(context);
        jetty = new JettyBinding(configAdmin, context);
        jetty.open();
        jetty.apply(settings, tokenFile);
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        HttpSettings next = configure(properties, settings);
        if (!next.resolveTokenFile(home).equals(tokenFile.path())) {
            tokenFile = openTokenFile(next);
        }
        settings = next;
        jetty.apply(next, tokenFile);
    }

    @Deactivate
    synchronized void deactivate() {
        if (jetty != null) {
            jetty.dispose();
        }
        for (ServiceRegistration<?> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // the bundle is stopping and the framework has unregistered it already
            }
        }
        registrations.clear();
    }

    private void register(BundleContext context) {
        Dictionary<String, Object> contextProperties = new Hashtable<>();
        contextProperties.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_CONTEXT_NAME, TroupeContext.NAME);
        contextProperties.put(HttpWhiteboardConstants.HTTP_WHITEBOARD_CONTEXT_PATH, "/");
        contextProperties.put(Constants.SERVICE_RANKING, 1);
        contextProperties.put(Constants.SERVICE_DESCRIPTION, "Troupe: the admin token check of the HTTP endpoint");
        registrations.add(context.registerService(ServletContextHelper.class, new TroupeContext(() -> tokenFile),
                contextProperties));
        registrations.add(context.registerService(Servlet.class, new LoginServlet(() -> tokenFile),
                TroupeContext.servletProperties("troupe-login", LoginServlet.LOGIN_PATH, LoginServlet.LOGOUT_PATH)));
        registrations.add(context.registerService(Servlet.class, new NotFoundServlet(),
                TroupeContext.servletProperties("troupe-not-found", "/")));
    }

    /** The token file of {@code settings}, written with a new token when absent (logged). */
    private AdminTokenFile openTokenFile(HttpSettings settings) {
        AdminTokenFile file = new AdminTokenFile(settings.resolveTokenFile(home));
        try {
            if (file.createIfAbsent()) {
                LOG.info("Admin token created in {} (readable by its owner only): give it as 'Authorization: Bearer "
                        + "<token>' for /metrics and /console", file.path());
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot create the admin token file {} ({}): the HTTP endpoint refuses every request but "
                    + "/health until the file holds a token", file.path(), e.toString());
        }
        file.current(); // reads it now, so that a bad file is reported at start
        return file;
    }

    private HttpSettings configure(Map<String, Object> properties, HttpSettings previous) {
        HttpSettings next = HttpSettings.parse(properties, previous, problem -> LOG.error("{}", problem));
        for (String key : HttpSettings.unknownKeys(properties)) {
            LOG.warn("{}: unknown key '{}' ignored", ConfigurationSource.of(HttpSettings.PID, properties), key);
        }
        return next;
    }

    private static Path homePath(String home) {
        if (home == null || home.isBlank()) {
            return null;
        }
        try {
            return Path.of(home.strip());
        } catch (InvalidPathException e) {
            LOG.warn("{}={} is not a path: the admin token file is taken relative to the working directory",
                    HOME_PROPERTY, home);
            return null;
        }
    }
}
