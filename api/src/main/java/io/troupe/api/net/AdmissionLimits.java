package io.troupe.api.net;

/**
 * How many connections a {@link Listener} admits (since 1.2), enforced by the acceptor before a
 * connection has a loop, a handler or any buffer: over a limit, the accepted socket is closed at once
 * (with a reset, so that it leaves no TIME_WAIT behind), never left waiting in the backlog.
 *
 * <p><b>Threading:</b> an immutable record; any thread. The acceptor reads it on its own thread.
 *
 * @param maxConnections      open connections of the listener at once
 * @param maxPerAddress       open connections from one source IP address at once
 * @param maxUnauthenticated  open connections not yet {@linkplain Connection#markAuthenticated()
 *                            authenticated} at once, so that clients without credentials cannot take
 *                            the places of those with them
 */
public record AdmissionLimits(int maxConnections, int maxPerAddress, int maxUnauthenticated) {

    /** No limit at all (every count is {@link Integer#MAX_VALUE}). */
    public static final AdmissionLimits UNLIMITED =
            new AdmissionLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

    public AdmissionLimits {
        if (maxConnections < 1 || maxPerAddress < 1 || maxUnauthenticated < 1) {
            throw new IllegalArgumentException("every admission limit must be at least 1, got maxConnections "
                    + maxConnections + ", maxPerAddress " + maxPerAddress + ", maxUnauthenticated "
                    + maxUnauthenticated);
        }
    }
}
