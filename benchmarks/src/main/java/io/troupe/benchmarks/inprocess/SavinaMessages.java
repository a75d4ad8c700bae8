package io.troupe.benchmarks.inprocess;

/**
 * The messages of the Savina-shaped workloads, shared by both runtimes' actors so that each runtime
 * carries exactly the same objects: a message that holds data is a new immutable object per send, as
 * in the Savina suite; signals are constants.
 *
 * <p><b>Threading:</b> immutable.
 */
final class SavinaMessages {

    /** Chameneos: the meetings are over; the creature rests until the next round. */
    static final Object REST = new Object();
    /** Chameneos: start asking the broker. */
    static final Object GO = new Object();
    /** Big: a ping, answered with {@link #PONG}. */
    static final Object PING = new Object();
    static final Object PONG = new Object();
    /** Fork-join: one task to compute. */
    static final Object TASK = new Object();

    private SavinaMessages() {
    }

    /** Ring: the token, with the hops still to go; its holder signals the round when none are left. */
    record Token(RoundSignal round, int hopsLeft) {
    }

    /**
     * Chameneos: what the broker sends each round before the creatures ask it: the meetings to arrange
     * and the round to end once every creature rests.
     */
    record Arrange(RoundSignal round, int meetings) {
    }

    /** Chameneos: a creature of this colour asks the broker for a partner. */
    record Ask(int colour) {
    }

    /** Chameneos: the broker's answer: meet {@code partner}, whose colour is {@code colour}. */
    record Meet(Object partner, int colour) {
    }

    /** Chameneos: a creature tells its partner its colour. */
    record Change(int colour) {
    }

    /** The round's start for the big and fork-join actors. */
    record Start(RoundSignal round) {
    }

    /** Chameneos colours (0, 1, 2): what two creatures of these colours both become. */
    static int complement(int mine, int theirs) {
        return mine == theirs ? mine : 3 - mine - theirs;
    }

    /** Fork-join: the little computation each task costs (a few hundred nanoseconds), the same on both runtimes. */
    static double compute(double seed) {
        double x = seed;
        for (int i = 1; i <= 40; i++) {
            x = Math.sqrt(x + i) * 1.0001;
        }
        return x;
    }
}
