package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * Tenants of the built distribution over real sockets: a plugin whose manifest names its tenants is
 * invisible to the others, and two tenants that saturate the one worker get its time in the ratio of
 * their {@code weight}s.
 *
 * <p><b>Threading:</b> JUnit's thread; the clients' completions run on their selector threads and only
 * count and send.
 */
class TenantIsolationIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** CPU time per request: the worker, not the sockets, is what the tenants compete for. */
    private static final String BURN_MICROS = "1000";
    private static final int CONNECTIONS = 2;
    private static final int IN_FLIGHT = 8;
    private static final Duration WARM_UP = Duration.ofSeconds(1);
    private static final Duration WINDOW = Duration.ofSeconds(4);

    /** Tokens of at least 32 characters; the server migrates them to hashes in the files. */
    private static final String ACME_TOKEN = "acme-secret-acme-secret-acme-secret";
    private static final String GLOBEX_TOKEN = "globex-secret-globex-secret-globex";

    @TempDir
    Path dir;

    private Path home;
    private int port;

    @BeforeEach
    void install() throws IOException {
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
        // one worker, which the two tenants' burn requests compete for
        Files.writeString(home.resolve("etc/io.troupe.host.cfg"), "workers = 1\nworkers.max = 1\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-acme.cfg"), "token = " + ACME_TOKEN + "\nweight = 3\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-globex.cfg"), "token = " + GLOBEX_TOKEN + "\nweight = 1\n");
        Path burn = Path.of(System.getProperty("troupe.burnPlugin"));
        assertTrue(Files.isRegularFile(burn), "the build makes the burn plugin: " + burn);
        Files.copy(burn, home.resolve("deploy/burn.jar"));
        Path wordcount = home.resolve("deploy/wordcount.jar");
        Files.write(wordcount, withHeader(Files.readAllBytes(wordcount), "Troupe-Tenants", "acme"));
    }

    @Test
    void aScopedPluginIsInvisibleToOtherTenantsAndWeightsShareTheWorker() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
             TroupeClient acme = client("acme", ACME_TOKEN);
             TroupeClient globex = client("globex", GLOBEX_TOKEN)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            acme.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
            globex.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);

            assertEquals("3", new String(acme.request("wordcount", "a b c".getBytes(UTF_8))
                    .get(REPLY.toSeconds(), TimeUnit.SECONDS), UTF_8));
            ExecutionException hidden = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> globex.request("wordcount", "a b c".getBytes(UTF_8)).get(REPLY.toSeconds(), TimeUnit.SECONDS));
            assertEquals("no.handler", assertInstanceOf(TroupeClientException.class, hidden.getCause()).code(),
                    "wordcount is limited to acme: for globex it does not exist");
            assertEquals("hi", new String(globex.request("echo", "hi".getBytes(UTF_8))
                    .get(REPLY.toSeconds(), TimeUnit.SECONDS), UTF_8));

            double ratio = servedRatio();
            assertTrue(ratio > 3 * 0.8 && ratio < 3 * 1.2,
                    "weights 3 and 1 share the worker 3:1 (within 20%): acme/globex = " + ratio);
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    /** Saturates the worker from both tenants and returns acme's requests served over globex's in the window. */
    private double servedRatio() throws Exception {
        List<TroupeClient> clients = new ArrayList<>();
        try {
            Load acmeLoad = new Load();
            Load globexLoad = new Load();
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(start(client("acme", ACME_TOKEN), acmeLoad));
                clients.add(start(client("globex", GLOBEX_TOKEN), globexLoad));
            }
            long windowStart = System.nanoTime() + WARM_UP.toNanos();
            acmeLoad.window(windowStart, windowStart + WINDOW.toNanos());
            globexLoad.window(windowStart, windowStart + WINDOW.toNanos());
            CompletableFuture.allOf(acmeLoad.windowEnded, globexLoad.windowEnded)
                    .get(WARM_UP.plus(WINDOW).plus(REPLY).toSeconds(), TimeUnit.SECONDS);
            assertTrue(acmeLoad.failures.get() == 0 && globexLoad.failures.get() == 0,
                    "no request failed: " + acmeLoad.failures + " and " + globexLoad.failures);
            assertTrue(globexLoad.served.get() > 50, "globex was served too: " + globexLoad.served);
            return (double) acmeLoad.served.get() / globexLoad.served.get();
        } finally {
            clients.forEach(TroupeClient::close);
        }
    }

    /** One tenant's closed loop: each reply sends the next request; replies inside the window are counted. */
    private static final class Load {
        final AtomicLong served = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final CompletableFuture<Void> windowEnded = new CompletableFuture<>();
        private volatile long from = Long.MAX_VALUE;
        private volatile long until = Long.MAX_VALUE;
        private volatile boolean stopped;

        void window(long start, long end) {
            from = start;
            until = end;
        }

        void next(TroupeClient client) {
            if (stopped) {
                return;
            }
            client.request("burn", BURN_MICROS.getBytes(UTF_8)).whenComplete((reply, failure) -> {
                long now = System.nanoTime();
                if (failure != null) {
                    failures.incrementAndGet();
                } else if (now - from >= 0 && now - until < 0) {
                    served.incrementAndGet();
                }
                if (now - until >= 0) {
                    stopped = true;
                    windowEnded.complete(null);
                    return;
                }
                next(client);
            });
        }
    }

    private TroupeClient start(TroupeClient client, Load load) throws Exception {
        client.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
        for (int i = 0; i < IN_FLIGHT; i++) {
            load.next(client);
        }
        return client;
    }

    private TroupeClient client(String tenant, String token) {
        return TroupeClient.builder().port(port).tenant(tenant).token(token).requestTimeout(REPLY).build();
    }

    /** The jar with one more main manifest header. */
    private static byte[] withHeader(byte[] jar, String name, String value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            Manifest manifest = in.getManifest();
            manifest.getMainAttributes().putValue(name, value);
            try (JarOutputStream out = new JarOutputStream(bytes, manifest)) {
                for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                    out.putNextEntry(new JarEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return bytes.toByteArray();
    }
}
