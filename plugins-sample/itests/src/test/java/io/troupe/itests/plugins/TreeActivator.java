package io.troupe.itests.plugins;

import java.util.Dictionary;
import java.util.Hashtable;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;
import io.troupe.api.Handler;

/**
 * A plugin whose handler actor grows a tree of three levels, each child spawned a different way, to
 * prove that a hot swap moves every actor of a plugin with its state: {@link TreeRoot} serves
 * {@value TreeRoot#PUT} and friends; the factory {@value TreeLeaf#FACTORY} makes {@link TreeLeaf}s.
 * The same class files make every version: what differs between revisions is the Bundle-Version,
 * which every actor reports.
 *
 * <p><b>Threading:</b> {@code start} and {@code stop} by the framework; the factories from any
 * runtime thread (they keep no state).
 */
public final class TreeActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        Dictionary<String, Object> handler = new Hashtable<>();
        handler.put(Handler.PROPERTY, new String[] {TreeRoot.PUT, TreeRoot.LAMBDA, TreeRoot.PIN, TreeRoot.UNPIN});
        context.registerService(ActorFactory.class, TreeRoot::new, handler);
        Dictionary<String, Object> leaf = new Hashtable<>();
        leaf.put(Factory.PROPERTY, TreeLeaf.FACTORY);
        context.registerService(ActorFactory.class, TreeLeaf::new, leaf);
    }

    @Override
    public void stop(BundleContext context) {
        // the framework withdraws the services
    }
}
