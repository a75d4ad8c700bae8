package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live heap of a running Troupe, as its JVM reports it through {@code jcmd} (of the JDK running the
 * tests): a full collection ({@code GC.run}), then {@code GC.heap_info}'s "used" figure. After a full
 * collection "used" is what is still reachable, so that garbage a busy server has not collected yet does
 * not count; buffers of pending output are reachable until written, and count.
 *
 * <p><b>Threading:</b> immutable; each call runs two {@code jcmd} processes, bounded by a timeout.
 */
final class ServerHeap {

    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(60);
    /** "garbage-first heap   total 262144K, used 23456K [...": the first "used" is the whole heap's. */
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private final Path jcmd;
    private final long pid;

    private ServerHeap(Path jcmd, long pid) {
        this.jcmd = jcmd;
        this.pid = pid;
    }

    /**
     * The JVM of the installation in {@code home}: the one process whose command line carries
     * {@code -Dtroupe.home=<home>} ({@code bin/troupe} execs it).
     */
    static ServerHeap of(Path home, Path javaHome) {
        String property = "-Dtroupe.home=" + home.toAbsolutePath();
        List<ProcessHandle> found = ProcessHandle.allProcesses()
                .filter(process -> process.info().arguments().map(List::of).orElse(List.of()).contains(property))
                .toList();
        if (found.size() != 1) {
            throw new AssertionError("not one JVM with " + property + ": " + found);
        }
        return new ServerHeap(javaHome.resolve("bin/jcmd"), found.get(0).pid());
    }

    /** Bytes of heap in use right after a full collection. */
    long usedAfterFullGc() throws IOException, InterruptedException {
        run("GC.run");
        String info = run("GC.heap_info");
        Matcher used = USED.matcher(info);
        if (!used.find()) {
            throw new AssertionError("no 'used ...K' in jcmd GC.heap_info: " + info);
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    private String run(String command) throws IOException, InterruptedException {
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
