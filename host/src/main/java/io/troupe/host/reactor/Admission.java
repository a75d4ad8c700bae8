package io.troupe.host.reactor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.net.AdmissionLimits;

/**
 * One listener's {@link AdmissionLimits} and counts: its open connections, per source address, and
 * those not yet authenticated. The acceptor asks {@link #admit} for each accepted socket before
 * anything else exists for it; an admitted connection holds a {@link Ticket}, which it returns once
 * when it closes, and through which it says once that it has authenticated.
 *
 * <pre>
 *  accept ─► admit(address) ─ over a limit ─► refused: the socket is reset at once, the refusal counted
 *                            └ within ──────► Ticket ── authenticated() ─► unauthenticated − 1
 *                                                     └ released() ──────► every count − 1
 * </pre>
 *
 * Refusals are logged as counts, at most one WARN line per {@value #LOG_INTERVAL_SECONDS} s (by
 * limit, with the address refused most), never one line per connection.
 *
 * <p><b>Threading:</b> confined to the acceptor loop. A ticket may be used from any thread: it hands
 * its changes to the acceptor loop, each at most once.
 */
final class Admission {

    /** What an admitted connection returns. <b>Threading:</b> any thread; each method acts once. */
    interface Ticket {

        /** For a listener without limits. */
        Ticket NONE = new Ticket() {
            @Override
            public void authenticated() {
            }

            @Override
            public void released() {
            }
        };

        /** The connection has authenticated: it no longer counts as unauthenticated. */
        void authenticated();

        /** The connection has closed. */
        void released();
    }

    /** Why a connection was refused. */
    enum Refusal { CONNECTIONS, PER_ADDRESS, UNAUTHENTICATED }

    static final long LOG_INTERVAL_SECONDS = 10;
    /** Addresses remembered per report, so that a refusal flood from many addresses stays small. */
    private static final int MAX_REFUSED_ADDRESSES = 1024;
    private static final Logger LOG = LoggerFactory.getLogger(Admission.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS);

    private final EventLoop loop;
    private final AdmissionLimits limits;
    private final String listenerName;
    private final Map<InetAddress, int[]> perAddress = new HashMap<>();
    private int open;
    private int unauthenticated;
    // Refusals not reported yet.
    private final long[] refused = new long[Refusal.values().length];
    private final Map<InetAddress, int[]> refusedByAddress = new HashMap<>();
    private long lastReportNanos;
    private boolean reportScheduled;

    Admission(EventLoop loop, AdmissionLimits limits, String listenerName) {
        this.loop = loop;
        this.limits = limits;
        this.listenerName = listenerName;
        this.lastReportNanos = System.nanoTime() - LOG_INTERVAL_NANOS;
    }

    /**
     * Admits a connection from {@code address}, counting it, or refuses it.
     *
     * @return the ticket of an admitted connection, or null when it is refused
     */
    Ticket admit(InetAddress address) {
        loop.assertInLoop();
        Refusal refusal = check(address);
        if (refusal != null) {
            countRefusal(refusal, address);
            return null;
        }
        open++;
        unauthenticated++;
        perAddress.computeIfAbsent(address, a -> new int[1])[0]++;
        return new CountedTicket(address);
    }

    private Refusal check(InetAddress address) {
        if (open >= limits.maxConnections()) {
            return Refusal.CONNECTIONS;
        }
        int[] fromAddress = perAddress.get(address);
        if (fromAddress != null && fromAddress[0] >= limits.maxPerAddress()) {
            return Refusal.PER_ADDRESS;
        }
        if (unauthenticated >= limits.maxUnauthenticated()) {
            return Refusal.UNAUTHENTICATED;
        }
        return null;
    }

    /** Open connections. On the acceptor loop. */
    int open() {
        return open;
    }

    /** Open connections not yet authenticated. On the acceptor loop. */
    int unauthenticated() {
        return unauthenticated;
    }

    private void release(InetAddress address, boolean stillUnauthenticated) {
        open--;
        if (stillUnauthenticated) {
            unauthenticated--;
        }
        int[] count = perAddress.get(address);
        if (count != null && --count[0] == 0) {
            perAddress.remove(address);
        }
    }

    // ---- refusals, reported as counts ---------------------------------------------------------------

    private void countRefusal(Refusal refusal, InetAddress address) {
        refused[refusal.ordinal()]++;
        if (refusedByAddress.size() < MAX_REFUSED_ADDRESSES || refusedByAddress.containsKey(address)) {
            refusedByAddress.computeIfAbsent(address, a -> new int[1])[0]++;
        }
        long now = System.nanoTime();
        if (now - lastReportNanos >= LOG_INTERVAL_NANOS) {
            report(now);
        } else if (!reportScheduled) {
            reportScheduled = true;
            loop.schedule(() -> {
                reportScheduled = false;
                report(System.nanoTime());
            }, Duration.ofNanos(LOG_INTERVAL_NANOS - (now - lastReportNanos)));
        }
    }

    private void report(long now) {
        long total = 0;
        for (long count : refused) {
            total += count;
        }
        if (total == 0) {
            return;
        }
        InetAddress top = null;
        int topCount = 0;
        for (Map.Entry<InetAddress, int[]> entry : refusedByAddress.entrySet()) {
            if (entry.getValue()[0] > topCount) {
                top = entry.getKey();
                topCount = entry.getValue()[0];
            }
        }
        LOG.warn("Refused {} connections on {} since the last report: {} over maxConnections ({}), {} over the limit "
                + "per address ({}), {} over the limit of unauthenticated connections ({}); from {}{} addresses, most "
                + "from {} ({}); open now: {}, unauthenticated: {}", total, listenerName,
                refused[Refusal.CONNECTIONS.ordinal()], limits.maxConnections(),
                refused[Refusal.PER_ADDRESS.ordinal()], limits.maxPerAddress(),
                refused[Refusal.UNAUTHENTICATED.ordinal()], limits.maxUnauthenticated(),
                refusedByAddress.size() >= MAX_REFUSED_ADDRESSES ? "at least " : "", refusedByAddress.size(),
                top == null ? "?" : top.getHostAddress(), topCount, open, unauthenticated);
        Arrays.fill(refused, 0);
        refusedByAddress.clear();
        lastReportNanos = now;
    }

    /** A ticket counted in this admission; its changes go to the acceptor loop. */
    private final class CountedTicket implements Ticket {

        private static final int AUTHENTICATED = 1;
        private static final int RELEASED = 2;
        private static final VarHandle FLAGS;

        static {
            try {
                FLAGS = MethodHandles.lookup().findVarHandle(CountedTicket.class, "flags", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final InetAddress address;
        /** {@link #AUTHENTICATED} and {@link #RELEASED}, each set once, in one field: one CAS decides each. */
        private volatile int flags;

        CountedTicket(InetAddress address) {
            this.address = address;
        }

        @Override
        public void authenticated() {
            int seen;
            do {
                seen = flags;
                if (seen != 0) {
                    return; // authenticated already, or released (which counted it)
                }
            } while (!FLAGS.compareAndSet(this, seen, AUTHENTICATED));
            loop.execute(() -> unauthenticated--);
        }

        @Override
        public void released() {
            int seen;
            do {
                seen = flags;
                if ((seen & RELEASED) != 0) {
                    return;
                }
                // claims the authentication too, so that a late authenticated() cannot count twice
            } while (!FLAGS.compareAndSet(this, seen, AUTHENTICATED | RELEASED));
            boolean stillUnauthenticated = (seen & AUTHENTICATED) == 0;
            loop.execute(() -> release(address, stillUnauthenticated));
        }
    }
}
