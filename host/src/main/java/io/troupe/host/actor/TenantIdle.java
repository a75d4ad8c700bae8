package io.troupe.host.actor;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.troupe.host.timer.Scheduler;

/**
 * One wait for a tenant's actors to have nothing left to do ({@link io.troupe.api.TroupeRuntime#awaitTenantIdle}):
 * every millisecond, on the scheduler's thread, it looks at each of the tenant's cells. The tenant is
 * idle once two looks in a row found no cell in a turn or scheduled for one and every mailbox empty
 * (system messages included), and the tenant's count of messages ever queued did not move from the start
 * of the first look to the end of the second: a message queued while a look ran, or between the two,
 * shows in that count even when its receiver was looked at before it came.
 *
 * <p>A look reads every live cell of the runtime (the registry has no index by tenant); it runs only while
 * someone waits, that is while a cluster hands a tenant over.
 *
 * <p><b>Threading:</b> {@link #start} from any thread; the looks run on the scheduler's thread, and the
 * result completes there.
 */
final class TenantIdle {

    private static final long LOOK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Scheduler scheduler;
    private final Collection<ActorCell> cells;
    private final TenantActors tenant;
    private final long deadline;
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();
    /** The tenant's count of queued messages when the last look that found it idle began; -1 when it did not. */
    private long idleSince = -1;

    TenantIdle(Scheduler scheduler, Collection<ActorCell> cells, TenantActors tenant, long patienceNanos) {
        this.scheduler = scheduler;
        this.cells = cells;
        this.tenant = tenant;
        this.deadline = scheduler.nanoTime() + Math.max(0, patienceNanos);
    }

    CompletableFuture<Boolean> start() {
        look();
        return result;
    }

    private void look() {
        long queuedBefore = tenant.queuedEver();
        boolean idle = allCellsIdle() && tenant.queued() == 0;
        long queuedAfter = tenant.queuedEver();
        if (idle && idleSince >= 0 && queuedAfter == idleSince) {
            result.complete(true); // idle twice, and nothing queued from the first look's start to now
            return;
        }
        idleSince = idle && queuedAfter == queuedBefore ? queuedBefore : -1;
        if (scheduler.nanoTime() - deadline >= 0) {
            result.complete(false);
            return;
        }
        scheduler.schedule(this::look, LOOK_EVERY_NANOS);
    }

    private boolean allCellsIdle() {
        for (ActorCell cell : cells) {
            if (cell.tenancy() == tenant && !cell.isIdle()) {
                return false;
            }
        }
        return true;
    }
}
