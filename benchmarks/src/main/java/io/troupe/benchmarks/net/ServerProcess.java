package io.troupe.benchmarks.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark server running as its own process: started with its standard input a pipe that stays
 * open (so that {@code bin/troupe} runs in script mode), ready once it prints a line starting with
 * the expected prefix, stopped with SIGTERM. Its output is kept (the last lines) for error reports.
 * {@link #command} writes a line to its standard input (for {@code bin/troupe}, a shell command) and
 * waits for the answer.
 *
 * <p><b>Threading:</b> one suite thread drives an instance (starts it, sends commands, stops it); two
 * daemon threads read the output and only publish lines (a blocking queue, a synchronised tail).
 */
public final class ServerProcess implements AutoCloseable {

    private static final int TAIL_LINES = 60;
    private static final String END = new String("<end of output>");

    private final String name;
    private final Process process;
    private final BlockingQueue<String> stdoutLines = new LinkedBlockingQueue<>();
    private final Deque<String> tail = new ArrayDeque<>();

    private ServerProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        read(process.getInputStream(), true);
        read(process.getErrorStream(), false);
    }

    /**
     * Starts {@code command} in {@code directory} and waits until it prints a line starting with
     * {@code readyPrefix}.
     *
     * @throws IOException when it cannot start, exits, or is not ready within {@code timeout}
     *                     (it is then killed)
     */
    public static ServerProcess start(String name, List<String> command, Path directory, Map<String, String> env,
            String readyPrefix, Duration timeout) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().putAll(env);
        ServerProcess server = new ServerProcess(name, builder.start());
        try {
            server.awaitReady(readyPrefix, timeout);
        } catch (IOException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    public String name() {
        return name;
    }

    /** The process id; for {@code bin/troupe}, which execs, the JVM's. */
    public long pid() {
        return process.pid();
    }

    /**
     * The CPU time (user and system, all threads) the process has used so far, as the kernel counts it
     * (clock ticks, 10 ms on Linux).
     *
     * @throws IllegalStateException where the platform does not tell
     */
    public Duration cpuTime() {
        return process.info().totalCpuDuration().orElseThrow(
                () -> new IllegalStateException("the CPU time of process " + pid() + " is not available here"));
    }

    /**
     * Sends SIGTERM and waits for the exit; kills the process if it has not exited within
     * {@code timeout}.
     *
     * @return the exit status, or -1 when it had to be killed
     */
    public int stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        close();
        return -1;
    }

    /**
     * Writes {@code line} to the process's standard input (for {@code bin/troupe} in script mode, a shell
     * command) and returns the first line it then prints on standard output that starts with
     * {@code answerPrefix}; the lines printed before the command are dropped.
     *
     * @throws IOException when the input is closed, the process ends, or no such line comes within
     *                     {@code timeout}
     */
    public String command(String line, String answerPrefix, Duration timeout) throws IOException,
            InterruptedException {
        for (String earlier; (earlier = stdoutLines.poll()) != null; ) {
            if (earlier == END) {
                stdoutLines.add(END);
                throw new IOException(name + " has ended; its output:\n" + transcript());
            }
        }
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String answer = left > 0 ? stdoutLines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (answer == null) {
                throw new IOException(name + " printed no line starting with '" + answerPrefix + "' within "
                        + timeout.toMillis() + " ms of '" + line + "'");
            }
            if (answer == END) {
                stdoutLines.add(END);
                throw new IOException(name + " ended after '" + line + "'; its output:\n" + transcript());
            }
            if (answer.startsWith(answerPrefix)) {
                return answer;
            }
        }
    }

    /** The last lines of output, for error reports. */
    public String transcript() {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }

    /** Kills the process if it is still running. */
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

    private void awaitReady(String prefix, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? stdoutLines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new IOException(name + " printed no line starting with '" + prefix + "' within "
                        + timeout.toSeconds() + " s; its output:\n" + transcript());
            }
            if (line == END) {
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IOException(name + " ended before it was ready (exit status "
                        + (process.isAlive() ? "?" : process.exitValue()) + "); its output:\n" + transcript());
            }
            if (line.startsWith(prefix)) {
                return;
            }
        }
    }

    private void read(InputStream stream, boolean stdout) {
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    remember(line);
                    if (stdout) {
                        stdoutLines.add(line);
                    }
                }
            } catch (IOException e) {
                remember("<output unreadable: " + e + ">");
            } finally {
                if (stdout) {
                    stdoutLines.add(END);
                }
            }
        }, name + (stdout ? "-stdout" : "-stderr"));
        reader.setDaemon(true);
        reader.start();
    }

    private void remember(String line) {
        synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
    }
}
