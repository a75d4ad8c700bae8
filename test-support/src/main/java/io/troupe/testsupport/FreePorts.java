package io.troupe.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports of 127.0.0.1 that a test reserves now and something else (a Hazelcast member, a server
 * process) binds later.
 *
 * <p>Asking the kernel for port 0 and closing the socket gives a port of the <em>ephemeral</em> range,
 * the range the kernel also hands to every outgoing connection: between the reservation and the later
 * bind, a connection of the test itself (members joining one another, a client connecting) may take
 * that very port as its local port, and the bind then fails with "address already in use". CI saw
 * exactly that. These ports are drawn at random below the ephemeral range (read from
 * {@code /proc/sys/net/ipv4/ip_local_port_range} where there is one), where the kernel never puts an
 * outgoing connection; each is checked bindable and handed out once per JVM.
 *
 * <p><b>Threading:</b> thread-safe; the ports handed out are kept in a concurrent set.
 */
public final class FreePorts {

    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** One port, free now, below the ephemeral range. */
    public static int one() {
        return take(1).get(0);
    }

    /** {@code count} distinct ports, each free now, below the ephemeral range. */
    public static List<Integer> take(int count) {
        int limit = ephemeralLow();
        List<Integer> ports = new ArrayList<>(count);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; ports.size() < count; attempt++) {
            if (attempt == ATTEMPTS) {
                throw new IllegalStateException("no free port of 127.0.0.1 in [" + LOWEST + ", " + limit
                        + ") after " + ATTEMPTS + " attempts");
            }
            int port = random.nextInt(LOWEST, limit);
            if (bindable(port) && HANDED_OUT.add(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** The first port of the kernel's ephemeral range; 32768 (Linux' default) where it cannot be read. */
    static int ephemeralLow() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        try {
            if (Files.isReadable(range)) {
                int low = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
                if (low > LOWEST + 1_000) {
                    return low;
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the default
        }
        return 32_768;
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
