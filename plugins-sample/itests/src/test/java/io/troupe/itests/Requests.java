package io.troupe.itests;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.troupe.api.Message;
import io.troupe.api.TroupeRuntime;
import io.troupe.testsupport.Await;

/**
 * Asks handlers through the {@link TroupeRuntime} as a client would, with bounded waits.
 *
 * <p><b>Threading:</b> stateless; blocks the calling test thread only. Runs inside the framework.
 */
final class Requests {

    /** How long the runtime may take to answer one request. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    private Requests() {
    }

    /** Asks the handler of {@code message} in the default tenant and waits for the reply. */
    static Object ask(TroupeRuntime runtime, Message message)
            throws ExecutionException, InterruptedException, TimeoutException {
        return ask(runtime, TroupeRuntime.DEFAULT_TENANT, message);
    }

    /** Asks as {@code tenant}. */
    static Object ask(TroupeRuntime runtime, String tenant, Message message)
            throws ExecutionException, InterruptedException, TimeoutException {
        return await(runtime.ask(tenant, message, ASK_TIMEOUT));
    }

    /** Waits for {@code reply} a little longer than the ask's own timeout, so that that one fires first. */
    static Object await(CompletionStage<Object> reply)
            throws ExecutionException, InterruptedException, TimeoutException {
        return reply.toCompletableFuture().get(ASK_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }

    /** Waits until the runtime serves {@code messageName}: it tracks handler services asynchronously. */
    static void awaitHandler(TroupeRuntime runtime, String messageName) {
        Await.until("the runtime serves " + messageName,
                () -> runtime.handlerNames().contains(messageName),
                () -> "handlers " + runtime.handlerNames());
    }
}
