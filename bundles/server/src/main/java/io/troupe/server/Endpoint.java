package io.troupe.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Optional;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.Reactor;
import io.troupe.server.session.Sessions;

/**
 * The listening socket as configured. {@link #apply} binds it, or re-binds it when the address or
 * the per-connection options change; connections already accepted stay open through a re-bind and
 * keep the options they were accepted with. When the address cannot be bound the server logs why
 * and listens nowhere until the next settings change.
 *
 * <p>While it listens, the address is also an OSGi service: an {@link InetSocketAddress} with the
 * property {@value #ADDRESS_PROPERTY} = {@code host:port}. The launcher waits for it to print its
 * ready line; it matches the property only, so it needs no class of this bundle.
 *
 * <p><b>Threading:</b> any thread; calls are serialised on this object (they come from the
 * component's activate/modified/deactivate).
 */
final class Endpoint {

    /** The service property announcing where the server listens, as {@code host:port}. */
    static final String ADDRESS_PROPERTY = "troupe.server.address";

    private static final Logger LOG = LoggerFactory.getLogger(Endpoint.class);

    private final Reactor reactor;
    private final Sessions sessions;
    private final BundleContext context;
    private Listener listener;
    private ServerSettings bound;
    private ServiceRegistration<InetSocketAddress> announcement;

    Endpoint(Reactor reactor, Sessions sessions, BundleContext context) {
        this.reactor = reactor;
        this.sessions = sessions;
        this.context = context;
    }

    /** Listens as {@code settings} say, re-binding only when needed. */
    synchronized void apply(ServerSettings settings) {
        if (listener != null && !bound.needsRebind(settings)) {
            return;
        }
        closeListener();
        ConnectionOptions options = settings.connectionOptions();
        try {
            listener = reactor.listen(settings.address(), sessions.handlers(options), options);
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot listen on {}:{} ({}); clients cannot connect until host or port in "
                    + "etc/{}.cfg is changed", settings.host(), settings.port(), e.toString(), ServerSettings.PID);
            return;
        }
        bound = settings;
        String address = settings.host() + ":" + listener.address().getPort();
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(ADDRESS_PROPERTY, address);
        properties.put(Constants.SERVICE_DESCRIPTION, "The address the Troupe server listens on");
        announcement = context.registerService(InetSocketAddress.class, listener.address(), properties);
        LOG.info("Troupe ready on {}", address);
    }

    /** Stops accepting; accepted connections stay open. */
    synchronized void close() {
        closeListener();
    }

    /** Where it listens now, if anywhere. */
    synchronized Optional<InetSocketAddress> address() {
        return listener == null ? Optional.empty() : Optional.of(listener.address());
    }

    private void closeListener() {
        if (announcement != null) {
            try {
                announcement.unregister();
            } catch (IllegalStateException e) {
                // the bundle is stopping and the framework has unregistered it already
            }
            announcement = null;
        }
        if (listener != null) {
            InetSocketAddress address = listener.address();
            listener.close();
            listener = null;
            LOG.info("Stopped accepting connections on {}", address);
        }
    }
}
