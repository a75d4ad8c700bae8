package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Terminated;

/**
 * Death-watch is exactly once when watching races the target's death: in each round, watchers start
 * watching while another thread stops the target, so that some register before the death, some during
 * and some after; each must count one {@link Terminated}, never zero, never two.
 */
class WatchRaceStressTest {

    private static final int ROUNDS = 400;
    private static final int WATCHERS = 4;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Troupe troupe = Troupe.builder().workers(2).maxWorkers(2).build();

    @AfterEach
    void stop() {
        troupe.close();
    }

    /** Watches what it is told to; answers "count" with the Terminated notices it received. */
    private ActorRef watcher() {
        int[] notices = new int[1];
        return troupe.spawn(() -> (ctx, message) -> {
            if (message instanceof ActorRef target) {
                ctx.watch(target);
            } else if (message instanceof Terminated) {
                notices[0]++;
            } else if ("count".equals(message)) {
                ctx.reply(notices[0]);
            }
        }, ActorOptions.defaults());
    }

    @Test
    void everyWatcherHearsOfTheDeathExactlyOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            ActorRef target = troupe.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
            List<ActorRef> watchers = new ArrayList<>();
            for (int i = 0; i < WATCHERS; i++) {
                watchers.add(watcher());
            }
            Thread killer = new Thread(() -> troupe.stop(target));
            for (int i = 0; i < WATCHERS; i++) {
                watchers.get(i).tell(target);
                if (i == WATCHERS / 2) {
                    killer.start();
                }
            }
            killer.join(WAIT.toMillis());
            target.whenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            for (ActorRef watcher : watchers) {
                int seen = count(watcher);
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (seen == 0 && System.nanoTime() < deadline) {
                    seen = count(watcher); // the notice may still be on its way: ask again, bounded
                }
                assertEquals(1, seen, "round " + round + ": notices heard by " + watcher);
                // a second notice, if any, was queued before the first was handled: one more round trip sees it
                assertEquals(1, count(watcher), "round " + round + ": a second notice reached " + watcher);
                troupe.stop(watcher);
            }
        }
    }

    private int count(ActorRef watcher) throws Exception {
        return (Integer) watcher.ask("count", WAIT).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
}
