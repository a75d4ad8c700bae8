package io.troupe.benchmarks.inprocess;

/**
 * The shape of a ping-pong workload: pairs of actors bouncing balls, several balls in flight per pair.
 * Each round, every pinger sends {@link #roundTripsPerPair} balls and waits for each to come back.
 *
 * <p><b>Threading:</b> immutable.
 */
record PingPongShape(int pairs, int inFlight, int roundTripsPerPair) {

    static final PingPongShape ONE = new PingPongShape(1, 1, 100_000);
    static final PingPongShape FOUR_BY_HUNDRED = new PingPongShape(4, 100, 250_000);

    /** Pings and pongs, both counted. */
    long messagesPerRound() {
        return 2L * pairs * roundTripsPerPair;
    }
}
