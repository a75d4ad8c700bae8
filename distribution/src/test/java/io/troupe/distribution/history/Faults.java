package io.troupe.distribution.history;

import java.util.Set;

/**
 * The names of the faults a test records ({@link History#fault}), and which of them are crashes: the end of a
 * server process without a clean stop, where a durability mode's promise decides what may be lost.
 *
 * <p><b>Threading:</b> constants.
 */
public final class Faults {

    /** {@code kill -9} of a single server; key: the installation. */
    public static final String KILL = "kill";
    /** A server started again after a kill or a stop. */
    public static final String RESTART = "restart";
    /** A hot swap of a plugin began; detail: from which version to which. */
    public static final String SWAP = "swap";
    /** The hot swap is done (the new version answers). */
    public static final String SWAPPED = "swapped";
    /** {@code kill -9} of one node of a cluster; key: the node. */
    public static final String NODE_CRASH = "node-crash";
    /** A node (re)joined the cluster. */
    public static final String NODE_JOIN = "node-join";

    private static final Set<String> CRASHES = Set.of(KILL, NODE_CRASH);

    private Faults() {
    }

    /** Whether the fault named {@code f} ends a server process without a clean stop. */
    public static boolean isCrash(String f) {
        return CRASHES.contains(f);
    }
}
