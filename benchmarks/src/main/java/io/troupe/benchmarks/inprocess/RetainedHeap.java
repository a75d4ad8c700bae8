package io.troupe.benchmarks.inprocess;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Measures the heap an idle actor retains, in a JVM of its own (started by {@link InProcessSuite}
 * with the serial collector, whose used-heap figure after a full collection is exact): start the
 * runtime, spawn and settle half as many actors again (at least 10 000) so that classes, pools and
 * the runtimes' own tables have grown to their steady state, collect, note the
 * used heap; spawn {@code count} idle actors, wait until each has started, collect, note it again.
 * The difference divided by {@code count} is what one idle actor costs, everything it drags in
 * included (cell, mailbox, reference, registry entry, the actor object).
 *
 * <p>Usage: {@code RetainedHeap troupe|pekko COUNT}; prints {@code bytesPerActor=N} on stdout.
 *
 * <p><b>Threading:</b> a main method on one thread.
 */
public final class RetainedHeap {

    private RetainedHeap() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: RetainedHeap troupe|pekko COUNT");
        }
        int count = Integer.parseInt(args[1]);
        try (BenchRuntime bench = args[0].equals("troupe") ? new TroupeBench() : new PekkoBench(
                new PekkoSettings(PekkoSettings.DEFAULT_EXECUTOR, Integer.parseInt(PekkoSettings.DEFAULT_THROUGHPUT),
                        PekkoSettings.DEFAULT_MAILBOX))) {
            bench.spawnIdle(Math.max(10_000, count / 2));
            long before = usedAfterFullGc();
            bench.spawnIdle(count);
            long after = usedAfterFullGc();
            System.out.println("bytesPerActor=" + Math.round((after - before) / (double) count));
        }
    }

    /**
     * Used heap after full collections, once the runtime has settled: a runtime may still be working
     * through its own bookkeeping for the actors just started (Troupe's root adopting them, for
     * instance), so collect until two readings 100 ms apart agree within 0.5 % (at most 20 tries).
     */
    private static long usedAfterFullGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = collect(memory);
        for (int i = 0; i < 20; i++) {
            Thread.sleep(100);
            long now = collect(memory);
            if (Math.abs(now - previous) <= previous / 200) {
                return Math.min(now, previous);
            }
            previous = now;
        }
        return previous;
    }

    private static long collect(MemoryMXBean memory) {
        System.gc();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
