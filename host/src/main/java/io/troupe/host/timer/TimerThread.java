package io.troupe.host.timer;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.dispatch.RuntimeThread;
import io.troupe.host.supervise.FatalErrors;
import io.troupe.host.supervise.LoopFailures;

/**
 * The timer thread ({@code troupe-timer}, see {@code docs/architecture.md}): owns a {@link TimerQueue},
 * sleeps until the earliest deadline, and runs due actions, which only enqueue messages or complete
 * futures.
 *
 * <p>Other threads hand new timeouts over through a lock-free inbox and wake the thread only when
 * the new deadline is earlier than the one it sleeps towards.
 *
 * <p>An action that throws is logged and the due actions after it run on the next pass; a throwable
 * escaping the thread's own code goes to {@link LoopFailures} (logged, the thread goes on with its queue and
 * inbox; too many within a window are fatal); a fatal error ({@link FatalErrors}) ends the process.
 *
 * <p><b>Threading:</b> {@link #schedule} and {@link #nanoTime} from any thread, lock-free;
 * {@link #shutdown} from a non-runtime thread.
 */
public final class TimerThread implements Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(TimerThread.class);
    private static final long NOT_SLEEPING = Long.MIN_VALUE;
    private static final long MAX_PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TimerQueue queue = new TimerQueue();
    private final ConcurrentLinkedQueue<Timeout> inbox = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** The deadline the thread parks towards, or NOT_SLEEPING while it works. */
    private volatile long sleepingUntil = NOT_SLEEPING;

    public TimerThread(String name) {
        this.thread = new Loop(name);
        thread.start();
    }

    @Override
    public Timeout schedule(Runnable action, long delayNanos) {
        long deadline = nanoTime() + Math.max(0, delayNanos);
        Timeout timeout = queue.newTimeout(deadline, action);
        inbox.offer(timeout);
        long until = sleepingUntil;
        if (until != NOT_SLEEPING && deadline - until < 0) {
            LockSupport.unpark(thread);
        }
        return timeout;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /** Stops the thread; pending timeouts never run. */
    public void shutdown(long timeout, TimeUnit unit) throws InterruptedException {
        running = false;
        LockSupport.unpark(thread);
        unit.timedJoin(thread, timeout);
    }

    private final class Loop extends Thread implements RuntimeThread {

        Loop(String name) {
            super(name);
            setDaemon(true);
        }

        @Override
        public void run() {
            LoopFailures failures = new LoopFailures("Timer thread " + getName());
            while (running) {
                try {
                    runOnce();
                } catch (Throwable t) {
                    sleepingUntil = NOT_SLEEPING;
                    failures.failed("waiting for its next deadline", t); // returns, or throws a fatal error
                }
            }
        }

        /** Takes new timeouts, runs the due ones, and parks until the next deadline (at most a second). */
        private void runOnce() {
            drainInbox();
            try {
                queue.runDue(nanoTime());
            } catch (Throwable t) {
                if (FatalErrors.isFatal(t)) {
                    throw FatalErrors.fatal("running a timer action", t);
                }
                LOG.error("A timer action failed; the timer thread continues", t);
            }
            long next = queue.nextDeadline();
            long wait = next == Long.MAX_VALUE ? MAX_PARK_NANOS : Math.min(MAX_PARK_NANOS, next - nanoTime());
            if (wait > 0) {
                sleepingUntil = next == Long.MAX_VALUE ? nanoTime() + MAX_PARK_NANOS : next;
                if (inbox.isEmpty()) {
                    LockSupport.parkNanos(this, wait);
                }
                sleepingUntil = NOT_SLEEPING;
            }
        }

        private void drainInbox() {
            Timeout timeout;
            while ((timeout = inbox.poll()) != null) {
                queue.add(timeout);
            }
        }
    }
}
