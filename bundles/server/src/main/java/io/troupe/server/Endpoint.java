package io.troupe.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Optional;
import java.util.OptionalLong;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.api.net.ListenerOptions;
import io.troupe.api.net.Reactor;
import io.troupe.config.ListenAddress;
import io.troupe.server.admission.AdmissionPolicy;
import io.troupe.server.admission.FileDescriptorLimit;
import io.troupe.server.session.Sessions;
import io.troupe.server.tls.ServerTlsEngines;

/**
 * The listening socket as configured. {@link #apply} binds it, or re-binds it when the address or
 * the per-connection options change; connections already accepted stay open through a re-bind and
 * keep the options they were accepted with. When the address cannot be bound the server logs why
 * and listens nowhere until the next settings change.
 *
 * <p>The listener gets the {@linkplain AdmissionPolicy admission limits} (logged once per bind) and,
 * with TLS, the {@link ServerTlsEngines}. Without TLS it listens on a loopback address only, unless
 * {@code allowPlaintext = true}, which it says at WARN; a TLS configuration whose context could not be
 * built leaves it listening nowhere (never in plaintext instead).
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
    private ServerTlsEngines boundTls;
    private ServiceRegistration<InetSocketAddress> announcement;

    Endpoint(Reactor reactor, Sessions sessions, BundleContext context) {
        this.reactor = reactor;
        this.sessions = sessions;
        this.context = context;
    }

    /**
     * Listens as {@code settings} say, re-binding only when needed.
     *
     * @param tls the engines when {@code settings} has TLS on, {@code null} when it is off or its context
     *            could not be built (then nothing listens)
     */
    synchronized void apply(ServerSettings settings, ServerTlsEngines tls) {
        if (listener != null && !bound.needsRebind(settings) && boundTls == tls) {
            return;
        }
        closeListener();
        String refusal = refusal(settings, tls);
        if (refusal != null) {
            LOG.error("Not listening on {}:{}: {}", settings.host(), settings.port(), refusal);
            return;
        }
        ConnectionOptions options = settings.connectionOptions();
        AdmissionPolicy admission = settings.admission(fileLimit());
        ListenerOptions listenerOptions = new ListenerOptions(options, admission.limits(), tls);
        try {
            listener = reactor.listen(settings.address(), sessions.handlers(options), listenerOptions);
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot listen on {}:{} ({}); clients cannot connect until host or port in "
                    + "etc/{}.cfg is changed", settings.host(), settings.port(), e.toString(), ServerSettings.PID);
            return;
        }
        bound = settings;
        boundTls = tls;
        LOG.info("Admission: {}", admission.describe());
        String risk = admission.overcommitment();
        if (risk != null) {
            LOG.warn("Admission: {}", risk);
        }
        if (tls != null) {
            LOG.info("TLS on {}:{}: {}", settings.host(), listener.address().getPort(), tls.current().describe());
        } else if (!ListenAddress.isLoopback(settings.host())) {
            LOG.warn("The server listens on {}:{} in PLAINTEXT (allowPlaintext = true): tokens and payloads can be "
                    + "read and changed on the network; configure tls.keystore", settings.host(),
                    listener.address().getPort());
        }
        String address = settings.host() + ":" + listener.address().getPort();
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(ADDRESS_PROPERTY, address);
        properties.put(Constants.SERVICE_DESCRIPTION, "The address the Troupe server listens on");
        announcement = context.registerService(InetSocketAddress.class, listener.address(), properties);
        LOG.info("Troupe ready on {}", address);
    }

    /** Why the server must not listen as {@code settings} say, or {@code null}. */
    static String refusal(ServerSettings settings, ServerTlsEngines tls) {
        if (settings.tls().enabled()) {
            return tls == null ? "TLS is configured (tls.keystore) but its context could not be built (see the "
                    + "error above); fix the keystore or its password in etc/" + ServerSettings.PID + ".cfg" : null;
        }
        if (settings.allowPlaintext() || ListenAddress.isLoopback(settings.host())
                || !ListenAddress.resolves(settings.host())) {
            // A name that does not resolve fails to bind, with its own error.
            return null;
        }
        return "the protocol would be plaintext on a non-loopback address: configure TLS (tls.keystore; "
                + "bin/troupe tls-init makes a keystore to try it) or set allowPlaintext = true in etc/"
                + ServerSettings.PID + ".cfg";
    }

    private static OptionalLong fileLimit() {
        return FileDescriptorLimit.ofThisProcess();
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
            boundTls = null;
            LOG.info("Stopped accepting connections on {}", address);
        }
    }
}
