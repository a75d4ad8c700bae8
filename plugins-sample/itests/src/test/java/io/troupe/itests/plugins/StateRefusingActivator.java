package io.troupe.itests.plugins;

import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * A counter revision that starts and serves the counter's message names, but whose actors refuse
 * the state of the revision before them: taking over fails, and the host must roll back.
 *
 * <p><b>Threading:</b> {@code start} and {@code stop} by the framework; {@link #create()} from any
 * runtime thread (it only reads a final field).
 */
public final class StateRefusingActivator implements BundleActivator, ActorFactory {

    private static final String[] NAMES = {"counter.add", "counter.get", "counter.version"};

    private String version = "?";

    @Override
    public void start(BundleContext context) {
        version = context.getBundle().getVersion().toString();
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, NAMES);
        context.registerService(ActorFactory.class, this, properties);
    }

    @Override
    public void stop(BundleContext context) {
        // the framework unregisters the service
    }

    @Override
    public Actor create() {
        return new StateRefusingActor(version);
    }
}
