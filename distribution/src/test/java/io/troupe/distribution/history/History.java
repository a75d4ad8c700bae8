package io.troupe.distribution.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Records what the clients of a test did and were told, and what the test did to the system, as a totally
 * ordered list of {@link Event}s; hands each entry to the {@link HistoryChecker}s as it is recorded, and writes
 * it to a {@link HistoryFile} when given a writer. It keeps nothing but the operations still in flight, so a
 * soak of millions of operations costs no memory for its history.
 *
 * <pre>
 *   long op = history.invoke(process, "counter.add", "alpha", "1");   // before sending
 *   ... history.ok(op, "42")          the reply came: the new total
 *   ... history.fail(op, "ERROR x")   the server refused it: it did not happen
 *   ... history.info(op, "timeout")   nobody knows whether it happened
 *   history.fault("kill", "node1", "SIGKILL to 4711");
 * </pre>
 *
 * <p><b>Threading:</b> every method may be called from any thread; one lock orders the entries, so an entry
 * recorded after another returned has a higher {@code seq} (real-time order is kept). The checkers run under
 * that lock and must be quick.
 */
public final class History {

    private final List<HistoryChecker> checkers;
    private final Writer file;
    private final Map<Long, Event> pending = new HashMap<>();
    private long seq;
    private long ops;
    private int processes;
    private boolean finished;

    /**
     * @param checkers given every entry, in order
     * @param file     where each entry is written as a line of a {@link HistoryFile}, or null; closed by
     *                 {@link #finish()}
     */
    public History(List<? extends HistoryChecker> checkers, Writer file) {
        this.checkers = List.copyOf(checkers);
        this.file = file;
    }

    /** A new logical process id (a client's sender), from 1. */
    public synchronized int newProcess() {
        return ++processes;
    }

    /**
     * A client is about to send an operation.
     *
     * @return the operation's id, for its completion
     */
    public synchronized long invoke(int process, String f, String key, String argument) {
        long op = ++ops;
        Event event = record(Event.Type.INVOKE, process, op, f, key, argument);
        pending.put(op, event);
        return op;
    }

    /** The operation took effect; {@code result} is what the client was told. */
    public synchronized void ok(long op, String result) {
        complete(Event.Type.OK, op, result);
    }

    /** The operation certainly did not take effect. */
    public synchronized void fail(long op, String reason) {
        complete(Event.Type.FAIL, op, reason);
    }

    /** Whether the operation took effect cannot be known. */
    public synchronized void info(long op, String reason) {
        complete(Event.Type.INFO, op, reason);
    }

    /** A client saw {@code value} without asking for it at that moment (a push). */
    public synchronized void observe(int process, String f, String key, String value) {
        record(Event.Type.OBSERVE, process, 0, f, key, value);
    }

    /** The test did something to the system: {@code f} is a fault's name ({@link Faults}). */
    public synchronized void fault(String f, String key, String detail) {
        record(Event.Type.FAULT, Event.NEMESIS, 0, f, key, detail);
    }

    /** How many entries were recorded so far. */
    public synchronized long size() {
        return seq;
    }

    /** How many operations are in flight. */
    public synchronized int pending() {
        return pending.size();
    }

    /**
     * Ends the history: every operation still in flight is completed INFO ("never completed"), each checker
     * gives its verdict, and the file is closed.
     *
     * @return the checkers' reports, in the order the checkers were given
     * @throws IllegalStateException when called twice
     */
    public synchronized List<CheckReport> finish() {
        if (finished) {
            throw new IllegalStateException("the history was finished already");
        }
        for (Long op : new ArrayList<>(pending.keySet()).stream().sorted().toList()) {
            complete(Event.Type.INFO, op, "never completed: still in flight when the history ended");
        }
        finished = true;
        List<CheckReport> reports = new ArrayList<>();
        for (HistoryChecker checker : checkers) {
            reports.add(checker.finish());
        }
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close the history file", e);
            }
        }
        return reports;
    }

    private void complete(Event.Type type, long op, String value) {
        Event invoked = pending.remove(op);
        if (invoked == null) {
            throw new IllegalStateException("operation " + op + " is not in flight: it was never invoked, or was "
                    + "completed already; cannot record " + type);
        }
        record(type, invoked.process(), op, invoked.f(), invoked.key(), value);
    }

    private Event record(Event.Type type, int process, long op, String f, String key, String value) {
        if (finished) {
            throw new IllegalStateException("the history was finished; cannot record " + type + " " + f);
        }
        Event event = new Event(++seq, System.nanoTime(), type, process, op, f, key, value);
        for (HistoryChecker checker : checkers) {
            checker.accept(event);
        }
        if (file != null) {
            try {
                file.write(HistoryFile.line(event));
                file.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the history file", e);
            }
        }
        return event;
    }
}
