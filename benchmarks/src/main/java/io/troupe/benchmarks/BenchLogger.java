package io.troupe.benchmarks;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One logging implementation under test, set up to write {@code info} records to a file in a given
 * folder with the same line layout as Troupe's:
 * {@code 2026-11-29T23:59:01.123+00:00 INFO  [thread] logger - message}.
 *
 * <p>Threading: {@link #info} from any number of threads; {@link #close} once, after the last call.
 */
interface BenchLogger {

    /** Logs one INFO record. */
    void info(String message);

    /** Writes everything still queued and releases the file; returns records it reports dropped. */
    long close() throws IOException;

    /** The files this implementation wrote, to count lines in. */
    Path folder();
}
