package io.troupe.host.monitor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;

/**
 * An actor that blocks its worker on a latch until the test releases it (for at most 20 s, so that
 * a failing test cannot hang a worker forever), then replies {@code released}.
 *
 * <p><b>Threading:</b> {@link #release} and the latches from any thread; {@code receive} on the
 * actor's turn.
 */
final class Blocker implements Actor {

    final CountDownLatch entered = new CountDownLatch(1);
    /** The worker that runs the blocking turn; set before {@link #entered} opens. */
    volatile Thread runner;
    private final CountDownLatch release = new CountDownLatch(1);

    void release() {
        release.countDown();
    }

    boolean isReleased() {
        return release.getCount() == 0;
    }

    @Override
    public void receive(ActorContext ctx, Object message) throws InterruptedException {
        runner = Thread.currentThread();
        entered.countDown();
        if (release.await(20, TimeUnit.SECONDS)) {
            ctx.reply("released");
        } else {
            ctx.reply("never released");
        }
    }
}
