package io.troupe.host.monitor;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.troupe.host.dispatch.RunGroup;
import io.troupe.host.dispatch.Worker;
import io.troupe.host.reactor.EventLoop;

/**
 * Turns the cumulative busy times in worker and loop heartbeats into busy ratios per window: at the
 * end of each window, a thread's ratio is the busy time it added during the window divided by the
 * window (or by its lifetime, for a thread started during the window). Also averages the pool's and
 * the loops' ratios over the windows between two {@link #takeAverages()} calls, for the summary line.
 *
 * <p><b>Threading:</b> confined to the monitor thread; the {@link Sample}s it returns are immutable
 * and may be published to any thread.
 */
final class BusySampler {

    /**
     * Busy ratios of one window.
     *
     * @param ratios       per thread name
     * @param workersRatio the mean over the workers
     * @param loopsRatio   the mean over the loops, 0 without loops
     * @param tenantShares per tenant, the worker time its turns took divided by the pool's capacity
     *                     (workers × window)
     */
    record Sample(long atNanos, Map<String, Double> ratios, double workersRatio, double loopsRatio,
                  Map<String, Double> tenantShares) {

        static final Sample EMPTY = new Sample(0, Map.of(), 0, 0, Map.of());

        Sample {
            ratios = Map.copyOf(ratios);
            tenantShares = Map.copyOf(tenantShares);
        }

        double ratioOf(String thread) {
            return ratios.getOrDefault(thread, 0.0);
        }

        double shareOf(String tenant) {
            return tenantShares.getOrDefault(tenant, 0.0);
        }
    }

    /** Mean busy ratios over several windows. */
    record Averages(double workersRatio, double loopsRatio) { }

    private final long windowNanos;
    private long windowStart;
    private Map<Object, Long> baselines = new IdentityHashMap<>();
    private double workersSum;
    private double loopsSum;
    private int windows;

    BusySampler(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** Returns the ratios of the window that ends now, or {@code null} while the window runs. */
    Sample sample(long now, List<Worker> workers, List<EventLoop> loops, List<RunGroup> groups) {
        if (windowStart == 0) {
            windowStart = now;
            Map<Object, Long> next = new IdentityHashMap<>();
            workers.forEach(worker -> next.put(worker, worker.busyNanos(now)));
            loops.forEach(loop -> next.put(loop, loop.busyNanos(now)));
            groups.forEach(group -> next.put(group, group.workerNanos()));
            baselines = next;
            return null;
        }
        if (now - windowStart < windowNanos) {
            return null;
        }
        Map<Object, Long> next = new IdentityHashMap<>();
        Map<String, Double> ratios = new HashMap<>();
        double workersTotal = 0;
        for (Worker worker : workers) {
            long busy = worker.busyNanos(now);
            double ratio = ratio(busy, worker, worker.createdNanos(), now);
            next.put(worker, busy);
            ratios.put(worker.getName(), ratio);
            workersTotal += ratio;
        }
        double loopsTotal = 0;
        for (EventLoop loop : loops) {
            long busy = loop.busyNanos(now);
            double ratio = ratio(busy, loop, Long.MIN_VALUE, now);
            next.put(loop, busy);
            ratios.put(loop.name(), ratio);
            loopsTotal += ratio;
        }
        Map<String, Double> shares = new HashMap<>();
        long capacity = (now - windowStart) * Math.max(1, workers.size());
        for (RunGroup group : groups) {
            long used = group.workerNanos();
            Long baseline = baselines.get(group);
            next.put(group, used);
            if (group.isTenant() && capacity > 0) {
                double share = (double) (used - (baseline == null ? 0 : baseline)) / capacity;
                shares.put(group.tenant(), Math.max(0, Math.min(1, share)));
            }
        }
        Sample sample = new Sample(now, ratios, workers.isEmpty() ? 0 : workersTotal / workers.size(),
                loops.isEmpty() ? 0 : loopsTotal / loops.size(), shares);
        baselines = next;
        windowStart = now;
        workersSum += sample.workersRatio();
        loopsSum += sample.loopsRatio();
        windows++;
        return sample;
    }

    /** The mean ratios of the windows since the last call; resets them. */
    Averages takeAverages() {
        Averages averages = windows == 0 ? new Averages(0, 0)
                : new Averages(workersSum / windows, loopsSum / windows);
        workersSum = 0;
        loopsSum = 0;
        windows = 0;
        return averages;
    }

    private double ratio(long busy, Object thread, long createdNanos, long now) {
        Long baseline = baselines.get(thread);
        long from = baseline != null ? windowStart : Math.max(windowStart, createdNanos);
        long span = now - from;
        if (span <= 0) {
            return 0;
        }
        double ratio = (double) (busy - (baseline == null ? 0 : baseline)) / span;
        return Math.max(0, Math.min(1, ratio));
    }
}
