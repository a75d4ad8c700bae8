package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.troupe.client.ClientLoop;
import io.troupe.client.ConnectionListener;
import io.troupe.client.TroupeClient;

/**
 * A steady load on the tenants of a cluster: for each tenant, a few {@link TroupeClient}s given every
 * node's address (each client's list rotated, so that the first HELLOs reach different nodes), each
 * with a sender thread keeping up to {@code window} requests in flight, continuously: three
 * {@code counter.add 1} for one {@code echo} (marked idempotent, with {@code counter.get}). Every answer
 * goes into the tenant's {@link TenantLedger}.
 *
 * <p>The clients follow redirects and reconnect on their own: the load never helps them. A sender whose
 * request was refused because the client was not connected waits until it is before sending again (the
 * client fails such requests at once, and a sender would otherwise spin).
 *
 * <p><b>Threading:</b> {@link #start}, {@link #awaitProgress}, {@link #stop} and {@link #close} from the
 * test thread; each client has a sender thread; answers are recorded on the clients' loop thread.
 */
final class ClusterLoad implements AutoCloseable {

    /** Longer than the server's request timeout (30 s), so that the server answers first. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration CONNECTED = Duration.ofSeconds(60);
    private static final Duration JOIN = REQUEST_TIMEOUT.plusSeconds(20);
    private static final byte[] ONE = "1".getBytes(UTF_8);
    /** One request in this many is an echo. */
    private static final int ECHO_EVERY = 4;
    /**
     * The least time between two requests of a sender: a steady load (40 requests/s per client) that
     * leaves the two cores room for the nodes' own work (a node starting, Hazelcast moving partitions).
     */
    private static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    private final Map<String, TenantLedger> ledgers;
    private final List<Sender> senders = new ArrayList<>();
    private volatile boolean running = true;

    private ClusterLoad(Map<String, TenantLedger> ledgers) {
        this.ledgers = ledgers;
    }

    /**
     * Connects {@code clientsPerTenant} clients of each tenant of {@code ledgers} (on {@code loop}, to
     * {@code servers}) and starts sending.
     */
    static ClusterLoad start(ClientLoop loop, Map<String, TenantLedger> ledgers, List<String> servers,
            int clientsPerTenant, int window) throws Exception {
        ClusterLoad load = new ClusterLoad(ledgers);
        try {
            int index = 0;
            for (TenantLedger ledger : ledgers.values()) {
                ledger.newLoad();
                for (int i = 0; i < clientsPerTenant; i++) {
                    List<String> seeds = rotate(servers, index++);
                    ServerTracker tracker = new ServerTracker(seeds.get(0));
                    TroupeClient client = connect(loop, ledger.tenant(), seeds, tracker);
                    load.senders.add(load.new Sender(client, tracker, ledger, i, window));
                }
            }
        } catch (Exception | AssertionError e) {
            load.close();
            throw e;
        }
        load.senders.forEach(sender -> sender.thread.start());
        return load;
    }

    /**
     * A connected client of {@code tenant}, trying {@code servers} in turn: HELLO is retried (every 100 ms)
     * until a node welcomes it (the tenant file may still be on its way to that node) or
     * {@link #CONNECTED} has passed.
     */
    static TroupeClient connect(ClientLoop loop, String tenant, List<String> servers) throws Exception {
        return connect(loop, tenant, servers, new ConnectionListener() { });
    }

