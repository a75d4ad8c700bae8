package io.troupe.benchmarks.scale;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import io.troupe.client.ClientLoop;
import io.troupe.client.TroupeClient;

/**
 * Many authenticated connections that then stay idle: {@link TroupeClient}s sharing one
 * {@link ClientLoop}, spread over loopback source addresses so that ports do not run out
 * (127.0.0.2, 127.0.0.3, ..., {@code perAddress} connections each; not 127.0.0.1, where other
 * programs bind their ports), each client bound to its own port ({@link #FIRST_PORT} up), and
 * connected with at most {@code concurrency} handshakes under way at once (so that the listen backlog does not
 * overflow into SYN retries, which would time the kernel rather than the server). No keep-alive,
 * no reconnection.
 *
 * <p><b>Threading:</b> {@link #open} and {@link #close} from one suite thread; the clients run on
 * the loop's threads.
 */
final class IdleConnections implements AutoCloseable {

    /**
     * Each client is bound to its own port, counted from here on its source address: binding to
     * port 0 would make the kernel search for a free port, slower with every port taken.
     */
    static final int FIRST_PORT = 20_000;
    /** At most this many connections per source address, from {@link #FIRST_PORT} up to 65 000. */
    static final int MAX_PER_ADDRESS = 45_000;
    /** What a connection that makes one request before it idles sends ({@code --echo-first}). */
    private static final byte[] ECHO_PAYLOAD = new byte[64];

    private final ClientLoop loop;
    private final List<TroupeClient> clients;
    private final long failures;
    private final Throwable firstFailure;
    private final long elapsedNanos;

    private IdleConnections(ClientLoop loop, List<TroupeClient> clients, long failures, Throwable firstFailure,
            long elapsedNanos) {
        this.loop = loop;
        this.clients = clients;
        this.failures = failures;
        this.firstFailure = firstFailure;
        this.elapsedNanos = elapsedNanos;
    }

    /**
     * Opens {@code count} connections and waits until each has been welcomed or has failed.
     *
     * @param first    the index of the first connection among all those the suite opens: it picks the
     *                 source address and port ({@code 2 + index / perAddress}, {@code FIRST_PORT + index %
     *                 perAddress}), so that several calls never bind the same one
     * @param echoFirst whether each connection makes one {@code echo} request (and waits for its reply) once welcomed
     * @param progress  told every 10 000 connections
     */
    static IdleConnections open(int port, String tenant, String token, int first, int count, int perAddress,
            int concurrency, boolean echoFirst, IntConsumer progress) throws InterruptedException, UnknownHostException {
        if (perAddress < 1 || perAddress > MAX_PER_ADDRESS) {
            throw new IllegalArgumentException("connections per address must be 1 to " + MAX_PER_ADDRESS);
        }
        ClientLoop loop = ClientLoop.create("idle-connections", 2);
        List<TroupeClient> clients = new ArrayList<>(count);
        Semaphore handshakes = new Semaphore(concurrency);
        AtomicLong failures = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        long start = System.nanoTime();
        for (int i = first; i < first + count; i++) {
            int address = 2 + i / perAddress;
            InetAddress from = InetAddress.getByAddress(new byte[] {127, 0, (byte) (address >> 8), (byte) address});
            InetSocketAddress local = new InetSocketAddress(from, FIRST_PORT + i % perAddress);
            TroupeClient client = TroupeClient.builder().port(port).localAddress(local).tenant(tenant).token(token)
                    .loop(loop).reconnect(false).connectTimeout(Duration.ofSeconds(60))
                    .closeTimeout(Duration.ofSeconds(1)).build();
            clients.add(client);
            handshakes.acquire();
            CompletableFuture<?> ready = client.connect();
            if (echoFirst) {
                ready = ready.thenCompose(session -> client.request("echo", ECHO_PAYLOAD));
            }
            ready.whenComplete((done, failure) -> {
                if (failure != null) {
                    failures.incrementAndGet();
                    firstFailure.compareAndSet(null, failure);
                }
                handshakes.release();
            });
            if ((i + 1 - first) % 10_000 == 0) {
                progress.accept(i + 1);
            }
        }
        if (!handshakes.tryAcquire(concurrency, 120, TimeUnit.SECONDS)) {
            failures.addAndGet(concurrency - handshakes.availablePermits());
        }
        long elapsed = System.nanoTime() - start;
        return new IdleConnections(loop, clients, failures.get(), firstFailure.get(), elapsed);
    }

    int opened() {
        return (int) (clients.size() - failures);
    }

    long failures() {
        return failures;
    }

    Throwable firstFailure() {
        return firstFailure;
    }

    /** From the first connect to the last WELCOME (or failure). */
    long elapsedNanos() {
        return elapsedNanos;
    }

    /** Closes every connection at once by closing the loop (no BYE: the server sees them end). */
    @Override
    public void close() {
        loop.close();
    }
}
