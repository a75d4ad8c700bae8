package io.troupe.distribution.history;

import java.util.Objects;

/**
 * One entry of a {@link History}, in the manner of a Jepsen history: an operation a client invoked, how it
 * completed (or not), something a client observed without asking (a push), or a fault the test caused.
 *
 * <pre>
 *   seq  nanos        type     process  op  f              key    value
 *   17   93120012451  INVOKE   3        9   counter.add    alpha  1
 *   18   93120914012  OK       3        9   counter.add    alpha  42      the reply: the new total
 *   19   93121000000  FAULT    -1       0   kill           node1  SIGKILL to 4711
 *   20   93125000000  INFO     3        10  counter.add    alpha  connection lost: outcome unknown
 * </pre>
 *
 * {@code seq} orders the whole history (no two entries share one); {@code nanos} is {@link System#nanoTime()}
 * of the recording JVM, so that real-time order between operations of different clients is known: an
 * operation whose {@code OK} has a lower {@code seq} than another's {@code INVOKE} completed before that one
 * began. A completion repeats its invocation's process, {@code f} and key.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param seq     the position in the history, from 1, strictly increasing
 * @param nanos   when it was recorded, {@code System.nanoTime()} of the recording JVM
 * @param type    what kind of entry
 * @param process the client (a logical process: one connection's sender); {@link #NEMESIS} for faults
 * @param op      the operation's id, shared by its invocation and its completion; 0 for observations and faults
 * @param f       the function: a Troupe message name ({@code counter.add}, {@code chat.say}, ...) or a fault's
 *                name ({@code kill}, {@code swap}, ...)
 * @param key     what it is about: a tenant, a room, a node
 * @param value   the argument (invocation), the result (OK), the reason (FAIL, INFO), what was observed, or a
 *                fault's detail; never null, may be empty
 */
public record Event(long seq, long nanos, Type type, int process, long op, String f, String key, String value) {

    /** The process of faults: the test's nemesis. */
    public static final int NEMESIS = -1;

    /** The kinds of entries. */
    public enum Type {
        /** A client is about to send the operation. */
        INVOKE,
        /** The operation took effect and the client was told its result. */
        OK,
        /** The operation certainly did not take effect (the server refused it, or it was never sent). */
        FAIL,
        /** The client cannot know whether the operation took effect (connection lost, timeout). */
        INFO,
        /** A client saw something it did not ask for at that moment: a push. */
        OBSERVE,
        /** The test did something to the system under test: a kill, a restart, a hot swap, a node join. */
        FAULT
    }

    public Event {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (seq < 1) {
            throw new IllegalArgumentException("an event's seq starts at 1, was " + seq);
        }
    }

    /** Whether this ends an operation: OK, FAIL or INFO. */
    public boolean isCompletion() {
        return type == Type.OK || type == Type.FAIL || type == Type.INFO;
    }

    @Override
    public String toString() {
        return "#" + seq + " " + type + " p" + process + (op == 0 ? "" : " op" + op) + " " + f + " " + key
                + (value.isEmpty() ? "" : " " + shorten(value));
    }

    private static String shorten(String text) {
        return text.length() <= 120 ? text : text.substring(0, 120) + "... (" + text.length() + " characters)";
    }
}
