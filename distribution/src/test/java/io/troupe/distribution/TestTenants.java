package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.troupe.client.TroupeClient;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * The tenants of one test installation, written to its {@code etc/} as a user would (FileInstall
 * polls every second), all with the same token, and sessions opened for them over the wire (or with the
 * client library, {@link #connectedClient}, for tenants a test wrote with tokens of its own).
 *
 * <p><b>Threading:</b> the test thread; {@link #served} and {@link #connectedClient} from any thread.
 */
final class TestTenants {

    /** A token of the length a real one has (32 characters at least). */
    static final String TOKEN = "it-token-0123456789abcdefghijklmnopqrstuv";

    private final Path home;
    private final int port;

    TestTenants(Path home, int port) {
        this.home = home;
        this.port = port;
    }

    /** The port the installation listens on. */
    int port() {
        return port;
    }

    /** Writes etc/io.troupe.tenant-{@code id}.cfg with the token and {@code lines}, replacing it whole at once. */
    void write(String id, String... lines) throws IOException {
        StringBuilder text = new StringBuilder("token = " + TOKEN + "\n");
        for (String line : lines) {
            text.append(line).append('\n');
        }
        Path part = home.resolve("etc/.tenant-" + id + ".part");
        Files.writeString(part, text, UTF_8);
        Files.move(part, home.resolve("etc/io.troupe.tenant-" + id + ".cfg"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * A session of tenant {@code id}, once FileInstall has loaded its file: HELLO is retried (every
     * 100 ms) until WELCOME or {@code loaded} has passed.
     */
    WireClient served(String id, Duration loaded) throws IOException {
        long deadline = System.nanoTime() + loaded.toNanos();
        while (true) {
            WireClient client = WireClient.connect(port);
            Frame answer = client.hello(id, TOKEN, loaded);
            if (answer.type() == FrameType.WELCOME) {
                return client;
            }
            client.close();
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("tenant '" + id + "' not served within " + loaded + ": " + answer + " "
                        + answer.text());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /**
     * A connected client-library session of {@code tenant} on {@code port}, once the server has loaded the
     * tenant's file: HELLO is retried (every 100 ms) until it is accepted or {@code loaded} has passed. Each
     * attempt, and each request of the client, times out after {@code reply}; the client does not reconnect.
     *
     * @throws AssertionError when the tenant is not served within {@code loaded} (the last refusal its cause)
     */
    static TroupeClient connectedClient(int port, String tenant, String token, Duration reply, Duration loaded)
            throws Exception {
        long deadline = System.nanoTime() + loaded.toNanos();
        while (true) {
            TroupeClient client = TroupeClient.builder().port(port).tenant(tenant).token(token).requestTimeout(reply)
                    .reconnect(false).build();
            try {
                client.connect().get(reply.toSeconds(), TimeUnit.SECONDS);
                return client;
            } catch (ExecutionException e) {
                client.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("tenant '" + tenant + "' not served within " + loaded, e.getCause());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }
}
