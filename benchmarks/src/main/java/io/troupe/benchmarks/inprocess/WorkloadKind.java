package io.troupe.benchmarks.inprocess;

/**
 * The in-process workloads of issue 6, with the size of one round and the target Troupe must meet
 * against Pekko. A "message" is one {@code tell} delivered to an actor; replies and receipts count.
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
    };

    static final int FAN_OUT_MESSAGES = 100_000;
    static final int FAN_OUT_CHILDREN = 256;
    static final int MAILBOX_MESSAGES = 400_000;
    static final int SPAWN_WINDOW = 1_000;
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
