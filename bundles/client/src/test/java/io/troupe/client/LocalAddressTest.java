package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.junit.jupiter.api.Test;

class LocalAddressTest {

    @Test
    void connectionsComeFromTheConfiguredLocalAddress() throws Exception {
        InetAddress second = InetAddress.getByName("127.0.0.2");
        int freePort;
        try (ServerSocket probe = new ServerSocket(0, 1, second)) {
            freePort = probe.getLocalPort();
        }
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            server.setSoTimeout(10_000);
            try (TroupeClient client = TroupeClient.builder().port(server.getLocalPort()).localAddress(new InetSocketAddress(second, freePort))
                    .tenant("acme").token("t").reconnect(false).closeTimeout(java.time.Duration.ofMillis(200))
                    .build()) {
                client.connect();
                try (Socket accepted = server.accept()) {
                    assertEquals(second, accepted.getInetAddress());
                    assertEquals(freePort, accepted.getPort());
                }
            }
        }
    }

    @Test
    void portZeroLetsTheSystemChooseThePort() throws Exception {
        InetAddress second = InetAddress.getByName("127.0.0.2");
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            server.setSoTimeout(10_000);
            try (TroupeClient client = TroupeClient.builder().port(server.getLocalPort())
                    .localAddress(new InetSocketAddress(second, 0)).tenant("acme").token("t").reconnect(false)
                    .closeTimeout(java.time.Duration.ofMillis(200)).build()) {
                client.connect();
                try (Socket accepted = server.accept()) {
                    assertEquals(second, accepted.getInetAddress());
                }
            }
        }
    }

    @Test
    void aNullLocalAddressIsRefused() {
        assertThrows(NullPointerException.class, () -> TroupeClient.builder().localAddress(null));
    }
}
