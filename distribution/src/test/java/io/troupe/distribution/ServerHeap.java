package io.troupe.distribution;

import java.io.IOException;
import java.nio.file.Path;

import io.troupe.distribution.longtier.ServerGauges;

/**
 * The live heap of a running Troupe, as its JVM reports it through {@code jcmd} (of the JDK running the
 * tests, run by {@link ServerGauges}): a full collection ({@code GC.run}), then {@code GC.heap_info}'s "used"
 * figure. After a full collection "used" is what is still reachable, so that garbage a busy server has not
 * collected yet does not count; buffers of pending output are reachable until written, and count.
 *
 * <p><b>Threading:</b> immutable; each call runs two {@code jcmd} processes, bounded by a timeout.
 */
final class ServerHeap {

    private final ServerGauges gauges;
    private final long pid;

    private ServerHeap(ServerGauges gauges, long pid) {
        this.gauges = gauges;
        this.pid = pid;
    }

    /** The JVM of the installation in {@code home} ({@link TestInstallation#jvm}), measured with {@code javaHome}. */
    static ServerHeap of(Path home, Path javaHome) {
        return new ServerHeap(new ServerGauges(javaHome), TestInstallation.jvm(home).pid());
    }

    /** Bytes of heap in use right after a full collection. */
    long usedAfterFullGc() throws IOException, InterruptedException {
        return gauges.heapUsedAfterFullGc(pid);
    }
}
