package io.troupe.server.tenant;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One tenant's throttling: the time each {@link ThrottleLimit} has held its sessions back
 * ({@link ThrottleTime}), and its <i>episodes</i>, for the log. A session under a rate limit holds and
 * releases a frame at every frame; an episode joins those into one stretch that starts with the first
 * hold and ends once the limit has held nothing back for {@link #QUIET}, so that the log gets one line
 * when the tenant starts being throttled by a limit and one when it stops, never one per message.
 *
 * <pre>
 *   IO loops:  limit(l).begin / end                 (lock-free, per hold)
 *   watcher:   watch(now) every ~250 ms ─► Episode events: STARTED l; STOPPED l after d, throttled t
 * </pre>
 *
 * <p><b>Threading:</b> {@link #limit} and {@link #throttledNanos} from any thread; {@link #watch} from
 * one watching thread at a time (the server's sampler); {@link #throttledBy} from any thread (it reads
 * what the watcher published, and the holds in progress).
 */
public final class TenantThrottling {

    /** How long a limit must have held nothing back before its episode ends. */
    public static final Duration QUIET = Duration.ofSeconds(1);

    /** A change the log reports. */
    public record Episode(ThrottleLimit limit, boolean started, long durationNanos, long throttledNanos) {
    }

    private final Map<ThrottleLimit, ThrottleTime> times = new EnumMap<>(ThrottleLimit.class);
    /** Published by the watcher: the limits in an episode now. */
    private volatile Set<ThrottleLimit> inEpisode = Collections.emptySet();
    // Watcher thread only.
    private final Map<ThrottleLimit, Watch> watches = new EnumMap<>(ThrottleLimit.class);

    private static final class Watch {
        boolean episode;
        long startedAt;
        long lastActiveAt;
        long totalAtStart;
        long lastTotal;
    }

    TenantThrottling() {
        for (ThrottleLimit limit : ThrottleLimit.values()) {
            times.put(limit, new ThrottleTime());
            watches.put(limit, new Watch());
        }
    }

    /** The time {@code limit} has throttled the tenant. */
    public ThrottleTime limit(ThrottleLimit limit) {
        return times.get(limit);
    }

    /** Throttled time by limit key ({@link ThrottleLimit#key()}), every limit listed, up to {@code nowNanos}. */
    public Map<String, Long> throttledNanos(long nowNanos) {
        Map<String, Long> nanos = new LinkedHashMap<>();
        for (ThrottleLimit limit : ThrottleLimit.values()) {
            nanos.put(limit.key(), times.get(limit).nanos(nowNanos));
        }
        return nanos;
    }

    /** The limits throttling the tenant now: in an episode, or holding a session back this instant. */
    public Set<ThrottleLimit> throttledBy() {
        Set<ThrottleLimit> limits = EnumSet.noneOf(ThrottleLimit.class);
        limits.addAll(inEpisode);
        for (ThrottleLimit limit : ThrottleLimit.values()) {
            if (times.get(limit).held() > 0) {
                limits.add(limit);
            }
        }
        return limits;
    }

    /**
     * Looks at every limit at {@code nowNanos}: a limit that held a session back since the last look
     * starts an episode if none is on; one that held nothing back for {@link #QUIET} ends its episode.
     *
     * @return the episodes started and ended, in limit order
     */
    public List<Episode> watch(long nowNanos) {
        List<Episode> changes = new ArrayList<>();
        Set<ThrottleLimit> on = EnumSet.noneOf(ThrottleLimit.class);
        for (ThrottleLimit limit : ThrottleLimit.values()) {
            ThrottleTime time = times.get(limit);
            Watch watch = watches.get(limit);
            long total = time.nanos(nowNanos);
            boolean active = time.held() > 0 || total != watch.lastTotal;
            if (active) {
                watch.lastActiveAt = nowNanos;
                if (!watch.episode) {
                    watch.episode = true;
                    watch.startedAt = nowNanos - Math.min(total - watch.lastTotal, QUIET.toNanos());
                    watch.totalAtStart = watch.lastTotal;
                    changes.add(new Episode(limit, true, 0, 0));
                }
            } else if (watch.episode && nowNanos - watch.lastActiveAt >= QUIET.toNanos()) {
                watch.episode = false;
                changes.add(new Episode(limit, false, watch.lastActiveAt - watch.startedAt,
                        total - watch.totalAtStart));
            }
            watch.lastTotal = total;
            if (watch.episode) {
                on.add(limit);
            }
        }
        inEpisode = on.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(on);
        return changes;
    }
}
