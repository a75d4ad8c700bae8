package io.troupe.benchmarks.net;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.management.ThreadMXBean;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

/**
 * The bytes each thread of a server JVM has allocated on the heap so far, read from outside: the
 * suite attaches to the server process once (the JDK's attach mechanism starts its local management
 * agent) and asks its platform {@link ThreadMXBean} through JMX. These are the JVM's own per-thread
 * allocation counters (every TLAB and every allocation outside one), exact and not sampled, the same
 * figure as JFR's {@code jdk.ThreadAllocationStatistics}; reading them allocates nothing in the
 * server's measured threads.
 *
 * <p><b>Threading:</b> {@link #byThread} from one thread at a time; {@link #close} once, after the last
 * reading.
 */
final class AllocationCounter implements AutoCloseable {

    private final JMXConnector connector;
    private final ThreadMXBean threads;

    private AllocationCounter(JMXConnector connector, ThreadMXBean threads) {
        this.connector = connector;
        this.threads = threads;
    }

    /**
     * Attaches to the JVM of process {@code pid}.
     *
     * @throws IOException when it cannot be attached to (not a HotSpot JVM of this user, attach disabled)
     *                     or its management agent does not answer
     */
    static AllocationCounter attach(long pid) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to process " + pid + ": " + e.getMessage(), e);
        }
        try {
            JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
            try {
                ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
                        ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
                if (!threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
                    throw new IOException("process " + pid + " does not count the memory its threads allocate");
                }
                return new AllocationCounter(connector, threads);
            } catch (IOException | RuntimeException e) {
                connector.close();
                throw e;
            }
        } finally {
            vm.detach();
        }
    }

    /** The bytes each live thread has allocated since it started, by thread id. */
    Map<Long, Long> byThread() {
        long[] ids = threads.getAllThreadIds();
        long[] allocated = threads.getThreadAllocatedBytes(ids);
        Map<Long, Long> byThread = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (allocated[i] >= 0) { // -1: the thread ended between the two calls
                byThread.put(ids[i], allocated[i]);
            }
        }
        return byThread;
    }

    /**
     * The bytes allocated between two readings of {@link #byThread}: by the threads alive at the
     * second, each since the first reading or since it started (thread ids are never reused). What a
     * thread that ended in between allocated is not counted.
     */
    static long between(Map<Long, Long> before, Map<Long, Long> after) {
        long total = 0;
        for (Map.Entry<Long, Long> thread : after.entrySet()) {
            total += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
