package io.troupe.itests.plugins;

import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;
import io.troupe.api.Handler;

/**
 * A plugin written against the actor API of version 1.4 ({@link WatchRoot}: a typed behaviour, a
 * worker it spawns by factory name, watches and asks without blocking, a stash held across a hot
 * swap), so that the framework tests see those powers survive the plugin host's hot swap.
 *
 * <p><b>Threading:</b> {@code start} and {@code stop} by the framework; the factories from any
 * runtime thread (they keep no state).
 */
public final class WatchActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        Dictionary<String, Object> handler = new Hashtable<>();
        handler.put(Handler.PROPERTY, WatchRoot.NAMES);
        context.registerService(ActorFactory.class, WatchRoot::new, handler);
        Dictionary<String, Object> worker = new Hashtable<>();
        worker.put(Factory.PROPERTY, WatchWorker.FACTORY);
        context.registerService(ActorFactory.class, WatchWorker::new, worker);
    }

    @Override
    public void stop(BundleContext context) {
        // the framework withdraws the services
    }
}
