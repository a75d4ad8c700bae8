package io.troupe.host.monitor;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Keeps every monitor event in a queue the test polls with a bound.
 *
 * <p><b>Threading:</b> written by the monitor thread, read by the test thread.
 */
final class RecordingListener implements MonitorListener {

    final BlockingQueue<Stall> stalls = new LinkedBlockingQueue<>();
    final BlockingQueue<Stall> recoveries = new LinkedBlockingQueue<>();
    final BlockingQueue<PoolChange> resizes = new LinkedBlockingQueue<>();
    final BlockingQueue<String> summaries = new LinkedBlockingQueue<>();
    final BlockingQueue<ActorPoolChange> poolResizes = new LinkedBlockingQueue<>();

    @Override
    public void stalled(Stall stall) {
        stalls.add(stall);
    }

    @Override
    public void recovered(Stall stall) {
        recoveries.add(stall);
    }

    @Override
    public void resized(PoolChange change) {
        resizes.add(change);
    }

    @Override
    public void poolResized(ActorPoolChange change) {
        poolResizes.add(change);
    }

    @Override
    public void summarised(String line) {
        summaries.add(line);
    }

    static <T> T next(BlockingQueue<T> queue, String what) throws InterruptedException {
        T item = queue.poll(10, TimeUnit.SECONDS);
        if (item == null) {
            throw new AssertionError("no " + what + " within 10 s");
        }
        return item;
    }
}
