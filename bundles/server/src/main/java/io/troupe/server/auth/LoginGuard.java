package io.troupe.server.auth;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Throttles failed HELLOs per source address: a growing delay, then a temporary block.
 *
 * <pre>
 *  failures from one address (counted until {@link #FORGET_AFTER} passes without one):
 *    1 .. 5     answered at once                          ({@link #FREE_FAILURES})
 *    6, 7, 8 …  answered after 250 ms, 500 ms, 1 s, … 4 s ({@link #FIRST_DELAY} doubling, {@link #MAX_DELAY} at most)
 *    20         the address is blocked for 5 min          ({@link #BLOCK_AFTER}, {@link #BLOCK_FOR}); its count
 *               starts again from 0 when the block ends
 *  while blocked: every HELLO from it is refused at once, without looking at its tenant or token
 * </pre>
 *
 * <p>Memory is bounded: at most {@value #MAX_ADDRESSES} addresses are tracked (about 100 bytes each);
 * {@link #sweep} forgets those whose last failure is older than {@link #FORGET_AFTER} and whose block
 * has ended. While the map is full, failures from addresses not in it are not throttled (they are still
 * counted in the log's summary, and verification stays bounded by the authenticator's queue).
 *
 * <p><b>Threading:</b> thread-safe and lock-free on the hot paths ({@link #blockedFor}, {@link #failed}):
 * a {@link ConcurrentHashMap} read, atomic counters and volatile times. Races between two failures of
 * one address can at worst count one failure late; none is lost. The clock is a parameter (nanoseconds,
 * {@code System::nanoTime} in the server) so that tests drive it.
 */
public final class LoginGuard {

    /** Failures from one address answered without delay. */
    public static final int FREE_FAILURES = 5;
    /** The delay of the first delayed failure; each next one doubles it. */
    public static final Duration FIRST_DELAY = Duration.ofMillis(250);
    /** The longest delay. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(4);
    /** The failure that blocks the address. */
    public static final int BLOCK_AFTER = 20;
    /** How long a block lasts. */
    public static final Duration BLOCK_FOR = Duration.ofMinutes(5);
    /** How long an address's failures are remembered after its last one. */
    public static final Duration FORGET_AFTER = Duration.ofMinutes(10);
    /** The most addresses tracked at once. */
    public static final int MAX_ADDRESSES = 10_000;

    private final LongSupplier nanoClock;
    private final int maxAddresses;
    private final boolean enabled;
    private final ConcurrentHashMap<InetAddress, Record> records = new ConcurrentHashMap<>();

    /** What one failure earns. */
    public record Verdict(Duration delay, boolean blocks) {
    }

    public LoginGuard(LongSupplier nanoClock) {
        this(nanoClock, MAX_ADDRESSES);
    }

    /** @param maxAddresses the most addresses tracked (tests use a small number) */
    LoginGuard(LongSupplier nanoClock, int maxAddresses) {
        this(nanoClock, maxAddresses, true);
    }

    private LoginGuard(LongSupplier nanoClock, int maxAddresses, boolean enabled) {
        this.nanoClock = nanoClock;
        this.maxAddresses = maxAddresses;
        this.enabled = enabled;
    }

    /**
     * A guard that never delays nor blocks: for test rigs that poll the server with credentials it does
     * not know yet (see {@link Authenticator#THROTTLE_PROPERTY}); never for a server on a network.
     */
    public static LoginGuard disabled(LongSupplier nanoClock) {
        return new LoginGuard(nanoClock, 0, false);
    }

    /** Whether failures are throttled at all. */
    public boolean isEnabled() {
        return enabled;
    }

    /** How long {@code address} stays blocked; {@link Duration#ZERO} when it is not. */
    public Duration blockedFor(InetAddress address) {
        Record record = records.get(address);
        if (record == null) {
            return Duration.ZERO;
        }
        long left = record.blockedUntil - nanoClock.getAsLong();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** Counts one failed HELLO from {@code address}: how long to wait before answering it, and whether it blocks. */
    public Verdict failed(InetAddress address) {
        if (!enabled) {
            return new Verdict(Duration.ZERO, false);
        }
        long now = nanoClock.getAsLong();
        Record record = records.get(address);
        if (record == null) {
            if (records.size() >= maxAddresses) {
                return new Verdict(Duration.ZERO, false); // full: see the class comment
            }
            Record fresh = new Record(now);
            record = records.putIfAbsent(address, fresh);
            if (record == null) {
                record = fresh;
            }
        }
        if (now - record.lastFailure > FORGET_AFTER.toNanos() && record.blockedUntil - now <= 0) {
            record.failures.set(0);
        }
        record.lastFailure = now;
        int failures = record.failures.incrementAndGet();
        if (failures >= BLOCK_AFTER) {
            record.blockedUntil = now + BLOCK_FOR.toNanos();
            record.failures.set(0);
            return new Verdict(MAX_DELAY, true);
        }
        return new Verdict(delayAfter(failures), false);
    }

    /** Forgets addresses with no failure for {@link #FORGET_AFTER} and no block; returns how many remain. */
    public int sweep() {
        long now = nanoClock.getAsLong();
        records.values().removeIf(record -> now - record.lastFailure > FORGET_AFTER.toNanos()
                && record.blockedUntil - now <= 0);
        return records.size();
    }

    /** Addresses blocked now. */
    public int blockedAddresses() {
        long now = nanoClock.getAsLong();
        int blocked = 0;
        for (Record record : records.values()) {
            if (record.blockedUntil - now > 0) {
                blocked++;
            }
        }
        return blocked;
    }

    /** Addresses tracked now. */
    public int size() {
        return records.size();
    }

    /** The delay of the {@code failures}-th failure in a row. */
    static Duration delayAfter(int failures) {
        if (failures <= FREE_FAILURES) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failures - FREE_FAILURES - 1, 16);
        Duration delay = FIRST_DELAY.multipliedBy(1L << doublings);
        return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
    }

    /** One address's failures. */
    private static final class Record {
        final AtomicInteger failures = new AtomicInteger();
        volatile long lastFailure;
        volatile long blockedUntil;

        Record(long now) {
            this.lastFailure = now;
            this.blockedUntil = now;
        }
    }
}
