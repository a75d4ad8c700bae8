package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Message;

/**
 * A stateless handler that the test registers as poolable: it answers every request with its
 * content, except {@value #BLOCK}, on which it blocks its worker in {@code receive} for
 * {@value #BLOCK_SECONDS} s (the plugin the issue describes) before answering.
 *
 * <p><b>Threading:</b> {@link #create} from any runtime thread; the actors it makes run on workers;
 * {@link #unblock} from any thread, to end the block early when a test fails.
 */
final class BlockingPoolable implements ActorFactory {

    static final String BLOCK = "block";
    static final int BLOCK_SECONDS = 10;

    /** Counts down when a turn begins blocking. */
    final CountDownLatch blocking = new CountDownLatch(1);
    private final CountDownLatch unblocked = new CountDownLatch(1);

    @Override
    public Actor create() {
        return (ctx, message) -> {
            Message request = (Message) message;
            if (BLOCK.equals(request.text())) {
                blocking.countDown();
                unblocked.await(BLOCK_SECONDS, TimeUnit.SECONDS);
            }
            ctx.reply(request.text().getBytes(UTF_8));
        };
    }

    void unblock() {
        unblocked.countDown();
    }
}
