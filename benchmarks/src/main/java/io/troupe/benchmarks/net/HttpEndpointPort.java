package io.troupe.benchmarks.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Gives a benchmark's copy of the distribution an HTTP endpoint port of its own: the shipped 7879 is one per
 * machine, so nodes of a benchmark cluster (or a Troupe the operator runs beside) would fight over it.
 *
 * <p><b>Threading:</b> stateless; the suite's thread.
 */
public final class HttpEndpointPort {

    private HttpEndpointPort() {
    }

    /**
     * Rewrites the {@code port = N} line of {@code home}'s {@code etc/io.troupe.http.cfg} to a free loopback port.
     * A distribution built before the HTTP endpoint existed has no such file (a before-and-after run of a suite):
     * nothing to do then.
     *
     * @return the port, or 0 when the distribution has no HTTP endpoint
     */
    public static int useFreePort(Path home) throws IOException {
        Path config = home.resolve("etc/io.troupe.http.cfg");
        if (!Files.exists(config)) {
            return 0;
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String text = Files.readString(config, StandardCharsets.UTF_8);
        String changed = text.replaceFirst("(?m)^port = [0-9]+$", "port = " + port);
        if (changed.equals(text)) {
            throw new IOException(config + " has no line 'port = N'");
        }
        Files.writeString(config, changed, StandardCharsets.UTF_8);
        return port;
    }
}
