package io.troupe.distribution.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A history written by hand for the checkers' tests, with a clock the test moves: each entry gets the next
 * seq and the script's current time.
 *
 * <p><b>Threading:</b> one test thread.
 */
final class Script {

    private final List<Event> events = new ArrayList<>();
    private final Map<Long, Event> invoked = new HashMap<>();
    private long nanos = 1_000_000_000L;
    private long ops;

    /** Moves the clock forward. */
    Script after(Duration duration) {
        nanos += duration.toNanos();
        return this;
    }

    long invoke(int process, String f, String key, String value) {
        long op = ++ops;
        invoked.put(op, add(Event.Type.INVOKE, process, op, f, key, value));
        return op;
    }

    Script ok(long op, String value) {
        return complete(Event.Type.OK, op, value);
    }

    Script fail(long op, String reason) {
        return complete(Event.Type.FAIL, op, reason);
    }

    Script info(long op, String reason) {
        return complete(Event.Type.INFO, op, reason);
    }

    /** An operation invoked and acknowledged at once. */
    Script call(int process, String f, String key, String value, String result) {
        return ok(invoke(process, f, key, value), result);
    }

    Script observe(int process, String f, String key, String value) {
        add(Event.Type.OBSERVE, process, 0, f, key, value);
        return this;
    }

    Script fault(String f) {
        add(Event.Type.FAULT, Event.NEMESIS, 0, f, "server", "");
        return this;
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    /** Gives every entry to {@code checker} and returns its verdict. */
    CheckReport check(HistoryChecker checker) {
        events.forEach(checker::accept);
        return checker.finish();
    }

    private Script complete(Event.Type type, long op, String value) {
        Event invocation = invoked.remove(op);
        add(type, invocation.process(), op, invocation.f(), invocation.key(), value);
        return this;
    }

    private Event add(Event.Type type, int process, long op, String f, String key, String value) {
        Event event = new Event(events.size() + 1, nanos++, type, process, op, f, key, value);
        events.add(event);
        return event;
    }
}
