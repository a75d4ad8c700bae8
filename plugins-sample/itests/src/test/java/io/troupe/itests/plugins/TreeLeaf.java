package io.troupe.itests.plugins;

/**
 * A leaf of the tree plugin's tree; also registered as the factory {@value #FACTORY}.
 *
 * <p><b>Threading:</b> an actor: one call at a time.
 */
public final class TreeLeaf extends TreeNode {

    public static final String FACTORY = "tree.leaf";
}
