package io.troupe.runtime;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.Message;

/**
 * The actors of the embedded runtime's tests, as a plugin author writes them.
 *
 * <p><b>Threading:</b> each actor runs on Troupe's workers, one message at a time.
 */
final class Actors {

    private Actors() {
    }

    /** Replies {@code "<greeting> <text>"} to a {@link Message}. */
    static ActorFactory greeter(String greeting) {
        return () -> (ctx, message) -> ctx.reply(greeting + " " + ((Message) message).text());
    }

    /**
     * Counts {@code inReceive} down on each message, then waits (at most 10 s) for {@code gate} and replies
     * with the message's text; counts {@code stopped} down in {@code postStop}.
     */
    static ActorFactory gated(CountDownLatch inReceive, CountDownLatch gate, CountDownLatch stopped) {
        return () -> new Actor() {
            @Override
            public void receive(ActorContext ctx, Object message) throws InterruptedException {
                inReceive.countDown();
                if (!gate.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never opened the gate");
                }
                ctx.reply(((Message) message).text());
            }

            @Override
            public void postStop(ActorContext ctx) {
                stopped.countDown();
            }
        };
    }

    /** Adds {@code name} to {@code stops} in {@code postStop}; counts {@code started} down in {@code preStart}. */
    static Actor recordingStop(String name, List<String> stops, CountDownLatch started) {
        return new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                started.countDown();
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
            }

            @Override
            public void postStop(ActorContext ctx) {
                stops.add(name);
            }
        };
    }
}
