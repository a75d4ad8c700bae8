package io.troupe.host.dispatch;

/**
 * What a worker saw of the other workers' turns, to tell a long turn from a stream of short ones: a worker found
 * in the turn it was in at an earlier look, long enough ago, runs a long turn, and the tasks waiting behind it may
 * go to another worker.
 *
 * <p><b>Threading:</b> confined to the worker that owns it.
 */
final class SeenTurns {

    private Worker[] workers = new Worker[0];
    private long[] turns = new long[0];
    private long[] since = new long[0];

    /**
     * Whether {@code other}, at {@code index} of the pool's list, has been in its current turn since a look at
     * least {@code nanos} before {@code now}; notes the turn when it is new.
     */
    boolean seenFor(int index, Worker other, long now, long nanos) {
        if (index >= workers.length) {
            grow(index + 1);
        }
        long turn = other.currentTurn();
        if (turn == 0) {
            workers[index] = null;
            return false;
        }
        if (workers[index] != other || turns[index] != turn) {
            workers[index] = other;
            turns[index] = turn;
            since[index] = now;
            return false;
        }
        return now - since[index] >= nanos;
    }

    private void grow(int size) {
        workers = java.util.Arrays.copyOf(workers, size);
        turns = java.util.Arrays.copyOf(turns, size);
        since = java.util.Arrays.copyOf(since, size);
    }
}
