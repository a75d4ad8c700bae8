package io.troupe.launcher;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;

import sun.misc.Signal;

/**
 * Stops the framework when Troupe is asked to end: on SIGTERM or SIGINT (then the process exits 0
 * once the framework has stopped), and from a JVM shutdown hook for any other way the JVM ends. A
 * stop waits at most {@link #STOP_TIMEOUT} for the framework ({@link #CLUSTER_STOP_TIMEOUT} on a cluster node); after that the JVM halts with status 1.
 * Further signals during a stop are only acknowledged.
 *
 * <p>The JVM ends with status 143 on SIGTERM when it handles the signal itself, hence the
 * {@code sun.misc.Signal} handlers. When they cannot be installed (the JVM runs with {@code -Xrs},
 * for example) the shutdown hook still stops the framework cleanly, but the exit status is the JVM's.
 *
 * <p><b>Threading:</b> {@link #install} is called once by the main thread. Signal handlers run on
 * threads of their own, the hook on the JVM's shutdown thread; {@link #requested} may be read from
 * any thread.
 */
final class Shutdown {

    /** How long a stop waits for the framework. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long a stop waits for the framework of a cluster node: its tenants are handed over to the other
     * nodes (drained, their state stored) before the server stops.
     */
    static final Duration CLUSTER_STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Framework framework;
    private final LauncherLog log;
    private final Duration timeout;
    private final AtomicBoolean requested = new AtomicBoolean();

    /** @param timeout how long a stop waits for the framework: {@link #STOP_TIMEOUT} or {@link #CLUSTER_STOP_TIMEOUT} */
    Shutdown(Framework framework, LauncherLog log, Duration timeout) {
        this.framework = framework;
        this.log = log;
        this.timeout = timeout;
    }

    /** Installs the signal handlers and the shutdown hook. */
    void install() {
        handle("TERM");
        handle("INT");
        Runtime.getRuntime().addShutdownHook(new Thread(this::onJvmExit, "troupe-shutdown-hook"));
    }

    /** Whether a signal or the JVM's exit asked Troupe to stop. */
    boolean requested() {
        return requested.get();
    }

    /**
     * Stops the framework now, waiting at most {@link #STOP_TIMEOUT}: after a failed start, or after
     * a start that a signal raced with. Does nothing to a framework that is not running.
     */
    void stopNow() {
        requested.set(true);
        stopFramework();
    }

    private void handle(String name) {
        try {
            Signal.handle(new Signal(name), this::onSignal);
        } catch (IllegalArgumentException e) {
            log.warn("cannot handle SIG" + name + " (" + e.getMessage() + "); it will end Troupe with the JVM's"
                    + " own exit status");
        }
    }

    private void onSignal(Signal signal) {
        if (!requested.compareAndSet(false, true)) {
            // A repeated signal often comes from the same event (sent to the whole process group by
            // `timeout` or a service manager): the stop under way is bounded anyway.
            log.info("SIG" + signal.getName() + " received again; already stopping");
            return;
        }
        log.info("SIG" + signal.getName() + " received, stopping");
        stopFramework();
    }

    private void onJvmExit() {
        int state = framework.getState();
        if ((state & (Bundle.STARTING | Bundle.ACTIVE | Bundle.STOPPING)) != 0) {
            requested.set(true);
            stopFramework();
        }
    }

    private void stopFramework() {
        try {
            framework.stop();
        } catch (BundleException | RuntimeException e) {
            log.error("cannot stop the framework: " + LauncherException.describe(e));
        }
        try {
            FrameworkEvent event = framework.waitForStop(timeout.toMillis());
            if (event.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                log.error("the framework did not stop within " + timeout.toSeconds() + " s; exiting anyway");
                Runtime.getRuntime().halt(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
