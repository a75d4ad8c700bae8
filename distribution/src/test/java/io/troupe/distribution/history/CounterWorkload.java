package io.troupe.distribution.history;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

import io.troupe.client.ConnectionListener;
import io.troupe.client.TroupeClient;

/**
 * Clients of the {@code counter} sample that record every operation in a {@link History}: for each tenant,
 * a few processes, each a {@link TroupeClient} with a sender thread keeping up to {@code window} requests in
 * flight, paced to a rate or as fast as replies come: {@value CounterChecker#ADD} {@code 1}, and every
 * {@code readEvery}-th request a {@value CounterChecker#GET}.
 *
 * <p>A sender whose client has no session waits for one instead of sending (the client would refuse the
 * request at once); the pace starts again from then. The figures ({@link #tally()}) count every request by
 * outcome, so that a test can require none failed over a stretch (a hot swap) while the history checker
 * judges the values.
 *
 * <p><b>Threading:</b> {@link #start}, {@link #stop} and {@link #close} from the test thread; each process has a
 * sender thread; replies are recorded on the client loop's thread.
 */
public final class CounterWorkload implements AutoCloseable {

    private static final byte[] ONE = "1".getBytes(UTF_8);
    private static final byte[] NOTHING = new byte[0];
    private static final long NOT_CONNECTED_PAUSE = TimeUnit.MILLISECONDS.toNanos(10);
    /** A pace further behind than this starts again from now (after a pause, a kill): no burst to catch up. */
    private static final long MAX_BEHIND = TimeUnit.SECONDS.toNanos(1);

    /**
     * How the load runs.
     *
     * @param processesPerTenant clients per tenant
     * @param window             requests in flight per client, at most
     * @param ratePerProcess     requests per second per client; 0: as fast as the window allows
     * @param readEvery          one request in this many is a read; 0: no reads
     */
    public record Settings(int processesPerTenant, int window, double ratePerProcess, int readEvery) {
    }

    private final History history;
    private final Settings settings;
    private final LongConsumer latencies;
    private final List<Process> processes = new ArrayList<>();
    private final OutcomeCounts counts = new OutcomeCounts();
    private volatile boolean running = true;

    private CounterWorkload(History history, Settings settings, LongConsumer latencies) {
        this.history = history;
        this.settings = settings;
        this.latencies = latencies;
    }

    /**
     * Connects the clients of every tenant in {@code tokens} (tenant to token) and starts sending.
     *
     * @param latencies given the nanoseconds from send to reply of each acknowledged request (on the loop
     *                  thread), or null
     */
    public static CounterWorkload start(History history, TenantConnector connector, Map<String, String> tokens,
            Settings settings, LongConsumer latencies) throws InterruptedException {
        CounterWorkload load = new CounterWorkload(history, settings, latencies);
        try {
            int index = 0;
            for (Map.Entry<String, String> tenant : tokens.entrySet()) {
                for (int i = 0; i < settings.processesPerTenant(); i++) {
                    TroupeClient client = connector.connect(tenant.getKey(), tenant.getValue(), index++,
                            new ConnectionListener() { }, null);
                    load.processes.add(load.new Process(history.newProcess(), tenant.getKey(), client,
                            connector.requestTimeout()));
                }
            }
        } catch (InterruptedException | RuntimeException | AssertionError e) {
            load.close();
            throw e;
        }
        load.processes.forEach(process -> process.thread.start());
        return load;
    }

    /** The requests so far, by outcome. */
    public Tally tally() {
        return counts.tally();
    }

    /**
     * Stops sending and waits until every request sent has its outcome; the clients stay open.
     *
     * @throws AssertionError when a sender does not finish, or requests stay without an outcome, within the
     *                        request timeout and 10 s
     */
    public void stop() throws InterruptedException {
        running = false;
        for (Process process : processes) {
            process.thread.join(process.timeout.toMillis() + 10_000);
            if (process.thread.isAlive() || process.stuck != null) {
                throw new AssertionError(process.thread.getName() + ": " + (process.stuck == null
                        ? "did not finish" : process.stuck) + "; " + tally());
            }
        }
    }