    private static TroupeClient connect(ClientLoop loop, String tenant, List<String> servers,
            ConnectionListener listener) throws Exception {
        long deadline = System.nanoTime() + CONNECTED.toNanos();
        while (true) {
            TroupeClient client = TroupeClient.builder().servers(servers.toArray(String[]::new)).tenant(tenant)
                    .token(TestTenants.TOKEN).idempotent("echo", "counter.get").requestTimeout(REQUEST_TIMEOUT)
                    .reconnectBackoff(Duration.ofMillis(50), Duration.ofSeconds(1)).connectionListener(listener)
                    // The default redirect bound (8): right after a node is killed the survivors still name it
                    // as its tenants' owner for a moment; the client takes a redirect to an address it could not
                    // reach as one naming no owner and backs off, so the bound is not spent in that moment
                    .loop(loop).build();
            try {
                client.connect().get(CONNECTED.toSeconds(), TimeUnit.SECONDS);
                return client;
            } catch (ExecutionException | TimeoutException e) {
                client.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("tenant '" + tenant + "' not served by " + servers + " within "
                            + CONNECTED, e.getCause() == null ? e : e.getCause());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    /** {@code servers} starting at {@code index} (mod its size). */
    static List<String> rotate(List<String> servers, int index) {
        List<String> rotated = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            rotated.add(servers.get((index + i) % servers.size()));
        }
        return rotated;
    }

    /** The acknowledged adds of each tenant now. */
    Map<String, Long> acked() {
        Map<String, Long> acked = new HashMap<>();
        ledgers.forEach((tenant, ledger) -> acked.put(tenant, ledger.acked()));
        return acked;
    }

    /**
     * Waits until every tenant has {@code more} adds acknowledged beyond {@code from} (or a request of
     * a kind {@code failuresAllowed} does not allow failed); fails after {@code timeout}.
     */
    void awaitProgress(String what, Map<String, Long> from, long more, Duration timeout, boolean failuresAllowed) {
        BooleanSupplier progressed = () -> ledgers.values().stream()
                .allMatch(ledger -> ledger.acked() >= from.getOrDefault(ledger.tenant(), 0L) + more);
        BooleanSupplier broken = () -> ledgers.values().stream().anyMatch(ledger -> ledger.failedCount() > 0
                || !failuresAllowed && ledger.unknown() + ledger.refused() > 0);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!progressed.getAsBoolean() && !broken.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout + ": " + what + "; " + this);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** Stops sending and waits until every request sent has its answer (or failure); the clients stay open. */
    void stop() throws InterruptedException {
        running = false;
        for (Sender sender : senders) {
            sender.thread.join(JOIN.toMillis());
            if (sender.thread.isAlive()) {
                throw new AssertionError(sender.thread.getName() + " did not finish within " + JOIN + "; " + this);
            }
            if (sender.stuck != null) {
                throw new AssertionError(sender.stuck + "; " + this);
            }
        }
    }

    /** Stops sending and closes the clients (which fails what is still in flight). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Sender sender : senders) {
            sender.client.close();
        }
        for (Sender sender : senders) {
            if (sender.thread.isAlive()) {
                sender.thread.join(JOIN.toMillis());
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("load:");
        ledgers.values().forEach(ledger -> text.append("\n  ").append(ledger));
        return text.toString();
    }

    /**
     * The node a client talks to, as far as its {@link ConnectionListener} tells: its first server, then
     * where each redirect sent it; unknown ("?") after a loss, until a redirect names one.
     *
     * <p><b>Threading:</b> written on the client's loop thread, read on it too (when an answer is
     * recorded); volatile for the test thread's messages.
     */
    private static final class ServerTracker implements ConnectionListener {

        volatile String current;

        ServerTracker(String first) {
            this.current = first;
        }

        @Override
        public void redirected(String from, String to, Duration delay) {
            current = to;
        }

        @Override
        public void reconnecting(int attempt, Duration delay, Throwable cause) {
            current = "?";
        }
    }

    /**
     * A client and its sender thread, with its window of requests in flight. <b>Threading:</b> the sender
     * thread sends; the client's loop thread records the answers and releases the window.
     */
    private final class Sender implements Runnable {

        final Thread thread;
        final TroupeClient client;
        private final ServerTracker server;
        private final TenantLedger ledger;
        private final Semaphore window;
        private final int size;
        private volatile boolean refused;
        volatile String stuck;

        Sender(TroupeClient client, ServerTracker server, TenantLedger ledger, int index, int window) {
            this.client = client;
            this.server = server;
            this.ledger = ledger;
            this.size = window;
            this.window = new Semaphore(window);
            this.thread = new Thread(this, "cluster-load-" + ledger.tenant() + "-" + index);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            long sequence = 0;
            long next = System.nanoTime();
            try {
                while (running) {
                    if (refused) {
                        awaitConnected();
                        refused = false;
                    }
                    long now = System.nanoTime();
                    if (next - now > 0) {
                        LockSupport.parkNanos(next - now);
                        continue;
                    }
                    next = Math.max(next, now - PACE_NANOS) + PACE_NANOS;
                    if (!window.tryAcquire(JOIN.toMillis(), TimeUnit.MILLISECONDS)) {
                        stuck = thread.getName() + ": no answer freed the window within " + JOIN;
                        return;
                    }
                    if (++sequence % ECHO_EVERY == 0) {
                        String content = thread.getName() + "#" + sequence;
                        client.request("echo", content.getBytes(UTF_8)).whenComplete((reply, error) -> {
                            if (error == null) {
                                String said = new String(reply, UTF_8);
                                ledger.echoed(said.equals(content), "'" + said + "' to '" + content + "'");
                            } else {
                                note(ledger.failed("echo", error, true));
                            }
                            window.release();
                        });
                    } else {
                        ledger.adding();
                        client.request("counter.add", ONE).whenComplete((reply, error) -> {
                            if (error == null) {
                                ledger.added(Long.parseLong(new String(reply, UTF_8)), server.current);
                            } else {
                                note(ledger.failed("counter.add", error, false));
                            }
                            window.release();
                        });
                    }
                }
                if (!window.tryAcquire(size, JOIN.toMillis(), TimeUnit.MILLISECONDS)) {
                    stuck = thread.getName() + ": requests unanswered " + JOIN + " after the load stopped";
                }
            } catch (InterruptedException e) {
                stuck = thread.getName() + " interrupted";
                Thread.currentThread().interrupt();
            }
        }

        private void note(TenantLedger.Outcome outcome) {
            if (outcome == TenantLedger.Outcome.REFUSED) {
                refused = true;
            }
        }

        private void awaitConnected() {
            long deadline = System.nanoTime() + CONNECTED.toNanos();
            while (running && !client.isConnected() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        }
    }
}
