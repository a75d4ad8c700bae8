package io.troupe.benchmarks.scale;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link IdleConnectionsSuite} prints: one row per step (connections held; the server's heap after
 * a full GC, its resident set and the kernel's slab memory, each in all and per connection), the targets
 * (all connected, under 2 KiB of heap per idle connection, a cost per connection that stays flat from step
 * to step, echo answered promptly meanwhile), and a projection to {@link #PROJECTED} connections: each
 * resource a connection uses, what a million would need, and how many this machine's limit on it allows,
 * the smallest of which limits first.
 *
 * <p>Per connection is the growth since the start over the connections held; a step's own figure is its
 * growth over the connections it added. The slab is the kernel's for the whole machine, where both ends of
 * every connection live (the clients run here too): per connection it is halved, an estimate of the server
 * side's share.
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class ScaleReport {

    /** One step: {@code connections} held in all, and the figures taken then. */
    record Step(int connections, long openNanos, long heap, long resident, long slab) {
    }

    static final long TARGET_HEAP_PER_CONNECTION = 2048;
    static final int PROJECTED = 1_000_000;
    /** A step's own heap per connection may differ from the average by this share and still be flat. */
    static final double FLAT_TOLERANCE = 0.25;
    private static final long GIB = 1L << 30;
    private static final long TEN_MILLIS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int TOP_CLASSES = 15;
    private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)");

    private final List<Integer> requested;
    private final long openFileLimit;
    private final long openFileHardLimit;
    private final String jvmOptions;
    private final boolean echoFirst;
    private final List<Step> steps = new ArrayList<>();
    private final Map<String, Long> growthByClass = new HashMap<>();
    private long baseHeap;
    private long baseResident;
    private long baseSlab;

    ScaleReport(List<Integer> requested, long openFileLimit, long openFileHardLimit, String jvmOptions,
            boolean echoFirst) {
        this.requested = List.copyOf(requested);
        this.openFileLimit = openFileLimit;
        this.openFileHardLimit = openFileHardLimit;
        this.jvmOptions = jvmOptions;
        this.echoFirst = echoFirst;
    }

    /** The figures before the first connection. */
    void start(long heap, long resident, long slab) {
        baseHeap = heap;
        baseResident = resident;
        baseSlab = slab;
    }

    void step(int connections, long openNanos, long heap, long resident, long slab) {
        steps.add(new Step(connections, openNanos, heap, resident, slab));
    }

    long baseHeap() {
        return baseHeap;
    }

    /** The live bytes by class before the first connection and with all of them: where the heap went. */
    void classes(Map<String, Long> before, Map<String, Long> after) {
        growthByClass.clear();
        after.forEach((name, bytes) -> {
            long growth = bytes - before.getOrDefault(name, 0L);
            if (growth > 0) {
                growthByClass.put(name, growth);
            }
        });
    }

    /**
     * Prints the three tables.
     *
     * @param echo          sorted round trips of the echoes made at the end, or null when they failed
     * @param machineMemory the machine's memory, in bytes
     */
    void print(PrintStream out, long[] echo, long machineMemory) {
        out.println("| connections | time to open the step | heap after GC | heap per connection (the step's own) "
                + "| server RSS | RSS per connection | kernel slab per connection (server's half) |");
        out.println("|---:|---:|---:|---:|---:|---:|---:|");
        Step previous = new Step(0, 0, baseHeap, baseResident, baseSlab);
        for (Step step : steps) {
            out.printf(Locale.ROOT, "| %,d | %.2f s | %s | %,d B (%,d B) | %s | %,d B | %,d B |%n", step.connections(),
                    step.openNanos() / 1e9, mib(step.heap()), heapPer(step), stepHeapPer(previous, step),
                    mib(step.resident()), residentPer(step), slabPer(step));
            previous = step;
        }
        out.println();
        Step last = steps.get(steps.size() - 1);
        int wanted = requested.get(requested.size() - 1);
        out.println("| measure | value | target | met |");
        out.println("|---|---:|---|---|");
        out.printf(Locale.ROOT, "| idle authenticated connections | %,d | %,d | %s |%n", last.connections(), wanted,
                met(last.connections() == wanted));
        out.printf(Locale.ROOT, "| heap per idle connection at %,d | %,d B | < %,d B | %s |%n", last.connections(),
                heapPer(last), TARGET_HEAP_PER_CONNECTION, met(heapPer(last) < TARGET_HEAP_PER_CONNECTION));
        out.printf(Locale.ROOT, "| heap per connection, each step's own | %s | within %.0f %% of %,d B | %s |%n",
                stepFigures(), FLAT_TOLERANCE * 100, heapPer(last), met(flat()));
        out.printf(Locale.ROOT, "| server heap in use after full GC, with the connections | %s | < 1 GiB | %s |%n",
                mib(last.heap()), met(last.heap() < GIB));
        if (echo != null) {
            out.printf(Locale.ROOT, "| echo round trip meanwhile, p50 of %d | %.3f ms | — | — |%n", echo.length,
                    echo[echo.length / 2] / 1e6);
            out.printf(Locale.ROOT, "| echo round trip meanwhile, max of %d | %.3f ms | < 10 ms | %s |%n", echo.length,
                    echo[echo.length - 1] / 1e6, met(echo[echo.length - 1] < TEN_MILLIS));
        } else {
            out.println("| echo round trip meanwhile | failed | < 10 ms | **no** |");
        }
        out.println();
        if (!growthByClass.isEmpty()) {
            out.printf(Locale.ROOT, "Where the heap of an idle connection goes (live bytes by class, growth from no "
                    + "connection to %,d, per connection; the %d largest):%n%n", last.connections(), TOP_CLASSES);
            out.println("| class | bytes per connection |");
            out.println("|---|---:|");
            growthByClass.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(TOP_CLASSES)
                    .forEach(entry -> out.printf(Locale.ROOT, "| `%s` | %,.1f |%n", entry.getKey(),
                            (double) entry.getValue() / last.connections()));
            out.println();
        }
        projection(out, last, machineMemory);
        out.println();
        if (last.connections() < wanted) {
            out.printf(Locale.ROOT, "**%,d connections were requested, but the open-file limit (ulimit -n) is %,d: "
                    + "the steps stopped at %,d. Raise the limit to run them all.**%n%n", wanted, openFileLimit,
                    last.connections());
        }
        out.println("Server: Troupe distribution defaults with JAVA_OPTS=" + jvmOptions + ", idle timeout "
                + "1 hour (its timers armed, none firing), tenant limit above the count; clients: this process, "
                + (echoFirst ? "each connection one echo request once welcomed, then idle; " : "idle once welcomed; ") + "2 "
                + "IO threads per step, from 127.0.0.2 and up, a port each, at most 512 handshakes at once. Heap: "
                + "jcmd GC.run then GC.heap_info; RSS: VmRSS of /proc/PID/status; slab: Slab of /proc/meminfo.");
        out.flush();
    }

    private void projection(PrintStream out, Step last, long machineMemory) {
        long reserve = Math.max(64, openFileHardLimit / 8);
        long xmx = maxHeap(machineMemory);
        long heapPer = Math.max(1, heapPer(last));
        long residentPer = Math.max(1, residentPer(last));
        long slabPer = Math.max(1, slabPer(last));
        out.printf(Locale.ROOT, "Projection to %,d idle connections, from the figures at %,d:%n%n", PROJECTED,
                last.connections());
        out.println("| resource | per connection | for " + String.format(Locale.ROOT, "%,d", PROJECTED)
                + " | the limit here | connections it allows here |");
        out.println("|---|---:|---:|---:|---:|");
        List<String[]> rows = new ArrayList<>();
        List<Long> allows = new ArrayList<>();
        long fds = openFileHardLimit == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, openFileHardLimit - reserve);
        rows.add(new String[] {"file descriptors (the hard `ulimit -n`, less the server's reserve)", "1",
            String.format(Locale.ROOT, "%,d", PROJECTED + reserve), openFileHardLimit == Long.MAX_VALUE ? "unlimited"
                : String.format(Locale.ROOT, "%,d", openFileHardLimit), count(fds)});
        allows.add(fds);
        long byHeap = Math.max(0, (xmx - baseHeap) / heapPer);
        rows.add(new String[] {"heap (connection, session, timers, buffers at rest)", bytes(heapPer),
            mib(baseHeap + heapPer * PROJECTED), mib(xmx) + " (-Xmx)", count(byHeap)});
        allows.add(byHeap);
        long byMemory = Math.max(0, (machineMemory - baseResident) / (residentPer + slabPer));
        rows.add(new String[] {"memory: the server's RSS and the kernel's socket structures", bytes(residentPer)
            + " + " + bytes(slabPer), mib(baseResident + (residentPer + slabPer) * PROJECTED), mib(machineMemory)
                + " (the machine)", count(byMemory)});
        allows.add(byMemory);
        for (String[] row : rows) {
            out.println("| " + String.join(" | ", row) + " |");
        }
        int first = 0;
        for (int i = 1; i < allows.size(); i++) {
            if (allows.get(i) < allows.get(first)) {
                first = i;
            }
        }
        out.println();
        out.printf(Locale.ROOT, "Here the first limit is %s, at about %s connections. The selector is no limit: "
                + "epoll reports ready sockets only, so an IO loop's cost per wake-up does not grow with the idle "
                + "ones; the idle-timeout timers are in the heap figure.%n", rows.get(first)[0], count(allows.get(first)));
    }

    private long heapPer(Step step) {
        return step.connections() == 0 ? 0 : (step.heap() - baseHeap) / step.connections();
    }

    private static long stepHeapPer(Step before, Step step) {
        int added = step.connections() - before.connections();
        return added == 0 ? 0 : (step.heap() - before.heap()) / added;
    }

    private long residentPer(Step step) {
        return step.connections() == 0 ? 0 : (step.resident() - baseResident) / step.connections();
    }

    private long slabPer(Step step) {
        return step.connections() == 0 ? 0 : (step.slab() - baseSlab) / (2L * step.connections());
    }

    /** Each step's own heap per connection: "1,480 / 1,512 / 1,497 B". */
    private String stepFigures() {
        StringBuilder figures = new StringBuilder();
        Step previous = new Step(0, 0, baseHeap, baseResident, baseSlab);
        for (Step step : steps) {
            figures.append(figures.length() == 0 ? "" : " / ")
                    .append(String.format(Locale.ROOT, "%,d", stepHeapPer(previous, step)));
            previous = step;
        }
        return figures.append(" B").toString();
    }

    /** Whether each step's own heap per connection is within the tolerance of the average at the end. */
    private boolean flat() {
        double average = heapPer(steps.get(steps.size() - 1));
        Step previous = new Step(0, 0, baseHeap, baseResident, baseSlab);
        for (Step step : steps) {
            if (Math.abs(stepHeapPer(previous, step) - average) > FLAT_TOLERANCE * average) {
                return false;
            }
            previous = step;
        }
        return true;
    }

    /** The server's -Xmx from its options, else the JVM's default of a quarter of the machine. */
    private long maxHeap(long machineMemory) {
        Matcher m = XMX.matcher(jvmOptions);
        long value = machineMemory / 4;
        while (m.find()) {
            long amount = Long.parseLong(m.group(1));
            value = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k" -> amount << 10;
                case "m" -> amount << 20;
                case "g" -> amount << 30;
                default -> amount;
            };
        }
        return value;
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d B", bytes);
    }

    private static String count(long connections) {
        return connections == Long.MAX_VALUE ? "unlimited" : String.format(Locale.ROOT, "%,d", connections);
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }
}
