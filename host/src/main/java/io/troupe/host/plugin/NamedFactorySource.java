package io.troupe.host.plugin;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.host.actor.FactorySource;

/**
 * The source of actors spawned by factory name ({@code ctx.spawn("kv.auditor")}): the plugin service
 * registered under that name creates them, and tracks them, so that they stop with the service or
 * move, on a swap, to the service registered under the same name by the next revision.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class NamedFactorySource implements FactorySource {

    private final PluginFactory owner;
    private final String name;

    NamedFactorySource(PluginFactory owner, String name) {
        this.owner = owner;
        this.name = name;
    }

    /** The factory name the actors were spawned by. */
    String name() {
        return name;
    }

    @Override
    public ActorFactory factory() {
        return owner.factory();
    }

    @Override
    public ClassLoader codeLoader() {
        return owner.codeLoader();
    }

    /** Once a swap replaced the owner, the next revision's source for the same factory name. */
    @Override
    public FactorySource current() {
        PluginFactory heir = owner.successor();
        return heir != null && heir.factoryNames().contains(name) ? heir.asFactory(name).current() : this;
    }

    @Override
    public String origin() {
        return "factory:" + name;
    }

    @Override
    public String pluginName() {
        return owner.pluginName();
    }

    @Override
    public void attach(ActorRef actor) {
        owner.adopt(actor, name);
    }

    @Override
    public void detach(ActorRef actor) {
        owner.detach(actor);
    }
}
