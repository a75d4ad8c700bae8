package io.troupe.host.monitor;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.ActorTurn;
import io.troupe.host.dispatch.Worker;
import io.troupe.host.reactor.EventLoop;

/**
 * Reads worker and IO loop heartbeats and reports each stall once: an actor turn running longer than
 * the stall threshold, or a loop that has stayed away from its select longer than the loop
 * threshold. When a reported stall ends, {@link MonitorListener#recovered} is called once.
 *
 * <h2>How long a turn has run</h2>
 * Workers read no clock per turn (see {@link Worker}); they publish a turn number. The detector
 * notes the first look at which it saw each turn, so a turn's age is known to within one monitor
 * period, from below: a turn reported after 2000 ms started between 2000 ms and 2000 ms plus one
 * period ago. A turn is never reported before it has run for the threshold, and always by the second
 * look after that. A stall is identified by the worker and its turn number, so a worker stuck in one turn
 * is reported once however long it stays stuck, and again for a later turn.
 *
 * <p>Loops do read the clock around their select (next to a system call, that costs little), so a
 * loop's time away from select is exact. A loop also keeps the longest time it was away since the
 * detector last looked: a stall that began and ended between two looks (a 150 ms handler with looks
 * every 250 ms) is reported after the fact, as {@link Stall.Kind#LOOP_ENDED}, without a stack; one
 * that was reported while it lasted is not reported again when it ends.
 *
 * <p><b>Threading:</b> confined to the monitor thread; it only reads the heartbeats (and takes the
 * stack of a stalled thread), never touches the threads otherwise. {@link #turnsSeen()} returns an
 * effectively immutable map that may be published to other threads.
 */
final class StallDetector {

    /** What the workers were doing at one look. */
    record WorkerCensus(int busy, int stalled) { }

    /**
     * A turn as the monitor saw it.
     *
     * @param turn          the worker's turn number
     * @param firstSeenNanos the first look that saw it
     * @param stall         the report, once the turn was reported as stalled
     */
    record TurnSeen(long turn, long firstSeenNanos, Stall stall) { }

    private final ActorSystem system;
    private final long turnThresholdNanos;
    private final long loopThresholdNanos;
    private final MonitorListener events;
    private Map<Worker, TurnSeen> turns = Map.of();
    private final Map<EventLoop, Stall> reportedLoops = new IdentityHashMap<>();
    private long stalls;

    StallDetector(ActorSystem system, MonitorSettings settings, MonitorListener events) {
        this.system = system;
        this.turnThresholdNanos = settings.stallThreshold().toNanos();
        this.loopThresholdNanos = settings.loopStallThreshold().toNanos();
        this.events = events;
    }

    /** Stalls reported so far. */
    long stalls() {
        return stalls;
    }

    /** The turns running at the last look, by worker; never modified after it is returned. */
    Map<Worker, TurnSeen> turnsSeen() {
        return turns;
    }

    /** The ids of the actors whose turn was reported as stalled and still ran at the last look. */
    Set<Long> stalledActors() {
        Set<Long> ids = new HashSet<>();
        for (TurnSeen turn : turns.values()) {
            if (turn.stall() != null && turn.stall().turn() != null) {
                ids.add(turn.stall().turn().id());
            }
        }
        return ids;
    }

    /**
     * Looks at every worker: notes new turns, reports new stalls and recoveries, and counts the
     * workers (retiring ones aside) that are in a turn and that are stalled.
     */
    WorkerCensus checkWorkers(long now, List<Worker> workers) {
        Map<Worker, TurnSeen> seen = new IdentityHashMap<>();
        int busy = 0;
        int stalled = 0;
        for (Worker worker : workers) {
            long turn = worker.currentTurn();
            if (turn == 0) {
                continue;
            }
            TurnSeen previous = turns.get(worker);
            TurnSeen current = previous != null && previous.turn() == turn ? previous : new TurnSeen(turn, now, null);
            boolean counted = !worker.isRetiring();
            busy += counted ? 1 : 0;
            long elapsed = now - current.firstSeenNanos();
            if (elapsed >= turnThresholdNanos) {
                stalled += counted ? 1 : 0;
                if (current.stall() == null) {
                    current = report(worker, current, elapsed);
                }
            }
            seen.put(worker, current);
        }
        for (Map.Entry<Worker, TurnSeen> entry : turns.entrySet()) {
            TurnSeen before = entry.getValue();
            if (before.stall() != null && seen.get(entry.getKey()) != before) {
                events.recovered(before.stall());
            }
        }
        turns = Collections.unmodifiableMap(seen);
        return new WorkerCensus(busy, stalled);
    }

    /** Looks at every loop: reports new stalls and recoveries. */
    void checkLoops(long now, List<EventLoop> loops) {
        Set<EventLoop> reportedBefore = reportedLoops.isEmpty() ? Set.of() : copyOfKeys(reportedLoops);
        recoverLoops(loops);
        for (EventLoop loop : loops) {
            long away = loop.takeLongestAway();
            long since = loop.busySinceNanos();
            if (since != 0 && !loop.isShutdown() && now - since >= loopThresholdNanos) {
                Stall reported = reportedLoops.get(loop);
                if (reported == null || reported.sinceNanos() != since) {
                    Stall stall = new Stall(Stall.Kind.LOOP, loop.name(), since, now - since, null, loop.name(),
                            Arrays.asList(loop.stackTrace()));
                    stalls++;
                    events.stalled(stall);
                    reportedLoops.put(loop, stall);
                }
            }
            if (away >= loopThresholdNanos && !reportedBefore.contains(loop) && !reportedLoops.containsKey(loop)) {
                // away too long, and back before any look caught it: report it now, without a stack
                stalls++;
                events.stalled(new Stall(Stall.Kind.LOOP_ENDED, loop.name(), 0, away, null, loop.name(), List.of()));
            }
        }
    }

    private static Set<EventLoop> copyOfKeys(Map<EventLoop, Stall> map) {
        Set<EventLoop> keys = Collections.newSetFromMap(new IdentityHashMap<>());
        keys.addAll(map.keySet());
        return keys;
    }

    /** Reports a stalled turn, unless it ended while we looked; returns the turn as now seen. */
    private TurnSeen report(Worker worker, TurnSeen turn, long elapsed) {
        Runnable task = worker.taskOf(turn.turn());
        if (task == null) {
            return turn;
        }
        ActorTurn actorTurn = system.describe(task);
        StackTraceElement[] stack = worker.getStackTrace();
        if (worker.currentTurn() != turn.turn()) {
            return turn; // ended while the stack was taken: the stack belongs to something else
        }
        Stall stall = new Stall(Stall.Kind.TURN, worker.getName(), turn.firstSeenNanos(), elapsed, actorTurn,
                task.getClass().getName(), Arrays.asList(stack));
        stalls++;
        events.stalled(stall);
        return new TurnSeen(turn.turn(), turn.firstSeenNanos(), stall);
    }

    private void recoverLoops(List<EventLoop> loops) {
        if (reportedLoops.isEmpty()) {
            return;
        }
        Set<EventLoop> live = Collections.newSetFromMap(new IdentityHashMap<>());
        live.addAll(loops);
        for (Iterator<Map.Entry<EventLoop, Stall>> it = reportedLoops.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<EventLoop, Stall> entry = it.next();
            EventLoop loop = entry.getKey();
            Stall stall = entry.getValue();
            if (!live.contains(loop) || loop.busySinceNanos() != stall.sinceNanos()) {
                it.remove(); // IdentityHashMap entries are invalid after removal: read them first
                events.recovered(stall);
            }
        }
    }
}
