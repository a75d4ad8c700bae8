package io.troupe.host.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.StopReason;
import io.troupe.host.plugin.ActorDirectory;
import io.troupe.host.plugin.ActorPool;

/**
 * The one {@link TroupeRuntime} implementation: the actor system and an {@link ActorDirectory} behind one
 * facade. In the server it is the OSGi service the host bundle registers, over the whiteboard of plugin
 * services; on a plain class path the embedded runtime ({@code io.troupe.runtime.Troupe}) delegates to it,
 * over the handlers and factories the application registered in code. Built by {@link RuntimeCore}.
 *
 * <p><b>Threading:</b> every method from any thread; nothing blocks.
 */
public final class HostRuntime implements TroupeRuntime {

    private final ActorSystem system;
    private final ActorDirectory directory;

    HostRuntime(ActorSystem system, ActorDirectory directory) {
        this.system = system;
        this.directory = directory;
    }

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        return directory.handler(tenant, messageName);
    }

    @Override
    public CompletionStage<Object> ask(String tenant, Message message, Duration timeout) {
        Optional<ActorRef> handler;
        try {
            handler = directory.handler(tenant, message.name());
        } catch (TroupeException e) {
            return CompletableFuture.failedFuture(e); // the tenant's actor limit
        }
        if (handler.isEmpty()) {
            return CompletableFuture.failedFuture(new TroupeException(ErrorCode.NO_HANDLER,
                    "no handler for '" + message.name() + "' in tenant '" + tenant + "'"));
        }
        return system.ask(handler.get(), message, timeout);
    }

    @Override
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        if (target instanceof ActorPool pool) {
            // the member the next message would go to: when even it is above its high-water mark, pause
            return system.awaitDrain(pool.route(), onDrained);
        }
        return system.awaitDrain(target, onDrained);
    }

    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        return system.spawn(factory, options);
    }

    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        return system.spawn(factoryName, options);
    }

    @Override
    public void stop(ActorRef actor) {
        system.stop(actor, StopReason.NORMAL);
    }

    @Override
    public Optional<ActorRef> lookup(long id) {
        return system.lookup(id);
    }

    @Override
    public Optional<ActorRef> lookup(String tenant, String path) {
        return system.lookup(tenant, path);
    }

    @Override
    public CompletionStage<Void> whenTerminated() {
        return system.whenTerminated();
    }

    @Override
    public Set<String> handlerNames() {
        return directory.handlerNames();
    }

    @Override
    public Set<String> factoryNames() {
        return directory.factoryNames();
    }

    @Override
    public List<ActorInfo> actors() {
        return system.snapshot();
    }

    @Override
    public long deadLetterCount() {
        return system.deadLetters().count();
    }

    @Override
    public AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener) {
        return system.deadLetters().subscribe(listener);
    }

    @Override
    public void configureTenant(String tenant, TenantPolicy policy) {
        system.configureTenant(tenant, policy);
    }

    @Override
    public TenantPolicy tenantPolicy(String tenant) {
        return system.tenantPolicy(tenant);
    }

    /** Forgets the tenant's handler actors and pools first, so that a request after this starts fresh ones. */
    @Override
    public CompletionStage<Integer> stopTenant(String tenant) {
        directory.forgetTenant(tenant);
        return system.stopTenant(tenant);
    }

    /** Forgets the tenant's handler actors and pools first, as {@link #stopTenant} does. */
    @Override
    public CompletionStage<Integer> handOverTenant(String tenant) {
        directory.forgetTenant(tenant);
        return system.handOverTenant(tenant);
    }

    @Override
    public CompletionStage<Boolean> awaitTenantIdle(String tenant, Duration patience) {
        return system.awaitTenantIdle(tenant, patience);
    }

    @Override
    public boolean awaitTenantDrain(String tenant, Runnable onDrained) {
        return system.awaitTenantDrain(tenant, onDrained);
    }
}
