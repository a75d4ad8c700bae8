package io.troupe.benchmarks.inprocess;

/**
 * The in-process workloads, with the size of one round and the target Troupe must meet against
 * Pekko: those of issue 6, and the shapes of the Savina suite the actor literature measures (issue 20). A "message" is one {@code tell} delivered to an actor; replies and receipts count.
 *
 * <p><b>Threading:</b> immutable.
 */
enum WorkloadKind {

    /** One pinger and one ponger, one ball in flight: 100 000 round trips per round. */
    PING_PONG_1("ping-pong, 1 pair, 1 in flight", 1.5) {
        @Override
        long messagesPerRound(int spawnCount) {
            return PingPongShape.ONE.messagesPerRound();
        }
    },
    /** Four pairs with 100 balls in flight each. */
    PING_PONG_4X100("ping-pong, 4 pairs, 100 in flight each", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return PingPongShape.FOUR_BY_HUNDRED.messagesPerRound();
        }
    },
    /** A parent sends 100 000 messages across 256 children; each child sends a receipt back. */
    FAN_OUT("fan-out/fan-in, 100 000 msgs over 256 children", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return 2L * FAN_OUT_MESSAGES;
        }
    },
    /** Four sender actors flood one receiver. */
    MAILBOX_4("one mailbox, 4 senders", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return MAILBOX_MESSAGES;
        }
    },
    /** Sixteen sender actors flood one receiver. */
    MAILBOX_16("one mailbox, 16 senders", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return MAILBOX_MESSAGES;
        }
    },
    /** A parent spawns {@code spawnCount} children, at most {@link #SPAWN_WINDOW} alive at once; each stops itself. */
    SPAWN_STOP("spawn + stop, actors/s", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return spawnCount;
        }
    },
    /**
     * One token passed {@link #RING_HOPS} times around a ring of {@link #RING_ACTORS} actors (Savina's thread
     * ring).
     */
    RING("token ring, 128 actors, 1 token", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return RING_HOPS;
        }
    },
    /**
     * A broker pairs {@link #CHAMENEOS_CREATURES} creatures that ask it concurrently, until
     * {@link #CHAMENEOS_MEETINGS} meetings (Savina's chameneos): 4 messages a meeting, two requests, the
     * broker's answer and the creatures' exchange.
     */
    CHAMENEOS("chameneos, a broker pairing 64 actors", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return 4L * CHAMENEOS_MEETINGS;
        }
    },
    /**
     * Each of {@link #BIG_ACTORS} actors pings random peers, one ping at a time, {@link #BIG_PINGS} times
     * (Savina's big).
     */
    BIG("big, 128 actors pinging random peers", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return 2L * BIG_ACTORS * BIG_PINGS;
        }
    },
    /**
     * A thread outside the runtime sends {@link #FORK_JOIN_TASKS} tasks to each of {@link #FORK_JOIN_ACTORS}
     * actors, which compute a little for each (Savina's fork-join throughput).
     */
    FORK_JOIN("fork-join, 64 actors computing independent tasks", 1.0) {
        @Override
        long messagesPerRound(int spawnCount) {
            return (long) FORK_JOIN_ACTORS * FORK_JOIN_TASKS;
        }
    };

    static final int FAN_OUT_MESSAGES = 100_000;
    static final int FAN_OUT_CHILDREN = 256;
    static final int MAILBOX_MESSAGES = 400_000;
    static final int SPAWN_WINDOW = 1_000;
    static final int RING_ACTORS = 128;
    static final int RING_HOPS = 200_000;
    static final int CHAMENEOS_CREATURES = 64;
    static final int CHAMENEOS_MEETINGS = 100_000;
    static final int BIG_ACTORS = 128;
    static final int BIG_PINGS = 2_000;
    static final int FORK_JOIN_ACTORS = 64;
    /** Below the default mailbox capacity (10 000): the default mailboxes hold a whole round, nothing dropped. */
    static final int FORK_JOIN_TASKS = 5_000;
    /** The geometric mean of the workloads' ratios that Troupe must reach. */
    static final double GEOMETRIC_MEAN_TARGET = 1.5;
    /** Bounded mailboxes that must hold a whole round without overflowing (Pekko's are unbounded). */
    static final int FLOODED_MAILBOX_CAPACITY = 1 << 20;

    private final String label;
    private final double target;

    WorkloadKind(String label, double target) {
        this.label = label;
        this.target = target;
    }

    /** Messages (or, for spawn and stop, actors) per round. */
    abstract long messagesPerRound(int spawnCount);

    String label() {
        return label;
    }

    /** The minimum Troupe/Pekko ratio. */
    double target() {
        return target;
    }

    /** Senders of the one-mailbox workloads. */
    int senders() {
        return this == MAILBOX_16 ? 16 : 4;
    }

    /** The JMH parameter value for this workload. */
    String param() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static WorkloadKind ofParam(String param) {
        return valueOf(param.toUpperCase(java.util.Locale.ROOT));
    }
}
