package io.troupe.itests.plugins;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ChildStopped;
import io.troupe.api.Message;

/**
 * The tree plugin's handler actor, one per tenant. In {@code preStart} it spawns a {@link TreeBranch}
 * from a lambda and a {@link TreeLeaf} from an anonymous factory class. {@value #PUT} adds one to
 * every actor of the tenant's tree and replies with the root's new count, and spawns a
 * {@link TreeEphemeral} that stops at once; {@value #LAMBDA} adds a
 * child whose instance is itself a lambda, which no revision can re-create (a swap must refuse);
 * {@value #PIN} starts a timer whose message is a class of the plugin (a swap must refuse),
 * {@value #UNPIN} cancels it.
 *
 * <p><b>Threading:</b> an actor: one call at a time.
 */
public final class TreeRoot extends TreeNode {

    public static final String PUT = "tree.put";
    public static final String LAMBDA = "tree.lambda";
    public static final String PIN = "tree.pin";
    public static final String UNPIN = "tree.unpin";

    @Override
    public void preStart(ActorContext ctx) {
        ctx.spawn(() -> new TreeBranch());
        ctx.spawn(new ActorFactory() {
            @Override
            public Actor create() {
                return new TreeLeaf();
            }
        });
    }

    @Override
    void receiveOther(ActorContext ctx, Object message) throws Exception {
        if (message instanceof ChildStopped) {
            return; // a TreeEphemeral
        }
        Message request = (Message) message;
        switch (request.name()) {
            case PUT -> {
                ctx.spawn(TreeEphemeral::new, ActorOptions.defaults().withName(TreeEphemeral.NAME)).tell(1L);
                receive(ctx, 1L);
                ctx.reply(Long.toString(count()).getBytes(StandardCharsets.UTF_8));
            }
            case LAMBDA -> {
                ctx.spawn(() -> (context, ignored) -> { });
                ctx.reply("ok".getBytes(StandardCharsets.UTF_8));
            }
            case PIN -> {
                ctx.timers().scheduleAtFixedRate("pin", new TreeTick(), Duration.ofHours(1), Duration.ofHours(1));
                ctx.reply("ok".getBytes(StandardCharsets.UTF_8));
            }
            case UNPIN -> {
                ctx.timers().cancel("pin");
                ctx.reply("ok".getBytes(StandardCharsets.UTF_8));
            }
            default -> throw new IllegalArgumentException("unexpected " + request.name());
        }
    }
}
