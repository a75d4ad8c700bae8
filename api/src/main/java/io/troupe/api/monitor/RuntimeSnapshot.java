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
 */
public record RuntimeSnapshot(Instant takenAt, WorkerPoolStats workers, List<ThreadStats> loops,
                              double loopsBusyRatio, int actors, long mailboxBacklog, long deadLetters,
                              long logRecordsDropped, long stalls, List<HandlerStats> handlers,
                              List<PoolStats> pools, List<TenantLoad> tenants) {

    public RuntimeSnapshot {
        Objects.requireNonNull(takenAt, "takenAt");
        Objects.requireNonNull(workers, "workers");
        loops = List.copyOf(loops);
        handlers = List.copyOf(handlers);
        pools = List.copyOf(pools);
        tenants = List.copyOf(tenants);
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
