package io.troupe.benchmarks.net;

import java.util.Map;

/**
 * One reading of what a server process has used so far: its CPU time and, where the suite could
 * attach to its JVM, the bytes each of its threads has allocated ({@link AllocationCounter}).
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param cpuNanos  the process's CPU time, all threads, user and system
 * @param allocated bytes allocated by thread id, or null when they cannot be read
 */
record ServerUsage(long cpuNanos, Map<Long, Long> allocated) {

    ServerUsage {
        allocated = allocated == null ? null : Map.copyOf(allocated);
    }

    /** The bytes allocated from {@code earlier} to this reading, or -1 when either could not read them. */
    long allocatedSince(ServerUsage earlier) {
        if (allocated == null || earlier.allocated == null) {
            return -1;
        }
        return AllocationCounter.between(earlier.allocated, allocated);
    }
}
