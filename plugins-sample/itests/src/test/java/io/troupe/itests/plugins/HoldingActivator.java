package io.troupe.itests.plugins;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.concurrent.CountDownLatch;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * A plugin serving {@value HoldingActor#WAIT} and {@value HoldingActor#QUICK}. Its actors hold on
 * {@code WAIT} until the bundle stops; on stop the handler service is withdrawn first (the runtime
 * then stops the actors), and only then are held actors let go, so that whatever queued behind them
 * meets a stopped actor.
 *
 * <p><b>Threading:</b> {@code start} and {@code stop} by the framework; {@link #create()} from any
 * runtime thread. The latch is final and thread-safe.
 */
public final class HoldingActivator implements BundleActivator, ActorFactory {

    private final CountDownLatch stopping = new CountDownLatch(1);
    private ServiceRegistration<ActorFactory> registration;

    @Override
    public void start(BundleContext context) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, new String[] {HoldingActor.WAIT, HoldingActor.QUICK});
        registration = context.registerService(ActorFactory.class, this, properties);
    }

    @Override
    public void stop(BundleContext context) {
        registration.unregister();
        stopping.countDown();
    }

    @Override
    public Actor create() {
        return new HoldingActor(stopping);
    }
}
