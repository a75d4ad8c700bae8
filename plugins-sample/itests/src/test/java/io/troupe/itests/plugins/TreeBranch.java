package io.troupe.itests.plugins;

import io.troupe.api.ActorContext;

/**
 * The middle of the tree plugin's tree: spawned by {@link TreeRoot} from a lambda, it spawns two
 * {@link TreeLeaf}s in {@code preStart}, one from a method reference and one by factory name.
 *
 * <p><b>Threading:</b> an actor: one call at a time.
 */
public final class TreeBranch extends TreeNode {

    @Override
    public void preStart(ActorContext ctx) {
        ctx.spawn(TreeLeaf::new);
        ctx.spawn(TreeLeaf.FACTORY);
    }
}
