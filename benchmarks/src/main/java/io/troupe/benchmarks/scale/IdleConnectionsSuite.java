package io.troupe.benchmarks.scale;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.troupe.benchmarks.net.DistributionLocator;
import io.troupe.benchmarks.net.TroupeInstance;
import io.troupe.client.TroupeClient;

/**
 * The scale benchmark: Troupe (a copy of the distribution, heap capped by {@code -Xmx1g}) holding
 * many idle authenticated connections of the demo tenant, opened from this process
 * ({@link IdleConnections}) in steps (by default 5 000, 10 000 and 19 000 in all, the most this machine's
 * file limit allows). At each step it takes the server's heap in use after a full GC ({@link HeapProbe}),
 * its resident set and the kernel's slab memory ({@link ProcessMemory}), hence the cost per connection
 * and whether it stays flat from step to step; at the end, the round trip of {@code echo} requests on a
 * fresh connection while the others stay open, and a projection to a million connections with what would
 * limit it first ({@link ScaleReport}). The idle-timeout machinery is on (an hour), as in production.
 * With {@code --echo-first}, each connection makes one {@code echo} request before it idles, so that its
 * session holds what a connection that has talked holds (its session actor among them).
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.scale.IdleConnectionsSuite [--quick] [--steps 5000,10000,19000]
 *      [--connections N] [--distribution DIR] [--per-address 20000] [--jvm-opts -Xmx1g] [--echo-first]
 * </pre>
 *
 * <p>Needs an open-file limit above the largest step in this process (the server's is raised by the
 * suite); steps above it are lowered to it, and the suite says what to raise. Tables on standard output,
 * progress on standard error; exit 0 when every connection and echo succeeded (targets met or not), 1
 * otherwise, 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread.
 */
public final class IdleConnectionsSuite {

    static final List<Integer> DEFAULT_STEPS = List.of(5_000, 10_000, 19_000);
    static final List<Integer> QUICK_STEPS = List.of(1_000, 2_000);
    private static final int ECHO_WARMUP = 200;
    private static final int ECHO_SAMPLES = 100;
    /** File descriptors besides the connections: jars, selectors, pipes, the listening socket. */
    private static final int FD_MARGIN = 1_000;
    /** Long enough never to close a connection during the run; the timers run all the same. */
    private static final int IDLE_TIMEOUT_SECONDS = 3_600;
    /** The request timeout with {@code --echo-first}, and how long the suite waits past it before it measures. */
    private static final int ECHO_FIRST_TIMEOUT_SECONDS = 2;

    private IdleConnectionsSuite() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        List<Integer> requested = null;
        boolean quick = false;
        String distributionOption = null;
        int perAddress = 20_000;
        String jvmOptions = "-Xmx1g";
        boolean echoFirst = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> quick = true;
                    case "--connections" -> requested = List.of(Integer.parseInt(args[++i]));
                    case "--steps" -> requested = parseSteps(args[++i]);
                    case "--distribution" -> distributionOption = args[++i];
                    case "--per-address" -> perAddress = Integer.parseInt(args[++i]);
                    case "--jvm-opts" -> jvmOptions = args[++i];
                    case "--echo-first" -> echoFirst = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (RuntimeException e) {
            err.println("IdleConnectionsSuite: bad command line " + Arrays.toString(args) + ": " + e.getMessage());
            return 64;
        }
        if (requested == null) {
            requested = quick ? QUICK_STEPS : DEFAULT_STEPS;
        }
        long limit = OpenFileLimit.current();
        List<Integer> steps = fitSteps(requested, limit, err);
        if (steps.isEmpty()) {
            return 1;
        }
        int most = steps.get(steps.size() - 1);
        Path distribution;
        try {
            distribution = DistributionLocator.locate(distributionOption);
        } catch (IllegalStateException e) {
            err.println("IdleConnectionsSuite: " + e.getMessage());
            return 1;
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        int port = freePort();
        // the admission limits are sized for this load, as an operator expecting it would: all of it may come
        // from a few addresses and connect at once (their defaults would refuse most of it, on purpose)
        String admitted = Integer.toString(most + 1_000);
        Map<String, String> serverKeys = new LinkedHashMap<>(Map.of("maxConnections", admitted,
                "maxConnectionsPerAddress", admitted, "maxUnauthenticatedConnections", admitted));
        if (echoFirst) {
            // a session forgets an answered request's deadline at the next sweep, at the request timeout: a short
            // one lets the suite measure the sessions as they stay, not as they are in the echo's first seconds
            serverKeys.put("requestTimeoutSeconds", Integer.toString(ECHO_FIRST_TIMEOUT_SECONDS));
        }
        TroupeInstance.Settings settings = new TroupeInstance.Settings(port,
                List.of(new TroupeInstance.Tenant("demo", token, most + 100)), serverKeys, List.of(),
                IDLE_TIMEOUT_SECONDS, jvmOptions, (int) Math.min(Integer.MAX_VALUE, most + (long) FD_MARGIN + 10_000));
        err.println("IdleConnectionsSuite: starting Troupe (" + jvmOptions + ") for " + steps + " connections");
        try (TroupeInstance troupe = TroupeInstance.start(distribution, settings)) {
            long pid = troupe.process().pid();
            ScaleReport report = new ScaleReport(requested, limit, OpenFileLimit.hard(), jvmOptions, echoFirst);
            report.start(settledHeap(pid), ProcessMemory.residentBytes(pid), ProcessMemory.slabBytes());
            Map<String, Long> classesBefore = HeapProbe.histogram(pid);
            err.println("IdleConnectionsSuite: heap in use before: " + ScaleReport.mib(report.baseHeap()));
            List<IdleConnections> open = new ArrayList<>();
            try {
                int opened = 0;
                for (int step : steps) {
                    IdleConnections idle;
                    try {
                        idle = IdleConnections.open(port, "demo", token, opened, step - opened, perAddress, 512, echoFirst,
                                count -> err.println("IdleConnectionsSuite: " + count + " connecting or connected"));
                    } catch (IOException e) {
                        err.println("IdleConnectionsSuite: " + e);
                        return 1;
                    }
                    open.add(idle);
                    err.printf(Locale.ROOT, "IdleConnectionsSuite: %d more connected in %.2f s, %d failed%s%n",
                            idle.opened(), idle.elapsedNanos() / 1e9, idle.failures(),
                            idle.firstFailure() == null ? "" : " (first: " + idle.firstFailure() + ")");
                    if (idle.failures() > 0) {
                        err.println("IdleConnectionsSuite: errors: " + idle.failures() + " connections failed"
                                + "\n--- server output ---\n" + troupe.process().transcript());
                        return 1;
                    }
                    opened = step;
                    if (echoFirst) {
                        Thread.sleep(TimeUnit.SECONDS.toMillis(ECHO_FIRST_TIMEOUT_SECONDS + 1L));
                    }
                    report.step(step, idle.elapsedNanos(), HeapProbe.usedAfterFullGc(pid),
                            ProcessMemory.residentBytes(pid), ProcessMemory.slabBytes());
                }
                report.classes(classesBefore, HeapProbe.histogram(pid));
                long[] echo = echoRoundTrips(port, token);
                report.print(out, echo, ProcessMemory.totalBytes());
                if (echo == null) {
                    err.println("IdleConnectionsSuite: errors: echo failed\n--- server output ---\n"
                            + troupe.process().transcript());
                    return 1;
                }
            } finally {
                open.forEach(IdleConnections::close);
            }
            troupe.stop();
        }
        return 0;
    }

