package io.troupe.cluster.engine;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.troupe.testsupport.FreePorts;

/**
 * Options for real Hazelcast members of this JVM on 127.0.0.1, each on its own free port, joined over
 * TCP-IP to each other, with the settings that make tests fast: few partitions, no wait before a join.
 *
 * <p><b>Threading:</b> the test's thread.
 */
public final class TestNodes {

    /** A secret of the tests. */
    public static final String SECRET = "a-test-secret-of-32-characters!!";
    /** Engine properties that make members start and join in about a second. */
    public static final Map<String, String> FAST = Map.of(
            "hazelcast.partition.count", "23",
            "hazelcast.wait.seconds.before.join", "0",
            "hazelcast.max.wait.seconds.before.join", "0",
            "hazelcast.graceful.shutdown.max.wait", "5");

    static {
        System.setProperty("org.slf4j.simpleLogger.log.com.hazelcast", "warn");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
    }

    private TestNodes() {
    }

    /** {@code count} free ports of 127.0.0.1, below the ephemeral range (see {@link FreePorts}). */
    public static List<Integer> freePorts(int count) {
        return FreePorts.take(count);
    }

    /** The options of a member on {@code port} joining {@code ports}, with {@code secret}. */
    public static NodeOptions options(int port, List<Integer> ports, String secret, Map<String, String> extra) {
        List<MemberAddress> members = ports.stream().map(p -> new MemberAddress("127.0.0.1", p)).toList();
        Map<String, String> properties = new java.util.HashMap<>(FAST);
        properties.putAll(extra);
        return new NodeOptions("troupe-test", secret, members, port, "127.0.0.1", Optional.empty(), 1,
                TestNodes.class.getClassLoader(), properties);
    }

    /** Waits until {@code condition} holds, at most {@code bound}; false when it did not. */
    public static boolean await(BooleanSupplier condition, Duration bound) {
        long end = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        return true;
    }
}
