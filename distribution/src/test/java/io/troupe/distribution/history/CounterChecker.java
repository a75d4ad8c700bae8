package io.troupe.distribution.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the histories of counters (the {@code counter} sample: {@value #ADD} with content {@code 1} answers
 * the new total, {@value #GET} answers the total), one counter per key (a tenant), against real-time order and
 * a {@link DurabilityPromise}.
 *
 * <p>For every key it keeps a <em>floor</em>: the least value the counter may hold from now on. A value a
 * client was told raises it (the counter never shrinks and, under the promise, keeps what it told); a crash
 * lowers it to what the promise lets survive. Then, for each acknowledged operation:
 * <ul>
 * <li>{@code too-low}: the value is below the floor when the operation was invoked (plus one for an add):
 *     an acknowledged add or a value told earlier was lost;</li>
 * <li>{@code phantom}: the value exceeds the adds invoked before the operation completed, less those that
 *     certainly failed: something counted that no client asked for (another tenant's add, an add applied
 *     twice, a failed add that took effect);</li>
 * <li>{@code duplicate-total}: two acknowledged adds were told the same total (since the last crash the
 *     promise allows losses at): one of them was lost, or the counter was served twice at once;</li>
 * <li>{@code unreadable}: the reply is not a decimal number.</li>
 * </ul>
 * A final {@value #GET} after the run (invoked after every other operation completed) thus checks that the
 * counter holds every acknowledged add, no add that failed, and at most the adds of unknown outcome besides.
 * Every add must add exactly 1.
 *
 * <p><b>Threading:</b> not thread-safe; see {@link HistoryChecker}.
 */
public final class CounterChecker implements HistoryChecker {

    /** The add operation; its argument must be {@code 1}. */
    public static final String ADD = "counter.add";
    /** The read operation. */
    public static final String GET = "counter.get";

    private final DurabilityPromise promise;
    private final Map<String, Counter> counters = new TreeMap<>();
    private final Map<Long, Pending> pending = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long count;
    private long crashes;

    public CounterChecker(DurabilityPromise promise) {
        this.promise = promise;
    }

    @Override
    public void accept(Event event) {
        if (event.type() == Event.Type.FAULT) {
            if (Faults.isCrash(event.f())) {
                crashes++;
                counters.values().forEach(counter -> counter.crashed(event.nanos()));
                for (Pending op : pending.values()) {
                    op.lower = Math.min(op.lower, op.counter.floor + (op.add ? 1 : 0));
                }
            }
            return;
        }
        if (!event.f().equals(ADD) && !event.f().equals(GET)) {
            return;
        }
        switch (event.type()) {
            case INVOKE -> invoked(event);
            case OK -> acknowledged(event);
            case FAIL, INFO -> ended(event);
            default -> violation("unexpected", event, "a counter operation cannot be " + event.type());
        }
    }

    private void invoked(Event event) {
        Counter counter = counters.computeIfAbsent(event.key(), key -> new Counter(key, promise));
        boolean add = event.f().equals(ADD);
        if (add) {
            if (!event.value().strip().equals("1")) {
                violation("unexpected", event, "this checker counts adds of 1; the add was of '" + event.value() + "'");
            }
            counter.invoked++;
        } else {
            counter.reads++;
        }
        pending.put(event.op(), new Pending(counter, add, counter.floor + (add ? 1 : 0)));
    }

    private void acknowledged(Event event) {
        Pending op = pending.remove(event.op());
        if (op == null) {
            violation("unexpected", event, "completes operation " + event.op() + ", which is not in flight");
            return;
        }
        Counter counter = op.counter;
        long value;
        try {
            value = Long.parseLong(event.value().strip());
        } catch (NumberFormatException e) {
            violation("unreadable", event, "the reply '" + event.value() + "' is not a decimal number");
            return;
        }
        long upper = counter.invoked - counter.failed;
        if (value < op.lower) {
            violation("too-low", event, event.f() + " was told " + value + ", but when it was invoked the counter "
                    + "held at least " + (op.add ? (op.lower - 1) + " (+1 for this add)" : op.lower)
                    + ": an acknowledged add or a value told before it is lost");
        }
        if (value > upper) {
            violation("phantom", event, event.f() + " was told " + value + ", but only " + upper + " adds could have"
                    + " taken effect by then (" + counter.invoked + " invoked, " + counter.failed + " failed)");
        }
        if (op.add) {
            counter.acked++;
            if (value > 0 && value <= Integer.MAX_VALUE) {
                if (counter.told.get((int) value)) {
                    violation("duplicate-total", event, "two acknowledged adds were told the total " + value);
                }
                counter.told.set((int) value);
            }
        } else {
            counter.readsOk++;
            counter.lastRead = value;
        }
        counter.raise(value, event.nanos());
    }

    private void ended(Event event) {
        Pending op = pending.remove(event.op());
        if (op == null) {
            violation("unexpected", event, "completes operation " + event.op() + ", which is not in flight");
            return;
        }
        if (op.add && event.type() == Event.Type.FAIL) {
            op.counter.failed++;
        } else if (op.add) {
            op.counter.unknown++;
        }
    }

    @Override
    public CheckReport finish() {
        for (Pending op : pending.values()) {
            if (op.add) {
                op.counter.unknown++;
            }
        }
        pending.clear();
        List<String> summary = new ArrayList<>();
        summary.add("promise " + promise + ", " + crashes + " crash" + (crashes == 1 ? "" : "es"));
        counters.values().forEach(counter -> summary.add(counter.toString()));
        return new CheckReport("counter", violations, count, summary);
    }

    private void violation(String kind, Event event, String detail) {
        count++;
        if (violations.size() < CheckReport.KEPT) {
            violations.add(new Violation(kind, event.key(), detail + " (" + event + ")", event.seq()));
        }
    }

    /** An operation in flight, with the floor it must see. */
    private static final class Pending {
        final Counter counter;
        final boolean add;
        long lower;

        Pending(Counter counter, boolean add, long lower) {
            this.counter = counter;
            this.add = add;
            this.lower = lower;
        }
    }

    /** What the checker knows of one key's counter. */
    private static final class Counter {
        final String key;
        final DurabilityPromise promise;
        long invoked;
        long acked;
        long failed;
        long unknown;
        long reads;
        long readsOk;
        long lastRead = -1;
        /** The least value the counter may hold from now on. */
        long floor;
        /** Totals told to acknowledged adds since the last crash that may have lost them. */
        final BitSet told = new BitSet();
        /** With a loss window: (nanos, floor) each time the floor rose within the last window. */
        final ArrayDeque<long[]> raises = new ArrayDeque<>();
        /** With a loss window: the floor before the oldest of {@link #raises}. */
        long floorBeforeRaises;

        Counter(String key, DurabilityPromise promise) {
            this.key = key;
            this.promise = promise;
        }

        /** A client was told {@code value} at {@code nanos}. */
        void raise(long value, long nanos) {
            if (value <= floor) {
                return;
            }
            floor = value;
            long window = promise.lossWindowNanos();
            if (window > 0) {
                raises.addLast(new long[] {nanos, value});
                // a crash comes later than now, so it can only ask for the floor of a moment after now - window
                while (nanos - raises.peekFirst()[0] > window) {
                    floorBeforeRaises = raises.removeFirst()[1];
                }
            }
        }

        /** A crash at {@code nanos}: the floor falls to what the promise lets survive. */
        void crashed(long nanos) {
            long kept;
            if (!promise.durable()) {
                kept = 0;
            } else if (promise.lossWindowNanos() == 0) {
                return;
            } else {
                kept = floorBeforeRaises;
                for (long[] raise : raises) {
                    if (nanos - raise[0] >= promise.lossWindowNanos()) {
                        kept = raise[1];
                    }
                }
            }
            floor = kept;
            floorBeforeRaises = kept;
            raises.clear();
            told.clear((int) Math.min(Integer.MAX_VALUE, kept + 1), Math.max(told.length(), (int) kept + 1));
        }

        @Override
        public String toString() {
            return key + ": adds invoked " + invoked + ", acknowledged " + acked + ", failed " + failed
                    + ", outcome unknown " + unknown + "; reads " + reads + " (" + readsOk + " answered), last read "
                    + (lastRead < 0 ? "none" : lastRead) + "; floor " + floor;
        }
    }
}
