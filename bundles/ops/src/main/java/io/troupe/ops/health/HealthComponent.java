package io.troupe.ops.health;

import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

import io.troupe.ops.http.TroupeContext;

import jakarta.servlet.Servlet;

/**
 * Registers the health servlets on the whiteboard, in the {@code troupe} context: {@code /health/live}
 * ({@link HealthChecks#live}) and {@code /health/ready} ({@link HealthChecks#ready}).
 *
 * <p><b>Threading:</b> SCR calls activate and deactivate one at a time.
 */
@Component(service = {}, immediate = true)
public final class HealthComponent {

    static final String LIVE = "/health/live";
    static final String READY = "/health/ready";

    private final List<ServiceRegistration<Servlet>> registrations = new ArrayList<>();

    @Activate
    synchronized void activate(BundleContext context) {
        RuntimeView view = new OsgiRuntimeView(context);
        registrations.add(context.registerService(Servlet.class, new HealthServlet(view, HealthChecks::live),
                TroupeContext.servletProperties("troupe-health-live", LIVE)));
        registrations.add(context.registerService(Servlet.class, new HealthServlet(view, HealthChecks::ready),
                TroupeContext.servletProperties("troupe-health-ready", READY)));
    }

    @Deactivate
    synchronized void deactivate() {
        for (ServiceRegistration<Servlet> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // the bundle is stopping and the framework has unregistered it already
            }
        }
        registrations.clear();
    }
}
