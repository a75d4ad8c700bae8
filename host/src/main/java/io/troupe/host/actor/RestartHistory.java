package io.troupe.host.actor;

/**
 * The restart times of one child within its parent's sliding window, to enforce "at most N restarts
 * within T".
 *
 * <p><b>Threading:</b> confined to the parent's turns.
 */
final class RestartHistory {

    private long[] times = new long[0];
    private int count;

    /**
     * Records a restart at {@code now} if fewer than {@code max} restarts happened within
     * {@code windowNanos} before it.
     *
     * @return whether the restart is allowed
     */
    boolean tryRecord(long now, int max, long windowNanos) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (now - times[i] < windowNanos) {
                times[kept++] = times[i];
            }
        }
        count = kept;
        if (count >= max) {
            return false;
        }
        if (times.length <= count) {
            long[] grown = new long[Math.max(4, count * 2)];
            System.arraycopy(times, 0, grown, 0, count);
            times = grown;
        }
        times[count++] = now;
        return true;
    }
}
