package io.troupe.client;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Bounded waits on futures: a test never hangs and never sleeps. */
public final class Await {

    /** Long enough for any loopback exchange on a loaded machine. */
    public static final long SECONDS = 10;

    private Await() {
    }

    /** The future's value, failing the test if it failed or took more than 10 s. */
    public static <T> T result(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get(SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected a value, got " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + SECONDS + " s");
        }
    }

    /** The exception the future failed with, failing the test if it succeeded or took more than 10 s. */
    public static Throwable failure(CompletableFuture<?> future) throws InterruptedException {
        try {
            Object value = future.get(SECONDS, TimeUnit.SECONDS);
            return fail("expected a failure, got " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + SECONDS + " s");
        }
    }
}
