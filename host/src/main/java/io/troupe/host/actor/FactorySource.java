package io.troupe.host.actor;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;

/**
 * Where an actor's code comes from: the factory that creates (and re-creates, on restart) its
 * instances. Plugin-provided sources track the actors created from them so that they can be stopped
 * when the plugin goes away.
 *
 * <p><b>Threading:</b> every method may be called from any thread.
 */
public interface FactorySource {

    /** The factory to create an instance with now. */
    ActorFactory factory();

    /** A short description for shells and logs, e.g. {@code handler:echo}. */
    String origin();

    /**
     * Who provides the code, for logs (a stalled turn's report names it): a plugin's symbolic name and
     * version, e.g. {@code io.troupe.sample.echo 1.0.0}; empty when not known.
     */
    default String pluginName() {
        return "";
    }

    /**
     * The class loader of the code this source creates actors from: the bundle revision a hot swap
     * of that bundle must move them away from. By default, the factory's own class loader (a lambda
     * or an anonymous factory is loaded by the bundle that wrote it).
     */
    default ClassLoader codeLoader() {
        return factory().getClass().getClassLoader();
    }

    /**
     * The source to create an actor from now: this one, or, once a hot swap has replaced this
     * source's code, the next revision's source for the same name. The actor system asks it for every
     * new actor (and again after it checked for swaps in progress), so that a caller holding a source
     * from before a swap never starts an actor on the old revision.
     */
    default FactorySource current() {
        return this;
    }

    /** Called when an actor created from this source is spawned. */
    default void attach(ActorRef actor) {
    }

    /** Called when an actor created from this source has terminated. */
    default void detach(ActorRef actor) {
    }

    /**
     * What a stopped actor keeps of its source: the origin, for its name, and no code (its factory
     * refuses to create; its code loader is none), so that it pins no plugin's class loader.
     */
    static FactorySource stopped(String origin) {
        return new FactorySource() {
            @Override
            public ActorFactory factory() {
                return () -> {
                    throw new IllegalStateException(origin + " has stopped");
                };
            }

            @Override
            public ClassLoader codeLoader() {
                return null;
            }

            @Override
            public String origin() {
                return origin;
            }
        };
    }

    /** A source for a factory object handed over directly, tracking nothing. */
    static FactorySource of(ActorFactory factory, String origin) {
        return new FactorySource() {
            @Override
            public ActorFactory factory() {
                return factory;
            }

            @Override
            public String origin() {
                return origin;
            }
        };
    }
}
