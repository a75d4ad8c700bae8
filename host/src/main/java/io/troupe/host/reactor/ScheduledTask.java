package io.troupe.host.reactor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.Cancellable;
import io.troupe.host.supervise.FatalErrors;
import io.troupe.host.timer.Timeout;
import io.troupe.host.timer.TimerQueue;

/**
 * A task given to {@link EventLoop#schedule}: a {@link Timeout} in the loop's {@link TimerQueue}
 * plus the state that tells {@link #cancel()} whether the task was still pending.
 *
 * <p><b>Threading:</b> {@link #cancel()} from any thread; the task runs on the loop, at most once,
 * and a task that throws is logged without disturbing the loop.
 */
final class ScheduledTask implements Cancellable {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduledTask.class);
    private static final int PENDING = 0;
    private static final int STARTED = 1;
    private static final int CANCELLED = 2;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ScheduledTask.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** PENDING, STARTED or CANCELLED (a field with a VarHandle: every armed timer is one object less). */
    private volatile int state = PENDING;
    private final Runnable task;
    private final Timeout timeout;

    ScheduledTask(TimerQueue timers, long deadline, Runnable task) {
        this.task = task;
        this.timeout = timers.newTimeout(deadline, this::fire);
    }

    Timeout timeout() {
        return timeout;
    }

    @Override
    public boolean cancel() {
        if (STATE.compareAndSet(this, PENDING, CANCELLED)) {
            timeout.cancel();
            return true;
        }
        return false;
    }

    private void fire() {
        if (STATE.compareAndSet(this, PENDING, STARTED)) {
            try {
                task.run();
            } catch (Throwable t) {
                if (FatalErrors.isFatal(t)) {
                    throw FatalErrors.fatal("running scheduled task " + task, t);
                }
                LOG.error("Scheduled task {} failed on {}; the loop continues", task,
                        Thread.currentThread().getName(), t);
            }
        }
    }
}
