package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;

/**
 * Asks the counter sample ({@code counter.add}, {@code counter.get}, {@code counter.version}) in a
 * given tenant, with bounded waits.
 *
 * <p><b>Threading:</b> stateless; blocks the calling thread only. Runs inside the framework.
 */
final class Counters {

    static final String ADD = "counter.add";
    static final String GET = "counter.get";
    static final String VERSION = "counter.version";
    /** How long a runtime ask may wait for the counter (it waits in the mailbox during a swap). */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);
    /** How long a deployment may take to show in {@code counter.version}. */
    static final Duration DEPLOY_TIMEOUT = Duration.ofSeconds(20);

    private static final long VERSION_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Counters() {
    }

    /** Asks {@code name} with {@code text} and returns the reply as text; failures propagate. */
    static String ask(TroupeRuntime runtime, String tenant, String name, String text)
            throws ExecutionException, InterruptedException, TimeoutException {
        Object reply = runtime.ask(tenant, Message.of(name, text), ASK_TIMEOUT).toCompletableFuture()
                .get(ASK_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        if (!(reply instanceof byte[] bytes)) {
            throw new AssertionError(name + " replied " + reply + " instead of bytes");
        }
        return new String(bytes, UTF_8);
    }

    static long get(TroupeRuntime runtime, String tenant) throws Exception {
        return Long.parseLong(ask(runtime, tenant, GET, ""));
    }

    static long add(TroupeRuntime runtime, String tenant, long amount) throws Exception {
        return Long.parseLong(ask(runtime, tenant, ADD, Long.toString(amount)));
    }

    static String version(TroupeRuntime runtime, String tenant) throws Exception {
        return ask(runtime, tenant, VERSION, "");
    }

    /**
     * Asks {@code counter.version} until it answers {@code expected} (a request failing meanwhile, as
     * with {@code no.handler} before the first install, counts as not yet); fails after
     * {@link #DEPLOY_TIMEOUT}. Returns how long it took.
     */
    static Duration awaitVersion(TroupeRuntime runtime, String tenant, String expected) throws InterruptedException {
        long begin = System.nanoTime();
        long deadline = begin + DEPLOY_TIMEOUT.toNanos();
        String last = "nothing yet";
        while (true) {
            try {
                last = version(runtime, tenant);
                if (last.equals(expected)) {
                    return Duration.ofNanos(System.nanoTime() - begin);
                }
            } catch (ExecutionException e) {
                last = String.valueOf(e.getCause());
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e.toString();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("counter.version in tenant '" + tenant + "' did not answer " + expected
                        + " within " + DEPLOY_TIMEOUT + "; last answer: " + last);
            }
            LockSupport.parkNanos(VERSION_POLL_NANOS);
        }
    }
}
