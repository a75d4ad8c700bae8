package io.troupe.benchmarks.inprocess;

/**
 * One in-process workload, set up on one runtime: its actors exist; each {@link #runRound()} pushes
 * a fixed number of messages (or actors) through them and returns when the last one has arrived.
 *
 * <p><b>Threading:</b> {@link #runRound()} is called by one benchmark thread at a time and blocks it
 * (bounded by {@link #ROUND_TIMEOUT_SECONDS}); the actors run on the runtime's own threads.
 */
interface Workload {

    /** A round that has not finished after this long is an error, not a slow result. */
    long ROUND_TIMEOUT_SECONDS = 300;

    /** Runs one round and waits for it to complete. */
    void runRound() throws Exception;
}
