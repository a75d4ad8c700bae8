package io.troupe.benchmarks.tenants;

import java.util.Map;
import java.util.TreeMap;

/**
 * What tenant A's load got in one window.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param replies         REPLY frames received in the window
 * @param payloadBytes    the payload bytes of those requests
 * @param seconds         the window's length
 * @param errors          ERROR frames received (all the run, not only the window), by code
 * @param connectionsLost connections that ended before the run did
 * @param firstFailure    why the first of them ended, or null
 */
record LoadResult(long replies, long payloadBytes, double seconds, Map<String, Long> errors, int connectionsLost,
        String firstFailure) {

    LoadResult {
        errors = Map.copyOf(errors);
    }

    double requestsPerSecond() {
        return replies / seconds;
    }

    double mebibytesPerSecond() {
        return payloadBytes / seconds / (1024.0 * 1024.0);
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** {@code 0}, or the count and codes: {@code 12 (mailbox.full 12)}. */
    String errorSummary() {
        if (errors.isEmpty()) {
            return "0";
        }
        StringBuilder text = new StringBuilder().append(errorCount()).append(" (");
        String separator = "";
        for (Map.Entry<String, Long> entry : new TreeMap<>(errors).entrySet()) {
            text.append(separator).append(entry.getKey()).append(' ').append(entry.getValue());
            separator = ", ";
        }
        return text.append(')').toString();
    }
}