    /** Stops sending and closes the clients (what is still in flight then ends unknown in the history). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        processes.forEach(process -> process.client.close());
        for (Process process : processes) {
            if (process.thread.isAlive()) {
                process.thread.join(process.timeout.toMillis() + 10_000);
            }
        }
    }

    @Override
    public String toString() {
        return "counter load of " + processes.size() + " clients: " + tally();
    }

    /**
     * One client and its sender. <b>Threading:</b> the sender thread sends; the loop thread completes and
     * releases the window.
     */
    private final class Process implements Runnable {

        final Thread thread;
        final TroupeClient client;
        final Duration timeout;
        private final int id;
        private final String tenant;
        private final Semaphore window;
        volatile String stuck;

        Process(int id, String tenant, TroupeClient client, Duration timeout) {
            this.id = id;
            this.tenant = tenant;
            this.client = client;
            this.timeout = timeout;
            this.window = new Semaphore(settings.window());
            this.thread = new Thread(this, "counter-p" + id + "-" + tenant);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            long interval = settings.ratePerProcess() > 0 ? (long) (1e9 / settings.ratePerProcess()) : 0;
            long next = System.nanoTime();
            long sent = 0;
            try {
                while (running) {
                    if (!client.isConnected()) {
                        LockSupport.parkNanos(NOT_CONNECTED_PAUSE);
                        next = System.nanoTime();
                        continue;
                    }
                    if (interval > 0) {
                        next += interval;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        } else if (-wait > MAX_BEHIND) {
                            next = System.nanoTime();
                        }
                    }
                    if (!window.tryAcquire(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                        stuck = "no reply freed the window within " + timeout.plusSeconds(10);
                        return;
                    }
                    boolean read = settings.readEvery() > 0 && ++sent % settings.readEvery() == 0;
                    send(read);
                }
                if (!window.tryAcquire(settings.window(), timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                    stuck = "requests without an outcome " + timeout.plusSeconds(10) + " after the load stopped";
                }
            } catch (InterruptedException e) {
                stuck = "interrupted";
                Thread.currentThread().interrupt();
            }
        }

        private void send(boolean read) {
            String f = read ? CounterChecker.GET : CounterChecker.ADD;
            long op = history.invoke(id, f, tenant, read ? "" : "1");
            long sentAt = System.nanoTime();
            client.request(f, read ? NOTHING : ONE).whenComplete((reply, error) -> {
                try {
                    if (error == null) {
                        history.ok(op, new String(reply, UTF_8));
                        counts.acknowledged();
                        if (latencies != null) {
                            latencies.accept(System.nanoTime() - sentAt);
                        }
                    } else {
                        counts.problem(history, op, error, f + " by p" + id + " (" + tenant + ")");
                    }
                } finally {
                    window.release();
                }
            });
        }
    }

    /** Reads each tenant's counter once on a client of its own, as the history's last word on it. */
    public static void finalReads(History history, TenantConnector connector, Map<String, String> tokens)
            throws Exception {
        int process = history.newProcess();
        for (Map.Entry<String, String> tenant : tokens.entrySet()) {
            try (TroupeClient client = connector.connect(tenant.getKey(), tenant.getValue(), 0,
                    new ConnectionListener() { }, null)) {
                long op = history.invoke(process, CounterChecker.GET, tenant.getKey(), "");
                try {
                    byte[] reply = client.request(CounterChecker.GET, NOTHING)
                            .get(connector.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
                    history.ok(op, new String(reply, UTF_8));
                } catch (ExecutionException | TimeoutException e) {
                    ClientOutcome.of(e instanceof ExecutionException ? e.getCause() : e).record(history, op);
                    throw new AssertionError("the final read of " + tenant.getKey() + "'s counter failed", e);
                }
            }
        }
    }
}
