package io.troupe.benchmarks.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap in use of another JVM after a full collection, through the JDK's {@code jcmd}:
 * {@code GC.run}, then the {@code used} figure of {@code GC.heap_info}; and its live objects by class
 * ({@code GC.class_histogram}).
 *
 * <p><b>Threading:</b> stateless; any thread (each call runs two {@code jcmd} processes).
 */
final class HeapProbe {

    private static final Pattern USED = Pattern.compile("\\s*\\S.*\\btotal (\\d+)K, used (\\d+)K.*");
    /** {@code   1:   12345   678900  java.lang.String (java.base@17)}: rank, instances, bytes, class. */
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+).*");

    private HeapProbe() {
    }

    /** Bytes of heap in use in process {@code pid} right after a full GC. */
    static long usedAfterFullGc(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String info = jcmd(pid, "GC.heap_info");
        for (String line : info.lines().toList()) {
            Matcher m = USED.matcher(line);
            if (m.matches()) {
                return Long.parseLong(m.group(2)) * 1024;
            }
        }
        throw new IOException("no 'total ...K, used ...K' line in GC.heap_info of " + pid + ":\n" + info);
    }

    /**
     * The live objects of process {@code pid} by class (after the full GC that {@code GC.class_histogram}
     * makes): class name to bytes.
     */
    static Map<String, Long> histogram(long pid) throws IOException, InterruptedException {
        Map<String, Long> bytesByClass = new HashMap<>();
        for (String line : jcmd(pid, "GC.class_histogram").lines().toList()) {
            Matcher m = HISTOGRAM_ROW.matcher(line);
            if (m.matches()) {
                bytesByClass.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
            }
        }
        if (bytesByClass.isEmpty()) {
            throw new IOException("GC.class_histogram of " + pid + " listed no class");
        }
        return bytesByClass;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("jcmd " + pid + " " + command + " failed:\n" + output);
        }
        return output;
    }
}
