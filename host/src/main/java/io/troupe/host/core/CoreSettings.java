package io.troupe.host.core;

import java.time.Duration;
import java.util.Objects;

import io.troupe.host.actor.ActorSystem;
import io.troupe.host.dispatch.WorkerPool;

/**
 * What a {@link RuntimeCore} is built with, fixed for its life: the worker pool's bounds and spin (which the
 * host may change later, see {@link RuntimeCore#reconfigure}), the throughput, the names of its threads and
 * how long {@link RuntimeCore#close} waits for each part to stop. The monitor's settings are given when it
 * starts ({@link RuntimeCore#startMonitor}), since the host restarts it with new ones.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param workers          the worker pool's least size, at least 1
 * @param maxWorkers       the most workers the monitor may run, at least {@code workers}
 * @param workerSpin       how long a worker out of work polls before it parks; zero for never
 * @param throughput       messages an actor processes per turn, at least 1
 * @param threadNamePrefix the runtime's threads are {@code prefix-worker-N}, {@code prefix-timer} and
 *                         {@code prefix-monitor}
 * @param shutdownTimeout  how long {@link RuntimeCore#close} waits for the actors, then the workers, then
 *                         the timer and the monitor, each
 */
public record CoreSettings(int workers, int maxWorkers, Duration workerSpin, int throughput,
                           String threadNamePrefix, Duration shutdownTimeout) {

    /** The prefix of the server's threads and of an embedded runtime's by default. */
    public static final String DEFAULT_PREFIX = "troupe";
    /** How long the host and, by default, an embedded runtime wait for each part to stop. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    public CoreSettings {
        Objects.requireNonNull(workerSpin, "workerSpin");
        Objects.requireNonNull(threadNamePrefix, "threadNamePrefix");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        if (maxWorkers < workers) {
            throw new IllegalArgumentException("maxWorkers must be at least workers (" + workers + "), was "
                    + maxWorkers);
        }
        if (workerSpin.isNegative()) {
            throw new IllegalArgumentException("workerSpin must not be negative, was " + workerSpin);
        }
        if (throughput < 1) {
            throw new IllegalArgumentException("throughput must be at least 1, was " + throughput);
        }
        if (threadNamePrefix.isBlank()) {
            throw new IllegalArgumentException("threadNamePrefix must not be blank");
        }
        if (shutdownTimeout.isNegative() || shutdownTimeout.isZero()) {
            throw new IllegalArgumentException("shutdownTimeout must be positive, was " + shutdownTimeout);
        }
    }

    /**
     * The defaults on a machine with {@code cores} processors, as the distribution runs: one worker per core
     * (up to four per core under the monitor), {@link WorkerPool#DEFAULT_SPIN},
     * {@link ActorSystem#DEFAULT_THROUGHPUT}, threads named {@value #DEFAULT_PREFIX}-..., 5 s per part to stop.
     */
    public static CoreSettings defaults(int cores) {
        return new CoreSettings(cores, Math.max(cores, 4 * cores), WorkerPool.DEFAULT_SPIN,
                ActorSystem.DEFAULT_THROUGHPUT, DEFAULT_PREFIX, DEFAULT_SHUTDOWN_TIMEOUT);
    }

    /** The name of the monitor thread. */
    public String monitorThreadName() {
        return threadNamePrefix + "-monitor";
    }

    String workerPrefix() {
        return threadNamePrefix + "-worker";
    }

    String timerThreadName() {
        return threadNamePrefix + "-timer";
    }
}
