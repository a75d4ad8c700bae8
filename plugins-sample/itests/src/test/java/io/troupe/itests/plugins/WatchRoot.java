package io.troupe.itests.plugins;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.troupe.api.AbstractActor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.Receive;
import io.troupe.api.Terminated;

/**
 * The watch plugin's handler actor. {@value #START} spawns a {@link WatchWorker} by factory name,
 * watches it and asks it {@code ping} with {@link ActorContext#ask(ActorRef, Object, Duration)}, replying
 * from the stage's callback; {@value #KILL} stops the worker, whose {@link Terminated} is recorded;
 * {@value #HOLD} becomes a behaviour that stashes every request until {@value #RELEASE} unstashes
 * them; {@value #REPORT} answers the events so far. The events and the worker cross a hot swap
 * (exportState and importState); the stash crosses it by itself, as the mailbox does.
 *
 * <p><b>Threading:</b> an actor: one turn at a time.
 */
public final class WatchRoot extends AbstractActor {

    public static final String START = "watch.start";
    public static final String KILL = "watch.kill";
    public static final String HOLD = "watch.hold";
    public static final String RELEASE = "watch.release";
    public static final String REPORT = "watch.report";
    static final String[] NAMES = {START, KILL, HOLD, RELEASE, REPORT};

    private final List<String> events = new ArrayList<>();
    private ActorRef worker;

    @Override
    protected Receive createReceive() {
        return Receive.matchMessage(START, this::start)
                .matchMessage(KILL, (ctx, kill) -> {
                    ctx.stop(worker);
                    ctx.reply(bytes("stopping"));
                })
                .matchMessage(HOLD, (ctx, hold) -> {
                    ctx.become(holding());
                    ctx.reply(bytes("holding"));
                })
                .matchMessage(RELEASE, this::release)
                .matchMessage(REPORT, (ctx, report) -> ctx.reply(bytes(String.join(",", events))))
                .match(Terminated.class, (ctx, gone) -> events.add("terminated " + gone.actor().equals(worker)))
                .build();
    }

    private Receive holding() {
        return Receive.matchMessage(RELEASE, this::release)
                .orElse((ctx, message) -> ctx.stash());
    }

    private void start(ActorContext ctx, Message request) {
        worker = ctx.spawn(WatchWorker.FACTORY, ActorOptions.defaults().withName("worker"));
        ctx.watch(worker);
        ActorRef client = ctx.sender();
        ctx.ask(worker, "ping", Duration.ofSeconds(10)).thenAccept(reply -> {
            events.add("asked " + reply);
            client.tell(bytes("asked " + reply), self());
        });
    }

    private void release(ActorContext ctx, Message request) {
        ctx.unbecome();
        ctx.unstashAll();
        ctx.reply(bytes("released"));
    }

    @Override
    public Object exportState(ActorContext ctx) {
        Map<String, Object> state = new HashMap<>();
        state.put("events", new ArrayList<>(events));
        state.put("worker", worker);
        return state;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void importState(ActorContext ctx, Object state) {
        Map<String, Object> map = (Map<String, Object>) state;
        events.addAll((List<String>) map.get("events"));
        worker = (ActorRef) map.get("worker");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }
}
