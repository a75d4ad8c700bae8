package io.troupe.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.Message;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.state.StateStore;
import io.troupe.host.core.CoreSettings;
import io.troupe.host.core.HostRuntime;
import io.troupe.host.core.RuntimeCore;
import io.troupe.host.monitor.ActorPoolSettings;
import io.troupe.host.monitor.MonitorSettings;
import io.troupe.host.plugin.CodeDirectory;

/**
 * Troupe in-process, on a plain class path: the same scheduler, mailboxes, timers, monitor and logger as the
 * server's host bundle (both run one runtime core), started without OSGi. Handlers and factories are
 * registered in code and behave exactly as a plugin's services do in the server, so a plugin's actors can be
 * unit-tested, embedded in an application or benchmarked as they run there.
 *
 * <pre>{@code
 * try (Troupe troupe = Troupe.builder()
 *         .workers(2)
 *         .handler("greet", () -> (ctx, message) -> ctx.reply("hello " + ((Message) message).text()))
 *         .build()) {
 *     Object reply = troupe.ask("acme", Message.of("greet", "ada"), Duration.ofSeconds(1))
 *             .toCompletableFuture().join();
 *     System.out.println(reply);                                          // hello ada
 *     ActorRef echo = troupe.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
 *     Object same = echo.ask("ping", Duration.ofSeconds(1)).toCompletableFuture().join();   // ping
 * }                                                                       // every actor stops, postStop runs
 * }</pre>
 *
 * <h2>Handlers and factories</h2>
 * {@link #registerHandler} (or {@link Builder#handler}) serves a message name as a plugin's
 * {@code @Handler} service does: one handler actor per tenant, created on first use (again after it stopped),
 * counted against the tenant's {@link TenantPolicy} (its actor limit, the handler names it may use).
 * {@link #registerPoolableHandler} serves each tenant with a pool of {@code min..max} actors that the monitor
 * grows and shrinks with the backlog, as {@code @Poolable} does. {@link #registerFactory} makes a factory
 * spawnable by name ({@code ctx.spawn("name")}, {@link #spawn(String, ActorOptions)}), as {@code @Factory}
 * does. A name is registered once; closing its {@link Registration} is what a plugin's service going away is:
 * the name disappears, the actors created from it stop, and requests still queued for them fail with
 * {@code no.handler}.
 *
 * <h2>Closing</h2>
 * {@link #close()} stops the monitor, then every actor, children before their parents ({@code postStop} runs),
 * waiting up to the {@linkplain Builder#shutdownTimeout shutdown timeout}; {@link #whenTerminated()} completes
 * once they have all stopped. Then it stops the workers ({@code <prefix>-worker-N}), the timer
 * ({@code <prefix>-timer}) and its use of the logger, each within the timeout. It is idempotent.
 *
 * <h2>Logging</h2>
 * The host jar is also Troupe's SLF4J provider. When SLF4J is bound to it (the host jar is the only provider
 * on the class path), this runtime starts Troupe's asynchronous logger and stops it when closed (the last
 * runtime of the JVM to close stops it): records go to the console, or with the system property
 * {@code troupe.home} to {@code <troupe.home>/log/troupe.log} as in the server, and a record written during an
 * actor's turn names the actor and its tenant. When the application brings another SLF4J provider (logback,
 * Log4j, ...), Troupe only logs through it and starts no logger of its own.
 *
 * <p><b>Threading:</b> every method from any thread. {@link #close()} blocks until the runtime has stopped:
 * call it from a thread of the application; from one of the runtime's own actors it throws.
 */
public final class Troupe implements TroupeRuntime, AutoCloseable {

    private final RuntimeCore core;
    private final HostRuntime runtime;
    private final CodeDirectory directory;
    private volatile boolean closed;

    private Troupe(RuntimeCore core, CodeDirectory directory) {
        this.core = core;
        this.runtime = core.runtime();
        this.directory = directory;
    }

    /** A builder with every default: see {@link Builder}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts a runtime with every default of {@link Builder}. */
    public static Troupe start() {
        return builder().build();
    }

    // ---------------------------------------------------------------- registrations

    /**
     * Serves {@code messageName} with actors from {@code factory}: one per tenant, created on first use.
     *
     * @throws IllegalArgumentException for a blank name, or one a handler is registered under already
     * @throws IllegalStateException    once this runtime is closed
     */
    public Registration registerHandler(String messageName, ActorFactory factory) {
        return register(List.of(RegistrationArguments.check("messageName", messageName)), List.of(), factory, 0, 0);
    }

