package io.troupe.client.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * {@code request NAME CONTENT}: one connection, one request, the reply's bytes on standard output
 * followed by a newline (always, terminal or not, so that shell output stays on its own line; a
 * script that needs the exact bytes drops the last one).
 *
 * <p><b>Threading:</b> one run per instance, on the caller's thread.
 */
final class RequestCommand {

    /** The wait beyond the client's own timeouts, which fire first. */
    private static final Duration SLACK = Duration.ofSeconds(5);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private final ServerTarget target;
    private final PrintStream out;
    private final PrintStream err;

    RequestCommand(ServerTarget target, PrintStream out, PrintStream err) {
        this.target = target;
        this.out = out;
        this.err = err;
    }

    /** @return the exit status */
    int run(String name, byte[] content) throws InterruptedException {
        try (TroupeClient client = target.clientBuilder().reconnect(false).closeTimeout(CLOSE_TIMEOUT).build()) {
            try {
                await(client.connect());
            } catch (ExecutionException e) {
                return failed("cannot connect to " + target.address(), e.getCause());
            }
            try {
                byte[] reply = await(client.request(name, content));
                out.write(reply);
                out.write('\n');
                out.flush();
                return Main.EXIT_OK;
            } catch (ExecutionException e) {
                return failed("no reply from " + target.address(), e.getCause());
            } catch (IOException e) {
                err.println("troupe-client: cannot write the reply: " + e.getMessage());
                return Main.EXIT_FAILURE;
            }
        }
    }

    private <T> T await(CompletableFuture<T> future) throws ExecutionException, InterruptedException {
        try {
            return future.get(target.timeout().plus(SLACK).toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new ExecutionException(new TimeoutException("no answer within " + target.timeout().toMillis() + " ms"));
        }
    }

    private int failed(String what, Throwable cause) {
        if (cause instanceof TroupeClientException error) {
            err.println(Main.describe(error));
            return Main.EXIT_SERVER_ERROR;
        }
        if (cause instanceof IOException || cause instanceof TimeoutException) {
            err.println("troupe-client: " + what + ": " + cause.getMessage());
            return Main.EXIT_UNREACHABLE;
        }
        err.println("troupe-client: " + what + ": " + cause);
        return Main.EXIT_FAILURE;
    }
}
