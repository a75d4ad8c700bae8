package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;

/**
 * Several sender threads, each asking {@code counter.add 1} in one tenant in a loop without pause,
 * one request at a time (each waits for its reply before the next), until stopped. Each sender
 * checks that its replies, the running totals, strictly increase, and records every request's
 * latency under the {@link Phase} in which the request was sent (none while warming up).
 *
 * <p><b>Threading:</b> {@link #start}, {@link #phase}, {@link #stop} and {@link #close} from the test thread;
 * each sender owns its counts until {@link #stop} joins it, which publishes them.
 */
final class CounterLoad implements AutoCloseable {

    private static final Duration JOIN_TIMEOUT = Counters.ASK_TIMEOUT.plusSeconds(10);
    private static final int MAX_REPORTED = 10;

    /** What the senders saw. */
    record Result(long adds, long failed, Map<String, Long> failures, List<String> orderViolations,
                  Latencies steady, Latencies swapping) {

        /** The failures (how many of each kind) and order violations, for an assertion message. */
        String problems() {
            return failed + " adds failed " + failures + "; order violations " + orderViolations;
        }
    }

    private final TroupeRuntime runtime;
    private final String tenant;
    private final List<Sender> senders = new ArrayList<>();
    private volatile boolean running = true;
    private volatile Phase phase = Phase.WARM_UP;

    /** What the runtime is going through while a request is sent. */
    enum Phase {
        /** The load has just started (class loading, JIT): latencies are not recorded. */
        WARM_UP,
        /** Nothing but the load. */
        STEADY,
        /** The plugin is being swapped. */
        SWAPS
    }

    private CounterLoad(TroupeRuntime runtime, String tenant) {
        this.runtime = runtime;
        this.tenant = tenant;
    }

    /** Starts {@code senderCount} senders in {@code tenant}, warming up. */
    static CounterLoad start(TroupeRuntime runtime, String tenant, int senderCount) {
        CounterLoad load = new CounterLoad(runtime, tenant);
        for (int i = 0; i < senderCount; i++) {
            Sender sender = load.new Sender(i);
            load.senders.add(sender);
            sender.thread.start();
        }
        return load;
    }

    /** Requests sent from now on count as sent in {@code phase}. */
    void phase(Phase phase) {
        this.phase = phase;
    }

    /** Stops the senders, waits for each to get its last reply, and returns what they saw. */
    Result stop() throws InterruptedException {
        running = false;
        long adds = 0;
        long failed = 0;
        Map<String, Long> failures = new TreeMap<>();
        List<String> orderViolations = new ArrayList<>();
        List<Latencies> steady = new ArrayList<>();
        List<Latencies> swaps = new ArrayList<>();
        for (Sender sender : senders) {
            sender.thread.join(JOIN_TIMEOUT.toMillis());
            if (sender.thread.isAlive()) {
                throw new AssertionError(sender.thread.getName() + " did not stop within " + JOIN_TIMEOUT);
            }
            adds += sender.adds;
            failed += sender.failed;
            sender.failures.forEach((kind, count) -> failures.merge(kind, count, Long::sum));
            orderViolations.addAll(sender.orderViolations);
            steady.add(sender.steady);
            swaps.add(sender.swapping);
        }
        return new Result(adds, failed, failures, orderViolations, Latencies.merge(steady), Latencies.merge(swaps));
    }

    /** Stops the senders if {@link #stop} did not (a test that failed half-way), without judging them. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Sender sender : senders) {
            sender.thread.join(JOIN_TIMEOUT.toMillis());
        }
    }

    /** One sender; its fields are confined to its thread until {@link #stop} joined it. */
    private final class Sender implements Runnable {

        final Thread thread;
        final Latencies steady = new Latencies();
        final Latencies swapping = new Latencies();
        /** How many adds failed, by kind (the exception with the tenant-specific detail); a few kinds at most. */
        final Map<String, Long> failures = new TreeMap<>();
        final List<String> orderViolations = new ArrayList<>();
        long adds;
        long failed;
        private long lastTotal = Long.MIN_VALUE;

        Sender(int index) {
            thread = new Thread(this, "counter-load-" + tenant + "-" + index);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                Phase sentIn = phase;
                long begin = System.nanoTime();
                try {
                    Object reply = runtime.ask(tenant, Message.of(Counters.ADD, "1"), Counters.ASK_TIMEOUT)
                            .toCompletableFuture()
                            .get(Counters.ASK_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                    long latency = System.nanoTime() - begin;
                    if (sentIn != Phase.WARM_UP) {
                        (sentIn == Phase.SWAPS ? swapping : steady).record(latency);
                    }
                    adds++;
                    checkOrder(reply);
                } catch (ExecutionException e) {
                    fail(String.valueOf(e.getCause()));
                } catch (InterruptedException e) {
                    fail("interrupted");
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    fail(e.toString());
                }
            }
        }

        private void checkOrder(Object reply) {
            long total;
            try {
                total = Long.parseLong(new String((byte[]) reply, UTF_8));
            } catch (RuntimeException e) {
                fail("unreadable reply " + reply + ": " + e);
                return;
            }
            if (total <= lastTotal && orderViolations.size() < MAX_REPORTED) {
                orderViolations.add(thread.getName() + ": total " + total + " after " + lastTotal);
            }
            lastTotal = total;
        }

        private void fail(String why) {
            failed++;
            if (failures.size() < MAX_REPORTED || failures.containsKey(why)) {
                failures.merge(why, 1L, Long::sum);
            }
        }
    }
}
