package io.troupe.distribution.history;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.troupe.client.ConnectionListener;
import io.troupe.client.TroupeClient;

/**
 * Clients that come and go: every {@code every}, a new client of the next tenant connects, adds 1 to the
 * tenant's counter a few times and reads it (each request recorded in the {@link History} under a process of
 * its own), then disconnects. A visit that cannot connect (the server is down) is counted and skipped.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} from the test thread; one thread of its own visits.
 */
public final class ChurnWorkload implements AutoCloseable {

    private static final byte[] ONE = "1".getBytes(UTF_8);

    private final History history;
    private final TenantConnector connector;
    private final List<Map.Entry<String, String>> tenants;
    private final Duration every;
    private final int adds;
    private final Thread thread;
    private final OutcomeCounts counts = new OutcomeCounts();
    private final AtomicLong visits = new AtomicLong();
    private final AtomicLong unreachable = new AtomicLong();
    private volatile boolean running = true;

    private ChurnWorkload(History history, TenantConnector connector, Map<String, String> tokens, Duration every,
            int adds) {
        this.history = history;
        this.connector = connector;
        this.tenants = new ArrayList<>(tokens.entrySet());
        this.every = every;
        this.adds = adds;
        this.thread = new Thread(this::visit, "churn");
        this.thread.setDaemon(true);
    }

    /** Starts visiting the tenants of {@code tokens} (tenant to token) in turn, one every {@code every}. */
    public static ChurnWorkload start(History history, TenantConnector connector, Map<String, String> tokens,
            Duration every, int adds) {
        ChurnWorkload churn = new ChurnWorkload(history, connector, tokens, every, adds);
        churn.thread.start();
        return churn;
    }

    public Tally tally() {
        return counts.tally();
    }

    @Override
    public String toString() {
        return "churn: " + visits + " visits (" + unreachable + " could not connect), requests " + tally();
    }

    /** Stops after the current visit, waiting for it. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(connector.requestTimeout().toMillis() * (adds + 2) + 70_000);
    }

    private void visit() {
        long next = System.nanoTime();
        int turn = 0;
        while (running) {
            next += every.toNanos();
            LockSupport.parkNanos(next - System.nanoTime());
            Map.Entry<String, String> tenant = tenants.get(turn++ % tenants.size());
            TroupeClient client;
            try {
                client = connector.connect(tenant.getKey(), tenant.getValue(), turn, new ConnectionListener() { },
                        null);
            } catch (AssertionError e) {
                unreachable.incrementAndGet();
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try (client) {
                int process = history.newProcess();
                for (int i = 0; i <= adds; i++) {
                    request(client, process, tenant.getKey(), i < adds ? CounterChecker.ADD : CounterChecker.GET);
                }
                visits.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void request(TroupeClient client, int process, String tenant, String f) throws InterruptedException {
        boolean add = f.equals(CounterChecker.ADD);
        long op = history.invoke(process, f, tenant, add ? "1" : "");
        try {
            byte[] reply = client.request(f, add ? ONE : new byte[0])
                    .get(connector.requestTimeout().toMillis() + 5_000, TimeUnit.MILLISECONDS);
            history.ok(op, new String(reply, UTF_8));
            counts.acknowledged();
        } catch (ExecutionException e) {
            counts.problem(history, op, e.getCause(), "churn " + f + " by p" + process + " (" + tenant + ")");
        } catch (TimeoutException e) {
            counts.problem(history, op, e, "churn " + f + " by p" + process + " (" + tenant + ")");
        }
    }
}