    /**
     * Serves every name of {@code messageNames} with one actor per tenant from {@code factory}, as a plugin's
     * {@code @Handler({"counter.add", "counter.get"})} does: all the names reach the same actor.
     *
     * @throws IllegalArgumentException for no names, a blank name, a name given twice, or one a handler is
     *                                  registered under already
     * @throws IllegalStateException    once this runtime is closed
     */
    public Registration registerHandler(Collection<String> messageNames, ActorFactory factory) {
        return register(RegistrationArguments.checkAll("messageNames", messageNames), List.of(), factory, 0, 0);
    }

    /**
     * Serves {@code messageName} with a pool of {@code min..max} actors from {@code factory} per tenant; the
     * monitor grows and shrinks it with the backlog (it keeps {@code min} while the monitor is off).
     *
     * @throws IllegalArgumentException for a blank or taken name, {@code min < 1} or {@code max < min}
     * @throws IllegalStateException    once this runtime is closed
     */
    public Registration registerPoolableHandler(String messageName, ActorFactory factory, int min, int max) {
        RegistrationArguments.checkPool(min, max);
        return register(List.of(RegistrationArguments.check("messageName", messageName)), List.of(), factory, min, max);
    }

    /**
     * Makes {@code factory} spawnable under {@code factoryName} ({@code ctx.spawn(factoryName)}).
     *
     * @throws IllegalArgumentException for a blank name, or one a factory is registered under already
     * @throws IllegalStateException    once this runtime is closed
     */
    public Registration registerFactory(String factoryName, ActorFactory factory) {
        return register(List.of(), List.of(RegistrationArguments.check("factoryName", factoryName)), factory, 0, 0);
    }

    private Registration register(List<String> handlers, List<String> factories, ActorFactory factory, int min,
                                  int max) {
        Objects.requireNonNull(factory, "factory");
        CodeDirectory.Entry entry = directory.register(handlers, factories, factory, min, max);
        return entry::withdraw;
    }

    /**
     * Stops every actor and the runtime's threads; see the class comment. Idempotent; an interrupt cuts the
     * current wait short, the rest is stopped all the same and the interrupt is kept.
     *
     * @throws IllegalStateException when called from one of this runtime's actors (it would wait for its own
     *         turn); send a message to a thread of the application instead
     */
    @Override
    public void close() {
        core.requireOutside();
        closed = true;
        core.close(() -> { });
    }

