package io.troupe.distribution.longtier;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a running server's JVM holds, read from outside as an operator would: the heap and metaspace in use
 * right after a full collection ({@code jcmd PID GC.run}, then {@code GC.heap_info}: what is still reachable,
 * so that garbage not yet collected does not count), its threads ({@code Threads:} of
 * {@code /proc/PID/status}) and its open file descriptors (the entries of {@code /proc/PID/fd}). Linux only.
 *
 * <p><b>Threading:</b> stateless; each call runs {@code jcmd} processes, bounded by a timeout.
 */
public final class ServerGauges {

    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);
    /** "garbage-first heap   total 262144K, used 23456K [...": the first "used" is the whole heap's. */
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    /** " Metaspace       used 41234K, committed 41728K, reserved 1114112K". */
    private static final Pattern METASPACE_USED = Pattern.compile("Metaspace\\s+used (\\d+)K");
    private static final Pattern THREADS = Pattern.compile("(?m)^Threads:\\s+(\\d+)$");

    private final Path jcmd;

    /** @param javaHome the JDK whose {@code bin/jcmd} attaches to the server (the tests' own) */
    public ServerGauges(Path javaHome) {
        this.jcmd = javaHome.resolve("bin/jcmd");
    }

    /**
     * The figures of the JVM {@code pid} now.
     *
     * @param collect whether to run a full collection first (the heap figures are then what is reachable)
     */
    public Reading read(long pid, boolean collect) throws IOException, InterruptedException {
        String info = heapInfo(pid, collect);
        long heap = kilobytes(HEAP_USED.matcher(info), "used ...K", info);
        long metaspace = kilobytes(METASPACE_USED.matcher(info), "Metaspace used ...K", info);
        Path proc = Path.of("/proc", Long.toString(pid));
        Matcher threads = THREADS.matcher(Files.readString(proc.resolve("status"), UTF_8));
        if (!threads.find()) {
            throw new AssertionError("no 'Threads:' line in /proc/" + pid + "/status");
        }
        long descriptors;
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            descriptors = fds.count();
        }
        return new Reading(heap, metaspace, Integer.parseInt(threads.group(1)), descriptors);
    }

    /**
     * One reading.
     *
     * @param heapBytes      heap in use
     * @param metaspaceBytes metaspace in use
     * @param threads        live threads of the process
     * @param descriptors    open file descriptors
     */
    public record Reading(long heapBytes, long metaspaceBytes, int threads, long descriptors) {

        @Override
        public String toString() {
            return "heap " + megabytes(heapBytes) + ", metaspace " + megabytes(metaspaceBytes) + ", " + threads
                    + " threads, " + descriptors + " file descriptors";
        }
    }

    /**
     * The heap the JVM {@code pid} has in use right after a full collection: what is still reachable (buffers
     * of pending output count until written), without the other figures of {@link #read}.
     */
    public long heapUsedAfterFullGc(long pid) throws IOException, InterruptedException {
        String info = heapInfo(pid, true);
        return kilobytes(HEAP_USED.matcher(info), "used ...K", info);
    }

    /** {@code bytes} as "12.3 MB". */
    public static String megabytes(long bytes) {
        return String.format("%.1f MB", bytes / 1e6);
    }

    private static long kilobytes(Matcher matcher, String what, String info) {
        if (!matcher.find()) {
            throw new AssertionError("no '" + what + "' in jcmd GC.heap_info: " + info);
        }
        return Long.parseLong(matcher.group(1)) * 1024;
    }

    /** {@code jcmd PID GC.heap_info}, after {@code GC.run} when {@code collect}. */
    private String heapInfo(long pid, boolean collect) throws IOException, InterruptedException {
        if (collect) {
            jcmd(pid, "GC.run");
        }
        return jcmd(pid, "GC.heap_info");
    }

    private String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true)
                .start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(JCMD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("jcmd " + pid + " " + command + " took more than " + JCMD_TIMEOUT);
        }
        String text = new String(output, UTF_8);
        if (process.exitValue() != 0) {
            throw new AssertionError("jcmd " + pid + " " + command + " failed: " + text);
        }
        return text;
    }
}
