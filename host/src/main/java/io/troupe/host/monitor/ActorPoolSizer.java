package io.troupe.host.monitor;

import java.util.concurrent.TimeUnit;

import io.troupe.host.plugin.PoolSample;

/**
 * Decides when one actor pool grows or shrinks, from what the monitor saw at each look. A pure
 * function of its inputs and of a few remembered instants, so that it can be tested with made-up
 * times.
 *
 * <h2>Rules</h2>
 * <pre>
 *   pressure  more than highWater messages wait per healthy (not stalled) member, counting only
 *             the healthy members' mailboxes; with every member stalled, any waiting message
 *   idle      no message waits, no member is inside receive, none is stalled
 *
 *   grow      by one, when the pressure held at every look for at least growAfter and at least two
 *             looks, and size &lt; max
 *   shrink    by one, when the pool has been idle at every look for idlePeriod, and size &gt; min
 *   cooldown  no change within cooldown of the previous one (hysteresis: a pool under a load that
 *             sits between "idle" and "pressure" keeps its size)
 * </pre>
 *
 * A short burst does not grow the pool: the pressure must outlast {@code growAfter}. Messages stuck
 * behind a stalled member do not count as pressure once the member is known to be stalled, since
 * more members would not serve them; while every member is stalled, anything waiting does.
 *
 * <p><b>Threading:</b> confined to the monitor thread.
 */
final class ActorPoolSizer {

    /** A decision: {@code +1}, {@code -1} or {@code 0} members, and why. */
    record Decision(int delta, String reason) {

        static final Decision NONE = new Decision(0, "");

        boolean isNone() {
            return delta == 0;
        }
    }

    private final int highWater;
    private final long growNanos;
    private final long idleNanos;
    private final long cooldownNanos;
    private final String idleText;
    private boolean pressured;
    private long pressureSince;
    private int pressureLooks;
    private boolean idle;
    private long idleSince;
    private boolean changed;
    private long lastChange;

    ActorPoolSizer(ActorPoolSettings settings) {
        this.highWater = settings.highWater();
        this.growNanos = settings.growAfter().toNanos();
        this.idleNanos = settings.idlePeriod().toNanos();
        this.cooldownNanos = settings.cooldown().toNanos();
        this.idleText = MonitorSettings.text(settings.idlePeriod());
    }

    /**
     * @param now    the monitor's clock
     * @param sample the pool at this look
     * @param min    the fewest members the pool keeps
     * @param max    the most members it may have
     */
    Decision decide(long now, PoolSample sample, int min, int max) {
        int healthy = sample.healthy();
        boolean pressure = healthy == 0 ? sample.backlog() > 0 : sample.healthyBacklog() > (long) highWater * healthy;
        boolean cooling = changed && now - lastChange < cooldownNanos;
        if (pressure) {
            idle = false;
            if (!pressured) {
                pressured = true;
                pressureSince = now;
                pressureLooks = 0;
            }
            pressureLooks++;
            long lasted = now - pressureSince;
            if (pressureLooks >= 2 && lasted >= growNanos && sample.size() < max && !cooling) {
                pressured = false;
                return change(now, 1, pressureText(sample, healthy) + " for "
                        + TimeUnit.NANOSECONDS.toMillis(lasted) + " ms (" + pressureLooks + " looks); max " + max);
            }
            return Decision.NONE;
        }
        pressured = false;
        if (sample.backlog() != 0 || sample.busy() != 0 || sample.stalled() != 0) {
            idle = false;
            return Decision.NONE;
        }
        if (!idle) {
            idle = true;
            idleSince = now;
        }
        if (now - idleSince >= idleNanos && sample.size() > min && !cooling) {
            return change(now, -1, "idle (no message waiting, no turn running) for at least " + idleText + "; min "
                    + min);
        }
        return Decision.NONE;
    }

    private Decision change(long now, int delta, String reason) {
        changed = true;
        lastChange = now;
        return new Decision(delta, reason);
    }

    private String pressureText(PoolSample sample, int healthy) {
        if (healthy == 0) {
            return "all " + sample.size() + " member(s) stalled while " + sample.backlog() + " message(s) wait";
        }
        return sample.healthyBacklog() + " message(s) waiting for " + healthy + " healthy member(s)"
                + (sample.stalled() > 0 ? " (" + sample.stalled() + " stalled)" : "")
                + ", above the high-water mark of " + highWater + " per member,";
    }
}
