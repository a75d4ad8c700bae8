package io.troupe.compiletest;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.troupe.api.AbstractActor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.Receive;
import io.troupe.api.Terminated;

/**
 * The actor of the README's "The actor API at a glance", kept here so that the example compiles
 * against the API it documents. Keep the two in step.
 *
 * <p><b>Threading:</b> an actor: one turn at a time.
 */
final class ReadmeOrdersExample extends AbstractActor {
    private final Map<String, Integer> open = new HashMap<>();

    @Override
    protected Receive createReceive() {
        return Receive.matchMessage("order.place", this::place)
                .match(Terminated.class, (ctx, gone) -> open.clear())
                .build();
    }

    @Override
    public void preStart(ActorContext ctx) {
        ctx.lookup("stock").ifPresent(ctx::watch);
    }

    private void place(ActorContext ctx, Message order) {
        ActorRef stock = ctx.lookup("stock").orElseThrow();
        ActorRef client = ctx.sender();
        ctx.ask(stock, order.text(), Duration.ofSeconds(2))
           .thenAccept(reply -> {
               open.merge(order.text(), 1, Integer::sum);
               client.tell(reply, self());
           });
    }
}
