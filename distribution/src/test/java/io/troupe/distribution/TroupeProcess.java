package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A running {@code bin/troupe} whose standard input is a pipe (so it runs in script mode). Two
 * daemon threads read its standard output and error line by line; the test waits for output with
 * bounded timeouts, never by sleeping.
 *
 * <p><b>Threading:</b> one test thread drives an instance; the reader threads only publish lines
 * through a blocking queue and a synchronised list.
 */
final class TroupeProcess implements AutoCloseable {

    /** Marks the end of standard output in the queue; compared by identity. */
    private static final String END = new String("<end of output>");

    private static final Duration STREAM_END_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> stdoutLines = new LinkedBlockingQueue<>();
    private final List<String> stdout = Collections.synchronizedList(new ArrayList<>());
    private final List<String> stderr = Collections.synchronizedList(new ArrayList<>());
    /** Counted down as each reader reaches the end of its stream. */
    private final CountDownLatch streamsEnded = new CountDownLatch(2);

    private TroupeProcess(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        read(process.getInputStream(), "stdout", line -> {
            stdout.add(line);
            stdoutLines.add(line);
        }, () -> {
            stdoutLines.add(END);
            streamsEnded.countDown();
        });
        read(process.getErrorStream(), "stderr", stderr::add, streamsEnded::countDown);
    }

    /** Starts {@code script} in {@code workingDir} with {@code JAVA_HOME} set to {@code javaHome}. */
    static TroupeProcess start(Path script, Path workingDir, Path javaHome) throws IOException {
        return start(script, workingDir, javaHome, null);
    }

    /**
     * Starts {@code script} as {@link #start(Path, Path, Path)} does, with {@code JAVA_OPTS} set to
     * {@code javaOpts} (null: unset), e.g. {@code -Xmx256m}.
     */
    static TroupeProcess start(Path script, Path workingDir, Path javaHome, String javaOpts) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(script.toString()).directory(workingDir.toFile());
        Map<String, String> env = builder.environment();
        env.remove("JAVA_OPTS");
        if (javaOpts != null) {
            env.put("JAVA_OPTS", javaOpts);
        }
        env.put("JAVA_HOME", javaHome.toString());
        return new TroupeProcess(builder.start());
    }

    /** The process's id: that of the JVM, which {@code bin/troupe} execs. */
    long pid() {
        return process.pid();
    }

    /** Writes one line to standard input. */
    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Waits for a line of standard output starting with {@code prefix}, skipping others; returns it. */
    String awaitLineStartingWith(String prefix, Duration timeout) throws InterruptedException {
        return awaitLineStartingWithAny(timeout, prefix);
    }

    /** Waits for a line of standard output starting with any of {@code prefixes}, skipping others; returns it. */
    String awaitLineStartingWithAny(Duration timeout, String... prefixes) throws InterruptedException {
        String wanted = "'" + String.join("' or '", prefixes) + "'";
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? stdoutLines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                fail("no line starting with " + wanted + " on stdout within " + timeout.toSeconds() + " s"
                        + transcript());
            }
            if (line == END) {
                fail("stdout ended before a line starting with " + wanted + transcript());
            }
            for (String prefix : prefixes) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }
    }

    /** Waits for a line of standard output equal to {@code expected}, skipping others. */
    void awaitLine(String expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? stdoutLines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                fail("no line '" + expected + "' on stdout within " + timeout.toSeconds() + " s" + transcript());
            }
            if (line == END) {
                fail("stdout ended before a line '" + expected + "'" + transcript());
            }
            if (line.equals(expected)) {
                return;
            }
        }
    }

    /** Sends SIGTERM and returns the exit status, failing unless the process exits within {@code timeout}. */
    int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return awaitExit(timeout);
    }

    /** Sends SIGINT (as Ctrl-C would) and returns the exit status, failing unless it exits within {@code timeout}. */
    int interrupt(Duration timeout) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            fail("kill -INT " + process.pid() + " failed");
        }
        return awaitExit(timeout);
    }

    /**
     * The exit status, failing unless the process exits within {@code timeout}. Also waits, up to
     * {@link #STREAM_END_TIMEOUT}, until both readers have taken the last lines the process wrote
     * (they read on their own threads, and may lag behind its exit); a child that keeps the pipes open
     * longer is not waited for.
     */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("still running " + timeout.toSeconds() + " s later" + transcript());
        }
        streamsEnded.await(STREAM_END_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return process.exitValue();
    }

    /** Whether the process still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Standard error so far. */
    List<String> stderr() {
        synchronized (stderr) {
            return List.copyOf(stderr);
        }
    }

    /** Both streams so far, for failure messages. */
    String transcript() {
        synchronized (stdout) {
            synchronized (stderr) {
                return "\n--- stdout ---\n" + String.join("\n", stdout) + "\n--- stderr ---\n" + String.join("\n", stderr);
            }
        }
    }

    /** Kills the process if a test left it running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void read(InputStream stream, String name, Consumer<String> lines, Runnable end) {
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.accept(line);
                }
            } catch (IOException e) {
                lines.accept("<" + name + " unreadable: " + e + ">");
            } finally {
                end.run();
            }
        }, "troupe-" + name);
        reader.setDaemon(true);
        reader.start();
    }
}