    private static List<Integer> parseSteps(String text) {
        List<Integer> steps = new ArrayList<>();
        for (String item : text.split(",")) {
            int step = Integer.parseInt(item.trim());
            if (step < 1 || (!steps.isEmpty() && step <= steps.get(steps.size() - 1))) {
                throw new IllegalArgumentException("--steps must be increasing counts of connections: " + text);
            }
            steps.add(step);
        }
        return steps;
    }

    /** The steps that fit this process's open-file limit: those above it are lowered to it (once). */
    private static List<Integer> fitSteps(List<Integer> requested, long limit, PrintStream err) {
        long most = requested.get(requested.size() - 1);
        if (limit < 0 || limit >= most + FD_MARGIN) {
            return requested;
        }
        int cap = (int) Math.max(0, limit - FD_MARGIN);
        err.println("IdleConnectionsSuite: the open-file limit is " + limit + " (ulimit -n), but " + most
                + " connections need about " + (most + FD_MARGIN) + " in this process and in the server: raise it "
                + "(as root with CAP_SYS_RESOURCE: `ulimit -n 200000` before java; or the hard limit in "
                + "/etc/security/limits.conf or the container's settings). Stopping at " + cap + " connections.");
        List<Integer> fitted = new ArrayList<>();
        for (int step : requested) {
            if (step < cap) {
                fitted.add(step);
            } else {
                if (cap > 0) {
                    fitted.add(cap);
                }
                break;
            }
        }
        return fitted;
    }

    /** Sorted round-trip times in nanoseconds of {@link #ECHO_SAMPLES} echoes, after a warm-up; null on failure. */
    private static long[] echoRoundTrips(int port, String token) {
        byte[] payload = new byte[64];
        try (TroupeClient client = TroupeClient.builder().port(port).tenant("demo").token(token).reconnect(false)
                .build()) {
            client.connect().get(30, TimeUnit.SECONDS);
            for (int i = 0; i < ECHO_WARMUP; i++) {
                client.request("echo", payload).get(30, TimeUnit.SECONDS);
            }
            long[] samples = new long[ECHO_SAMPLES];
            for (int i = 0; i < samples.length; i++) {
                long start = System.nanoTime();
                byte[] reply = client.request("echo", payload).get(30, TimeUnit.SECONDS);
                samples[i] = System.nanoTime() - start;
                if (reply.length != payload.length) {
                    return null;
                }
            }
            Arrays.sort(samples);
            return samples;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The heap in use after a full GC once it stopped falling: just after "Troupe ready" parts still finish
     * starting (the HTTP endpoint binds, the console takes its first samples) and hold transient objects that
     * a reading at that moment would count, and then miss, making the connections look cheaper than they are.
     * Reads until two readings half a second apart are within 64 KiB, at most 10 times.
     */
    private static long settledHeap(long pid) throws IOException, InterruptedException {
        long previous = HeapProbe.usedAfterFullGc(pid);
        for (int i = 0; i < 10; i++) {
            Thread.sleep(500);
            long now = HeapProbe.usedAfterFullGc(pid);
            if (Math.abs(now - previous) < 64 * 1024) {
                return Math.min(now, previous);
            }
            previous = now;
        }
        return previous;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
