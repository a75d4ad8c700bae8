package io.troupe.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The actor runtime, registered by the host bundle as an OSGi service. First-party bundles (server,
 * shell) and tools use it to reach handlers, spawn top-level actors and observe the runtime.
 *
 * <p><b>Threading:</b> every method may be called from any thread.
 */
@ProviderType
public interface TroupeRuntime {

    /** The tenant used when none is given (by the shell, for example). */
    String DEFAULT_TENANT = "default";

    /**
     * The handler actor serving {@code messageName} for {@code tenant}, created on first use.
     * Empty when no bundle currently provides a handler for that name.
     */
    Optional<ActorRef> handler(String tenant, String messageName);

    /**
     * Routes {@code message} to its handler in {@code tenant} and returns the reply, as
     * {@link ActorRef#ask} does. Fails with {@link TroupeException} code {@link ErrorCode#NO_HANDLER}
     * when no handler serves the name.
     */
    CompletionStage<Object> ask(String tenant, Message message, Duration timeout);

    /**
     * Backpressure for producers that must never block, such as event loops feeding handlers. If
     * {@code target}'s mailbox is above its high-water mark (half its capacity), arranges for
     * {@code onDrained} to run once when it falls below its low-water mark (a quarter), and returns
     * {@code true}: the producer should pause until then. Otherwise returns {@code false} at once.
     * {@code onDrained} runs on a runtime thread and must be quick (hand the work to your own thread).
     */
    boolean awaitDrain(ActorRef target, Runnable onDrained);

    /** Spawns a top-level actor. */
    ActorRef spawn(ActorFactory factory, ActorOptions options);

    /**
     * Spawns a top-level actor from a factory registered under {@code factoryName}.
     *
     * @throws TroupeException with code {@link ErrorCode#NO_FACTORY} when none is registered
     */
    ActorRef spawn(String factoryName, ActorOptions options);

    /** Stops an actor (children first). */
    void stop(ActorRef actor);

    /** The actor with this id, if it is alive. */
    Optional<ActorRef> lookup(long id);

    /** Message names served by handlers right now. */
    Set<String> handlerNames();

    /** Factory names registered right now. */
    Set<String> factoryNames();

    /** A snapshot of every live actor, parents before their children. */
    List<ActorInfo> actors();

    /** Dead letters so far. */
    long deadLetterCount();

    /**
     * Calls {@code listener} for each dead letter from now on, on the thread that produced it (it
     * must be quick and must not throw). Close the returned handle to unsubscribe.
     */
    AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener);
}
