package io.troupe.launcher;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;

/**
 * Waits until the network server has opened its port. The server bundle announces it by registering
 * a service with the property {@value #ADDRESS_PROPERTY} ({@code host:port}); the launcher matches
 * the property only, so it needs none of the server's classes.
 *
 * <p><b>Threading:</b> {@link #await} blocks the launcher's main thread; the listener runs on
 * framework threads and only counts down a latch.
 */
final class ServerReadiness {

    /** The service property holding the address the server listens on. */
    static final String ADDRESS_PROPERTY = "troupe.server.address";

    private ServerReadiness() {
    }

    /**
     * The address the server listens on, once it does, or empty if it did not within
     * {@code timeoutSeconds}.
     */
    static Optional<String> await(BundleContext context, long timeoutSeconds) throws InterruptedException {
        String filter = "(" + ADDRESS_PROPERTY + "=*)";
        AtomicReference<String> address = new AtomicReference<>();
        CountDownLatch listening = new CountDownLatch(1);
        ServiceListener listener = event -> {
            if (event.getType() == ServiceEvent.REGISTERED) {
                address.compareAndSet(null, String.valueOf(event.getServiceReference().getProperty(ADDRESS_PROPERTY)));
                listening.countDown();
            }
        };
        try {
            context.addServiceListener(listener, filter);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        try {
            ServiceReference<?>[] existing = context.getServiceReferences((String) null, filter);
            if (existing != null && existing.length > 0) {
                address.compareAndSet(null, String.valueOf(existing[0].getProperty(ADDRESS_PROPERTY)));
                listening.countDown();
            }
            listening.await(timeoutSeconds, TimeUnit.SECONDS);
            return Optional.ofNullable(address.get());
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            context.removeServiceListener(listener);
        }
    }
}