    // ---------------------------------------------------------------- TroupeRuntime

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        return runtime.handler(tenant, messageName);
    }

    @Override
    public CompletionStage<Object> ask(String tenant, Message message, Duration timeout) {
        return runtime.ask(tenant, message, timeout);
    }

    @Override
    public boolean awaitDrain(ActorRef target, Runnable onDrained) {
        return runtime.awaitDrain(target, onDrained);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException once this runtime is closed
     */
    @Override
    public ActorRef spawn(ActorFactory factory, ActorOptions options) {
        requireOpen();
        return runtime.spawn(factory, options);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException once this runtime is closed
     */
    @Override
    public ActorRef spawn(String factoryName, ActorOptions options) {
        requireOpen();
        return runtime.spawn(factoryName, options);
    }

    @Override
    public void stop(ActorRef actor) {
        runtime.stop(actor);
    }

    @Override
    public Optional<ActorRef> lookup(long id) {
        return runtime.lookup(id);
    }

    @Override
    public Optional<ActorRef> lookup(String tenant, String path) {
        return runtime.lookup(tenant, path);
    }

    /** Completes once {@link #close()} has stopped every actor. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return runtime.whenTerminated();
    }

    @Override
    public Set<String> handlerNames() {
        return runtime.handlerNames();
    }

    @Override
    public Set<String> factoryNames() {
        return runtime.factoryNames();
    }

    @Override
    public List<ActorInfo> actors() {
        return runtime.actors();
    }

    @Override
    public long deadLetterCount() {
        return runtime.deadLetterCount();
    }

    @Override
    public AutoCloseable subscribeDeadLetters(Consumer<DeadLetter> listener) {
        return runtime.subscribeDeadLetters(listener);
    }

    @Override
    public void configureTenant(String tenant, TenantPolicy policy) {
        runtime.configureTenant(tenant, policy);
    }

    @Override
    public TenantPolicy tenantPolicy(String tenant) {
        return runtime.tenantPolicy(tenant);
    }

    @Override
    public CompletionStage<Integer> stopTenant(String tenant) {
        return runtime.stopTenant(tenant);
    }

    @Override
    public CompletionStage<Integer> handOverTenant(String tenant) {
        return runtime.handOverTenant(tenant);
    }

    @Override
    public CompletionStage<Boolean> awaitTenantIdle(String tenant, Duration patience) {
        return runtime.awaitTenantIdle(tenant, patience);
    }

    @Override
    public boolean awaitTenantDrain(String tenant, Runnable onDrained) {
        return runtime.awaitTenantDrain(tenant, onDrained);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("this Troupe runtime is closed: start another one");
        }
    }

    @Override
    public String toString() {
        return "Troupe[" + core.settings().threadNamePrefix() + ", " + core.settings().workers() + " workers]";
    }

    /**
     * A handler or factory registered on a {@link Troupe}. Closing it withdraws the names: the actors created
     * from it stop (children first), requests still queued for them fail with {@code no.handler}, and lookups
     * of the names find nothing, exactly as when a plugin's service goes away in the server. Idempotent.
     *
     * <p><b>Threading:</b> any thread.
     */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The settings of a {@link Troupe}, each with the distribution's default, and the handlers and factories
     * it starts with. Every setter checks its argument at once and throws an {@link IllegalArgumentException}
     * that names it; {@link #build()} checks the combination.
     *
     * <table>
     * <caption>Settings</caption>
     * <tr><th>setting</th><th>default</th><th>bounds</th></tr>
     * <tr><td>{@link #workers}</td><td>one per available processor</td><td>1..1024</td></tr>
     * <tr><td>{@link #maxWorkers}</td><td>4 per processor, at least {@code workers}</td>
     *     <td>{@code workers}..4096; the monitor grows the pool up to it while workers are stalled</td></tr>
     * <tr><td>{@link #throughput}</td><td>64 messages per turn</td><td>at least 1</td></tr>
     * <tr><td>{@link #workerSpin}</td><td>50 µs</td><td>zero (park at once) or more</td></tr>
     * <tr><td>{@link #threadNamePrefix}</td><td>{@code troupe}</td><td>not blank</td></tr>
     * <tr><td>{@link #shutdownTimeout}</td><td>5 s</td><td>positive</td></tr>
     * <tr><td>{@link #monitor}</td><td>on, with the server's thresholds</td><td></td></tr>
     * </table>
     *
     * <p><b>Threading:</b> not thread-safe; one thread builds.
     */
    public static final class Builder {

        private static final int MOST_WORKERS = 1024;
        private static final int MOST_MAX_WORKERS = 4096;

        private final int cores = Runtime.getRuntime().availableProcessors();
        private int workers;
        private int maxWorkers;
        private int throughput;
        private Duration workerSpin;
        private String threadNamePrefix;
        private Duration shutdownTimeout;
        private boolean monitor = true;
        private StateStore stateStore;
        private final List<Pending> registrations = new ArrayList<>();
        private final Set<String> handlerNames = new LinkedHashSet<>();
        private final Set<String> factoryNames = new LinkedHashSet<>();

        private Builder() {
            CoreSettings defaults = CoreSettings.defaults(cores);
            workers = defaults.workers();
            throughput = defaults.throughput();
            workerSpin = defaults.workerSpin();
            threadNamePrefix = defaults.threadNamePrefix();
            shutdownTimeout = defaults.shutdownTimeout();
        }

        /** The worker pool's size (its least size, when the monitor grows it), 1..1024. */
        public Builder workers(int count) {
            if (count < 1 || count > MOST_WORKERS) {
                throw new IllegalArgumentException("workers must be within 1.." + MOST_WORKERS + ", was " + count);
            }
            workers = count;
            return this;
        }

        /** The most workers the monitor may run while workers are stalled, {@code workers}..4096. */
        public Builder maxWorkers(int count) {
            if (count < 1 || count > MOST_MAX_WORKERS) {
                throw new IllegalArgumentException("maxWorkers must be within 1.." + MOST_MAX_WORKERS + ", was "
                        + count);
            }
            maxWorkers = count;
            return this;
        }

        /** Messages an actor processes per turn before its worker moves on, at least 1. */
        public Builder throughput(int messages) {
            if (messages < 1) {
                throw new IllegalArgumentException("throughput must be at least 1, was " + messages);
            }
            throughput = messages;
            return this;
        }

        /** How long a worker out of work keeps polling, yielding its core, before it parks; zero for never. */
        public Builder workerSpin(Duration spin) {
            Objects.requireNonNull(spin, "workerSpin");
            if (spin.isNegative()) {
                throw new IllegalArgumentException("workerSpin must not be negative, was " + spin);
            }
            workerSpin = spin;
            return this;
        }

        /** The threads are {@code prefix-worker-N}, {@code prefix-timer} and {@code prefix-monitor}. */
        public Builder threadNamePrefix(String prefix) {
            Objects.requireNonNull(prefix, "threadNamePrefix");
            if (prefix.isBlank() || !prefix.strip().equals(prefix)) {
                throw new IllegalArgumentException("threadNamePrefix must not be blank or start or end with"
                        + " blanks, was '" + prefix + "'");
            }
            threadNamePrefix = prefix;
            return this;
        }

        /** How long {@link Troupe#close()} waits for the actors to stop, then for each thread, positive. */
        public Builder shutdownTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "shutdownTimeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("shutdownTimeout must be positive, was " + timeout);
            }
            shutdownTimeout = timeout;
            return this;
        }

        /**
         * Whether the monitor thread runs: it reports stalled actors, grows the worker pool while workers are
         * stalled, sizes the pools of poolable handlers and writes a summary every minute. On by default.
         */
        public Builder monitor(boolean enabled) {
            monitor = enabled;
            return this;
        }

        /**
         * Where {@link io.troupe.api.state.Durable} actors keep their state (for example
         * {@code io.troupe.store.MvStateStore.open(path)} from troupe-store). Without one, durable actors
         * keep their state in memory only, as the log says once. The runtime does not close the store.
         */
        public Builder stateStore(StateStore store) {
            stateStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Registers a handler at start; see {@link Troupe#registerHandler(String, ActorFactory)}. */
        public Builder handler(String messageName, ActorFactory factory) {
            return add(List.of(RegistrationArguments.check("messageName", messageName)), null, factory, 0, 0);
        }

        /**
         * Registers a handler of several names at start; see
         * {@link Troupe#registerHandler(Collection, ActorFactory)}.
         */
        public Builder handler(Collection<String> messageNames, ActorFactory factory) {
            return add(RegistrationArguments.checkAll("messageNames", messageNames), null, factory, 0, 0);
        }

        /** Registers a poolable handler at start; see {@link Troupe#registerPoolableHandler}. */
        public Builder poolableHandler(String messageName, ActorFactory factory, int min, int max) {
            RegistrationArguments.checkPool(min, max);
            return add(List.of(RegistrationArguments.check("messageName", messageName)), null, factory, min, max);
        }

        /** Registers a factory name at start; see {@link Troupe#registerFactory}. */
        public Builder factory(String factoryName, ActorFactory factory) {
            return add(List.of(), RegistrationArguments.check("factoryName", factoryName), factory, 0, 0);
        }

        private Builder add(List<String> handlers, String factoryName, ActorFactory factory, int min, int max) {
            Objects.requireNonNull(factory, "factory");
            for (String handler : handlers) {
                if (handlerNames.contains(handler)) {
                    throw new IllegalArgumentException("a handler for '" + handler + "' is registered already");
                }
            }
            handlerNames.addAll(handlers);
            if (factoryName != null && !factoryNames.add(factoryName)) {
                throw new IllegalArgumentException("a factory named '" + factoryName + "' is registered already");
            }
            registrations.add(new Pending(handlers, factoryName, factory, min, max));
            return this;
        }

        /**
         * Starts the runtime with these settings and registrations.
         *
         * @throws IllegalArgumentException when {@code maxWorkers} is below {@code workers}
         */
        public Troupe build() {
            int max = maxWorkers == 0 ? Math.max(workers, 4 * cores) : maxWorkers;
            if (max < workers) {
                throw new IllegalArgumentException("maxWorkers (" + max + ") must be at least workers (" + workers
                        + ")");
            }
            CoreSettings settings = new CoreSettings(workers, max, workerSpin, throughput, threadNamePrefix,
                    shutdownTimeout);
            CodeDirectory directory = new CodeDirectory();
            for (Pending pending : registrations) {
                directory.register(pending.handlers,
                        pending.factoryName == null ? List.of() : List.of(pending.factoryName), pending.factory,
                        pending.min, pending.max);
            }
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            RuntimeCore core = RuntimeCore.start(settings, directory,
                    loader != null ? loader : Troupe.class.getClassLoader());
            core.system().useStateStore(stateStore, stateStore != null);
            if (monitor) {
                try {
                    core.startMonitor(MonitorSettings.defaults(), ActorPoolSettings.defaults(), List::of);
                } catch (RuntimeException | Error e) {
                    core.close(() -> { });
                    throw e;
                }
            }
            return new Troupe(core, directory);
        }

        /** A registration made on the builder, registered when the runtime starts. */
        private record Pending(List<String> handlers, String factoryName, ActorFactory factory, int min, int max) {
        }
    }
}
