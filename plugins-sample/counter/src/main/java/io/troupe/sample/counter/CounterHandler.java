package io.troupe.sample.counter;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * The counter handler: one service for three message names, so that the runtime routes all of them
 * to the same {@link CounterActor} of a tenant, which holds that tenant's total.
 *
 * <p>The version that {@value CounterActor#VERSION} reports is this bundle's {@code Bundle-Version},
 * read once when Declarative Services activates the component (constructor injection of the
 * component's {@link BundleContext}). It is never written into the source: building the same source
 * as another version, and updating the bundle to it, changes the answer. Its major version also
 * chooses the format in which the actors export their totals on a hot swap (see {@link CounterState}).
 *
 * <p><b>Threading:</b> constructed by DS on a framework thread; {@link #create()} may then be called
 * from any runtime thread, concurrently. The only state, the version, is final, so it is safely
 * published to those threads.
 */
@Component(service = ActorFactory.class)
@Handler({CounterActor.ADD, CounterActor.GET, CounterActor.VERSION})
public final class CounterHandler implements ActorFactory {

    private final String version;

    @Activate
    public CounterHandler(BundleContext context) {
        this.version = context.getBundle().getVersion().toString();
    }

    @Override
    public Actor create() {
        return new CounterActor(version);
    }
}
