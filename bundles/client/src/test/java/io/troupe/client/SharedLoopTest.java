package io.troupe.client;

import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SharedLoopTest {

    private TestServer server;
    private ClientLoop loop;
    private final List<TroupeClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = TestServer.start("s3cret");
        loop = ClientLoop.create("shared", 2);
    }

    @AfterEach
    void stop() throws IOException {
        clients.forEach(TroupeClient::close);
        loop.close();
        server.close();
    }

    private TroupeClient client(ConnectionListener listener) {
        TroupeClient client = TroupeClient.builder().port(server.port()).tenant("acme").token("s3cret").loop(loop)
                .connectionListener(listener).build();
        clients.add(client);
        return client;
    }

    @Test
    void manyClientsShareTheThreadsOfOneClientLoop() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ConnectionListener recordThread = new ConnectionListener() {
            @Override
            public void connected(String sessionId) {
                threads.add(Thread.currentThread().getName());
            }
        };
        List<CompletableFuture<String>> connects = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            connects.add(client(recordThread).connect());
        }
        for (CompletableFuture<String> connect : connects) {
            result(connect);
        }

        List<CompletableFuture<byte[]>> replies = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            replies.add(clients.get(i).request("echo", ("client " + i).getBytes(UTF_8)));
        }

        for (int i = 0; i < clients.size(); i++) {
            assertEquals("client " + i, new String(result(replies.get(i)), UTF_8));
        }
        assertEquals(Set.of("shared-1", "shared-2"), threads);
    }

    @Test
    void closingOneClientLeavesTheSharedLoopToTheOthers() throws Exception {
        TroupeClient first = client(null);
        TroupeClient second = client(null);
        result(first.connect());
        result(second.connect());

        first.close();

        assertTrue(first.isClosed());
        assertEquals("still", new String(result(second.request("echo", "still".getBytes(UTF_8))), UTF_8));
    }

    @Test
    void closingTheSharedLoopClosesTheClientsOnIt() throws Exception {
        server.handler((peer, frame) -> { }); // no answers; the loop's close does not say BYE
        TroupeClient client = client(null);
        result(client.connect());
        CompletableFuture<byte[]> inFlight = client.request("work", new byte[0]);
        server.nextFrame();

        loop.close();

        assertInstanceOf(ConnectionLostException.class, failure(inFlight));
        assertTrue(client.isClosed());
        assertInstanceOf(ConnectionLostException.class, failure(client.request("echo", new byte[0])));
        assertInstanceOf(ConnectionLostException.class, failure(client.connect()));
        result(client.closeAsync());
        assertThrows(IllegalStateException.class,
                () -> TroupeClient.builder().tenant("acme").token("s3cret").loop(loop).build());
    }
}
