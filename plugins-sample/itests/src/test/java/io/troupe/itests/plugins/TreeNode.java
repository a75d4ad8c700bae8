package io.troupe.itests.plugins;

import java.util.Map;

import org.osgi.framework.FrameworkUtil;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorRef;

/**
 * What every actor of the tree plugin does: counts the {@code Long}s it receives (adding them, and
 * passing them to its children), answers {@value #REPORT} with its class, count and the version of
 * the bundle whose code runs it, and carries its count across a swap as a map of JDK types.
 *
 * <p><b>Threading:</b> an actor: one call at a time.
 */
public abstract class TreeNode implements Actor {

    /** Asked by the tests of each actor: the reply is {@code <class> <count> <bundle version>}. */
    public static final String REPORT = "report";
    /** The major version whose nodes refuse to import any state: a swap to it is rolled back. */
    public static final int REFUSING_MAJOR = 3;

    private long count;

    @Override
    public void receive(ActorContext ctx, Object message) throws Exception {
        if (REPORT.equals(message)) {
            ctx.reply(getClass().getSimpleName() + " " + count + " "
                    + FrameworkUtil.getBundle(getClass()).getVersion());
        } else if (message instanceof Long amount) {
            count += amount;
            for (ActorRef child : ctx.children()) {
                if (!TreeEphemeral.NAME.equals(child.name())) {
                    child.tell(amount, ctx.self());
                }
            }
        } else {
            receiveOther(ctx, message);
        }
    }

    long count() {
        return count;
    }

    /** Messages other than counts and reports. */
    void receiveOther(ActorContext ctx, Object message) throws Exception {
    }

    @Override
    public Object exportState(ActorContext ctx) {
        return Map.of("count", count);
    }

    @Override
    public void importState(ActorContext ctx, Object state) {
        if (FrameworkUtil.getBundle(getClass()).getVersion().getMajor() == REFUSING_MAJOR) {
            throw new IllegalStateException("a tree node of major version " + REFUSING_MAJOR
                    + " refuses every state");
        }
        if (!(state instanceof Map<?, ?> map && map.get("count") instanceof Long restored)) {
            throw new IllegalArgumentException("not a tree node's state: " + state);
        }
        count = restored;
    }
}
