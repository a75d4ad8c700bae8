package io.troupe.distribution.history;

import java.util.List;

/**
 * What a {@link HistoryChecker} concluded: the violations it found (the first {@value #KEPT} in full, and how
 * many in all) and a few lines of figures per key (operations acknowledged, failed, of unknown outcome, the
 * last value read), so that a passing run still shows what it checked.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param checker    which checker
 * @param violations the first {@value #KEPT} violations found, in history order
 * @param count      how many violations were found in all
 * @param summary    lines of figures, one per key
 */
public record CheckReport(String checker, List<Violation> violations, long count, List<String> summary) {

    /** How many violations a report keeps in full. */
    public static final int KEPT = 50;

    public CheckReport {
        violations = List.copyOf(violations);
        summary = List.copyOf(summary);
    }

    /** Whether the history kept every promise this checker knows. */
    public boolean valid() {
        return count == 0;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(checker).append(": ").append(count).append(count == 1 ? " violation"
                : " violations");
        summary.forEach(line -> text.append("\n  ").append(line));
        violations.forEach(violation -> text.append("\n  VIOLATION ").append(violation));
        if (count > violations.size()) {
            text.append("\n  ... and ").append(count - violations.size()).append(" more");
        }
        return text.toString();
    }
}
