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
 * <p>Redirects are followed, with the request sent again to the new node when the old one moved the
 * tenant before answering. Reconnection after a lost connection is on only for an idempotent request
 * ({@code --idempotent}), which is then sent again; any other request fails then (exit 3).
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

    /**
     * @param idempotent whether the request may be sent again after a lost connection
     * @return the exit status
     */
    int run(String name, byte[] content, boolean idempotent) throws InterruptedException {
        TroupeClient.Builder builder = target.clientBuilder().reconnect(idempotent).closeTimeout(CLOSE_TIMEOUT);
        if (idempotent) {
            builder.idempotent(name);
        }
        try (TroupeClient client = builder.build()) {
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
            throw new ExecutionException(
                    new TimeoutException("no answer within " + target.timeout().toMillis() + " ms"));
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
