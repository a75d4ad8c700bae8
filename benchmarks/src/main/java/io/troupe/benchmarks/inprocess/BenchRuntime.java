package io.troupe.benchmarks.inprocess;

/**
 * An actor runtime under test, configured once per benchmark trial: Troupe ({@link TroupeBench}) or
 * Apache Pekko ({@link PekkoBench}). It builds each {@link WorkloadKind} from its own actors.
 *
 * <p><b>Threading:</b> created, used and closed by one benchmark thread.
 */
interface BenchRuntime extends AutoCloseable {

    /** Sets up {@code kind}'s actors; {@code spawnCount} sizes the spawn-and-stop round. */
    Workload create(WorkloadKind kind, int spawnCount) throws Exception;

    /**
     * Spawns {@code count} idle actors (each holding no state) and returns once all of them have
     * started; they stay alive until {@link #close()}. For the retained-heap measurement.
     */
    void spawnIdle(int count) throws Exception;

    @Override
    void close() throws Exception;
}
