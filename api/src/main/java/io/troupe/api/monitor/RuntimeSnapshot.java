package io.troupe.api.monitor;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The runtime at one moment.
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param takenAt           when the snapshot was taken
 * @param workers           the worker pool that runs actor turns
 * @param loops             the reactor's loops (acceptor first, then the IO loops); empty when the
 *                          reactor is not running
 * @param loopsBusyRatio    the mean busy ratio of {@code loops}, 0 when there are none
 * @param actors            live actors
 * @param mailboxBacklog    messages waiting in all mailboxes together
 * @param deadLetters       dead letters since the runtime started
 * @param logRecordsDropped log records dropped because the log buffer was full, since the logger started
 * @param stalls            stalled actor turns and IO loop iterations detected since the runtime started
 * @param handlers          per handler name, in name order
 * @param pools             the actor pools of poolable handlers, by handler name, then tenant (since 1.1)
 * @param tenants           the tenants that have or had actors, by id (since 1.3)
 * @param pluginSwaps       plugin updates whose new revision took over (its actors moved to it) since the
 *                          runtime started; 0 without a deploy folder (since 1.4)
 * @param pluginRollbacks   plugin updates refused or failed after which the previous revision kept or resumed
 *                          serving, since the runtime started (since 1.4)
 * @param logQueueBytes     the memory the logger's buffer holds for records not yet written, in bytes: the
 *                          capacity of its unwritten segments, at least one page while the logger runs; 0 when
 *                          the runtime's logger is not the SLF4J provider (since 1.4)
 */
public record RuntimeSnapshot(Instant takenAt, WorkerPoolStats workers, List<ThreadStats> loops,
                              double loopsBusyRatio, int actors, long mailboxBacklog, long deadLetters,
                              long logRecordsDropped, long stalls, List<HandlerStats> handlers,
                              List<PoolStats> pools, List<TenantLoad> tenants, long pluginSwaps,
                              long pluginRollbacks, long logQueueBytes) {

    public RuntimeSnapshot {
        Objects.requireNonNull(takenAt, "takenAt");
        Objects.requireNonNull(workers, "workers");
        loops = List.copyOf(loops);
        handlers = List.copyOf(handlers);
        pools = List.copyOf(pools);
        tenants = List.copyOf(tenants);
    }

    /** A snapshot without the swap counts and the log queue (all 0): the constructor of version 1.3. */
    public RuntimeSnapshot(Instant takenAt, WorkerPoolStats workers, List<ThreadStats> loops, double loopsBusyRatio,
                           int actors, long mailboxBacklog, long deadLetters, long logRecordsDropped, long stalls,
                           List<HandlerStats> handlers, List<PoolStats> pools, List<TenantLoad> tenants) {
        this(takenAt, workers, loops, loopsBusyRatio, actors, mailboxBacklog, deadLetters, logRecordsDropped, stalls,
                handlers, pools, tenants, 0, 0, 0);
    }

    /** A snapshot without tenants: the constructor of version 1.1. */
    public RuntimeSnapshot(Instant takenAt, WorkerPoolStats workers, List<ThreadStats> loops, double loopsBusyRatio,
                           int actors, long mailboxBacklog, long deadLetters, long logRecordsDropped, long stalls,
                           List<HandlerStats> handlers, List<PoolStats> pools) {
        this(takenAt, workers, loops, loopsBusyRatio, actors, mailboxBacklog, deadLetters, logRecordsDropped, stalls,
                handlers, pools, List.of());
    }

    /** A snapshot without actor pools: the constructor of version 1.0. */
    public RuntimeSnapshot(Instant takenAt, WorkerPoolStats workers, List<ThreadStats> loops, double loopsBusyRatio,
                           int actors, long mailboxBacklog, long deadLetters, long logRecordsDropped, long stalls,
                           List<HandlerStats> handlers) {
        this(takenAt, workers, loops, loopsBusyRatio, actors, mailboxBacklog, deadLetters, logRecordsDropped, stalls,
                handlers, List.of(), List.of());
    }
}
