package io.troupe.host.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One framework operation that runs a plugin's own code (a bundle's start, stop, update or uninstall: its
 * activator, its Declarative Services components, its services' registration), on a thread of its own, so
 * that whoever asked for it waits only as long as it chooses to. A plugin whose activator never returns then
 * holds that thread (and the framework's lock on its bundle), never the deploy folder's watcher, the
 * framework's start-level thread, or the threads that stop Troupe.
 *
 * <p>The thread is named {@code troupe-plugin-<verb> <plugin>} and belongs to the plugin's thread group, so
 * that threads the plugin starts from it are found by {@link PluginThreads} later; its context class loader
 * is the one given (the plugin's, when its bundle is resolved).
 *
 * <p>An action that outlives the time it was given can be {@linkplain #release released}: interrupted (a
 * plugin that waits, sleeps or takes a lock interruptibly gives up), then, if it still runs, stopped with
 * {@link Thread#stop()} where the JDK still does that (up to JDK 19: a spinning plugin gets a
 * {@link ThreadDeath} wherever it is; from JDK 20 on the call is refused and the thread stays stuck).
 *
 * <p><b>Threading:</b> begun and awaited by one thread (the deployer's); the operation runs on the action's
 * thread; {@link #isDone}, {@link #failure}, {@link #stack} and {@link #release} may be called from any
 * thread. The outcome is published by a latch: {@link #failure} read after {@link #isDone} or a successful
 * {@link #await} sees what the operation did.
 */
final class BundleAction {

    /** What the action runs. */
    @FunctionalInterface
    interface Operation {
        void run() throws Exception;
    }

    /** How a {@linkplain #release release} ended. */
    enum Release {
        /** The operation had ended already, or ended once interrupted. */
        ENDED,
        /** The operation ended only once its thread was stopped. */
        STOPPED,
        /** The thread is still in the plugin's code: it is leaked. */
        STUCK
    }

    private final String description;
    private final Thread thread;
    private final long begunNanos;
    private final CountDownLatch done = new CountDownLatch(1);
    /** Written by the action's thread before the latch opens. */
    private volatile Throwable failure;
    /** Guarded by itself: what runs once the operation ended. */
    private final List<Runnable> whenDone = new ArrayList<>();
    private boolean finished;
    /** Whether {@link #release} had to end it. */
    private volatile boolean released;

    private BundleAction(String verb, String plugin, ThreadGroup group, ClassLoader contextLoader,
                         Operation operation) {
        this.description = verb + " of " + plugin;
        this.begunNanos = System.nanoTime();
        this.thread = new Thread(group, () -> run(operation), "troupe-plugin-" + verb + " " + plugin);
        thread.setDaemon(true);
        thread.setContextClassLoader(contextLoader);
    }

    /**
     * Starts {@code operation} on a new thread.
     *
     * @param verb          what it does, one word: {@code start}, {@code stop}, {@code update}, ...
     * @param plugin        the plugin, as the log names it: symbolic name, version and file
     * @param group         the plugin's thread group
     * @param contextLoader the thread's context class loader; {@code null} for none
     */
    static BundleAction begin(String verb, String plugin, ThreadGroup group, ClassLoader contextLoader,
                              Operation operation) {
        BundleAction action = new BundleAction(verb, plugin, group, contextLoader, operation);
        action.thread.start();
        return action;
    }

    private void run(Operation operation) {
        try {
            operation.run();
        } catch (Throwable e) { // the plugin's own failure, reported by whoever awaits it
            failure = e;
        } finally {
            finish();
        }
        VirtualMachineError fatal = fatalCause(failure);
        if (fatal != null) {
            throw fatal; // the process-wide policy ends the process (the framework wraps activators' errors)
        }
    }

    /** The {@link VirtualMachineError} among {@code failure} and its causes, if any. */
    static VirtualMachineError fatalCause(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof VirtualMachineError error) {
                return error;
            }
        }
        return null;
    }

    private void finish() {
        List<Runnable> then;
        synchronized (whenDone) {
            finished = true;
            done.countDown();
            then = List.copyOf(whenDone);
            whenDone.clear();
        }
        then.forEach(Runnable::run);
    }

    /** Waits up to {@code timeout} for the operation to end; returns whether it has. */
    boolean await(Duration timeout) throws InterruptedException {
        return done.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Whether the operation has ended. */
    boolean isDone() {
        return done.getCount() == 0;
    }

    /** What the operation threw, once it has ended; {@code null} if it returned normally or still runs. */
    Throwable failure() {
        return isDone() ? failure : null;
    }

    /**
     * Runs {@code then} once the operation has ended: at once on this thread if it has, else on the action's
     * thread when it does. {@code then} must not block.
     */
    void whenDone(Runnable then) {
        synchronized (whenDone) {
            if (!finished) {
                whenDone.add(then);
                return;
            }
        }
        then.run();
    }

    /** "start of com.example.hang 1.0.0 (deploy/hang.jar)". */
    String description() {
        return description;
    }

    /** The action's thread. */
    Thread thread() {
        return thread;
    }

    /** How long the operation has run (or ran, if it ended and this is read soon after). */
    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - begunNanos);
    }

    /** The thread's name and stack as the log shows it: {@code "name" STATE} then {@code \tat frame} lines. */
    String stack() {
        return PluginThreads.describe(thread);
    }

    /**
     * Ends an operation that runs too long: interrupts its thread and waits up to {@code interruptGrace}; if
     * it still runs, stops the thread where the JDK allows it and waits up to {@code stopGrace}.
     */
    Release release(Duration interruptGrace, Duration stopGrace) throws InterruptedException {
        if (isDone()) {
            return Release.ENDED;
        }
        released = true;
        thread.interrupt();
        if (await(interruptGrace)) {
            return Release.ENDED;
        }
        if (!stop(thread)) {
            return Release.STUCK;
        }
        return await(stopGrace) ? Release.STOPPED : Release.STUCK;
    }

    /** Whether the operation was ended by {@link #release} rather than on its own. */
    boolean wasReleased() {
        return released;
    }

    /** {@link Thread#stop()} where the JDK still does it; returns whether it was done. */
    @SuppressWarnings({"deprecation", "removal"})
    static boolean stop(Thread thread) {
        try {
            thread.stop();
            return true;
        } catch (UnsupportedOperationException e) { // JDK 20 and later
            return false;
        }
    }
}
