package io.troupe.distribution.history;

/**
 * One way in which a history breaks what the system promised: its kind (a short stable name such as
 * {@code lost-acknowledged}), the key it is about, what exactly was seen, and where in the history.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param kind   a stable name of the rule broken
 * @param key    the tenant or room
 * @param detail what was seen, with the values and the operations involved
 * @param seq    the history entry that showed it
 */
public record Violation(String kind, String key, String detail, long seq) {

    @Override
    public String toString() {
        return kind + " [" + key + "] at #" + seq + ": " + detail;
    }
}
