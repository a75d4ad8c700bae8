package io.troupe.server.auth;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Failed HELLOs counted per interval, for one WARN line per interval instead of one line per failure:
 *
 * <pre>
 *  Failed HELLOs in the last 60 s: 9980 from 2 address(es) (most: 127.0.0.2 9975, 127.0.0.1 5);
 *  9960 of them refused at once from blocked addresses; 1 address(es) blocked now
 * </pre>
 *
 * <p>At most {@value #MAX_ADDRESSES} addresses are counted one by one in an interval; failures from
 * further addresses are counted in the total and the number of addresses is then a lower bound (said
 * so in the line).
 *
 * <p><b>Threading:</b> {@link #failed} and {@link #refusedWhileBlocked} from any thread (IO loops,
 * verifier threads), lock-free; {@link #summary} from one thread at a time (the authenticator's
 * timer). A failure counted while {@link #summary} swaps the interval may land in the interval being
 * summarised after it was read, and is then not reported: the counts are for operators, not accounts.
 */
final class FailedHelloLog {

    /** Addresses counted one by one per interval. */
    static final int MAX_ADDRESSES = 1024;
    /** Addresses named in the line. */
    static final int TOP = 3;

    private final AtomicReference<Interval> current = new AtomicReference<>(new Interval());

    /** A HELLO whose credentials were checked and refused. */
    void failed(InetAddress address) {
        current.get().count(address, false);
    }

    /** A HELLO refused unchecked because its address is blocked. */
    void refusedWhileBlocked(InetAddress address) {
        current.get().count(address, true);
    }

    /**
     * Ends the interval: its line, or {@code null} when nothing failed in it.
     *
     * @param length         how long the interval was, for the line
     * @param blockedNow     addresses blocked at the end of it
     */
    String summary(Duration length, int blockedNow) {
        Interval ended = current.getAndSet(new Interval());
        long total = ended.failures.sum();
        if (total == 0) {
            return null;
        }
        List<Map.Entry<InetAddress, LongAdder>> top = ended.byAddress.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<InetAddress, LongAdder> e) -> e.getValue().sum())
                        .reversed())
                .limit(TOP).toList();
        String most = top.stream().map(e -> e.getKey().getHostAddress() + " " + e.getValue().sum())
                .collect(Collectors.joining(", "));
        boolean overflow = ended.untracked.sum() > 0;
        return "Failed HELLOs in the last " + length.toSeconds() + " s: " + total + " from "
                + (overflow ? "more than " : "") + ended.byAddress.size() + " address(es) (most: " + most + "); "
                + ended.refused.sum() + " of them refused at once from blocked addresses; " + blockedNow
                + " address(es) blocked now";
    }

    /** One interval's counts. */
    private static final class Interval {
        final LongAdder failures = new LongAdder();
        final LongAdder refused = new LongAdder();
        final LongAdder untracked = new LongAdder();
        final AtomicInteger addresses = new AtomicInteger();
        final ConcurrentHashMap<InetAddress, LongAdder> byAddress = new ConcurrentHashMap<>();

        void count(InetAddress address, boolean refusedBlocked) {
            failures.increment();
            if (refusedBlocked) {
                refused.increment();
            }
            LongAdder counter = byAddress.get(address);
            if (counter == null) {
                if (addresses.incrementAndGet() > MAX_ADDRESSES) {
                    addresses.decrementAndGet();
                    untracked.increment();
                    return;
                }
                LongAdder fresh = new LongAdder();
                counter = byAddress.putIfAbsent(address, fresh);
                if (counter == null) {
                    counter = fresh;
                } else {
                    addresses.decrementAndGet();
                }
            }
            counter.increment();
        }
    }
}
