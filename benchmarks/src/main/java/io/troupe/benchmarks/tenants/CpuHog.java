package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.troupe.benchmarks.net.ServerProcess;

/**
 * Another program on the machine that keeps every core busy: a separate JVM whose threads spin on
 * the CPU, as many as there are cores, at the same priority as everything else. Tenant B measured
 * beside it shows what the operating system's scheduler alone does to a request/reply loop when
 * something takes every core, whoever that something is: the floor under B's latency beside a noisy
 * tenant A on the same machine, which no fairness inside Troupe can go below.
 *
 * <p>The process prints {@code spinning N} once its N threads run, and ends when its standard input
 * closes (the suite closes it, or dies).
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} on one thread (the suite's); {@link #main}
 * is the hog process itself.
 */
final class CpuHog implements AutoCloseable {

    private static final String READY = "spinning ";

    /** Never set: read on every turn so that the spin cannot be compiled away. */
    private static volatile boolean stopped;
    /** Written only after a spin that never ends: keeps its count observable. */
    static volatile long spins;

    private final ServerProcess process;

    private CpuHog(ServerProcess process) {
        this.process = process;
    }

    /**
     * Starts a hog of {@code threads} spinning threads and waits until they all run.
     *
     * @throws IOException when it cannot start or does not report its threads running within
     *                     {@code timeout}
     */
    static CpuHog start(int threads, Duration timeout) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx32m", "-XX:+UseSerialGC", "-cp", ownClassPath(),
                CpuHog.class.getName(), Integer.toString(threads));
        return new CpuHog(ServerProcess.start("cpu-hog", command, Path.of(System.getProperty("user.dir")), Map.of(),
                READY, timeout));
    }

    /** Where this class was loaded from (the benchmarks jar, or a build's classes directory). */
    private static String ownClassPath() throws IOException {
        try {
            return Path.of(CpuHog.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new IOException("cannot tell where " + CpuHog.class.getName() + " was loaded from", e);
        }
    }

    /** Ends the hog. */
    @Override
    public void close() {
        process.close();
    }

    /** The hog: {@code args[0]} spinning threads until standard input closes. */
    public static void main(String[] args) throws IOException, InterruptedException {
        int threads = Integer.parseInt(args[0]);
        CountDownLatch running = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread spinner = new Thread(() -> spin(running), "cpu-hog-" + (i + 1));
            spinner.setDaemon(true);
            spinner.start();
        }
        running.await();
        System.out.println(READY + threads);
        System.out.flush();
        while (System.in.read() != -1) {
            // nothing is ever sent: this waits for the end of input
        }
        System.exit(0);
    }

    private static void spin(CountDownLatch running) {
        running.countDown();
        long turns = 0;
        while (!stopped) {
            turns++;
        }
        spins = turns;
    }
}
