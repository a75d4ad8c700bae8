package io.troupe.distribution.plugins;

import java.util.Hashtable;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * The activator of the tally test plugin {@link TallyPlugin} builds: never loaded by the tests themselves, only
 * packed into a bundle for the distribution to run. It registers one factory of {@link TallyActor} for the
 * message names {@value TallyActor#ADD}, {@value TallyActor#BUMP} and {@value TallyActor#GET}, so that all reach
 * the tenant's one tally.
 *
 * <p><b>Threading:</b> called by the framework on whichever thread starts the bundle.
 */
public final class TallyActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, new String[] {TallyActor.ADD, TallyActor.BUMP, TallyActor.GET});
        context.registerService(ActorFactory.class, TallyActor::new, properties);
    }

    @Override
    public void stop(BundleContext context) {
        // the framework unregisters the service
    }
}
