package io.troupe.host.log;

import java.util.Map;

/**
 * Entries that the runtime adds to a record from what the logging thread is doing, beside the
 * caller's own MDC entries: for a record written during an actor's turn, the actor and its tenant.
 * The runtime knows them without anyone calling {@code MDC.put}, so a plugin's log lines carry them
 * for free, and nothing is spent on turns that do not log.
 *
 * <p>When the caller's MDC holds the same key, the caller's value wins.
 *
 * <p><b>Threading:</b> {@link #entries()} runs on the thread that logs, for every record it writes:
 * it must be cheap, must not block and must not log.
 */
@FunctionalInterface
public interface RecordContext {

    /** No entries. */
    RecordContext NONE = () -> null;

    /** The entries for a record written now on the calling thread; {@code null} or empty for none. */
    Map<String, String> entries();
}
