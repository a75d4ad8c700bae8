package io.troupe.server.admission;

import java.util.OptionalLong;

import io.troupe.api.net.AdmissionLimits;

/**
 * How many connections the server admits, from the configured values ({@code 0}: derived) and the
 * process's file-descriptor limit {@code L}:
 *
 * <table>
 * <caption>Defaults</caption>
 * <tr><th>key</th><th>default</th><th>why</th></tr>
 * <tr><td>{@code reservedFileDescriptors}</td><td>max(64, L / 8)</td><td>the server's own files (jars,
 *     log, deploy watcher, framework cache, plugins' files and sockets) must never fail with EMFILE
 *     because clients took every descriptor</td></tr>
 * <tr><td>{@code maxConnections}</td><td>L − reserve (at least 1)</td><td>each connection is one
 *     descriptor</td></tr>
 * <tr><td>{@code maxUnauthenticatedConnections}</td><td>max(16, maxConnections / 4)</td><td>clients
 *     without credentials can hold at most a quarter of the places, so three quarters stay for sessions
 *     that authenticated; a quarter still absorbs every client reconnecting at once after a restart</td></tr>
 * <tr><td>{@code maxConnectionsPerAddress}</td><td>max(16, maxConnections / 8)</td><td>one address
 *     alone can take at most half of the unauthenticated places and an eighth of all</td></tr>
 * </table>
 * Every derived value is at most {@code maxConnections}. Where the JVM does not report the limit,
 * {@value #ASSUMED_LIMIT} is assumed (the usual soft limit is 1024 or more; a smaller assumption would
 * refuse clients a bigger limit admits).
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param fileLimit          the process's descriptor limit, or empty when unknown
 * @param reserved           descriptors kept for the server
 * @param limits             what the listener admits
 * @param maxConnectionsGiven whether {@code maxConnections} was configured (not derived)
 */
public record AdmissionPolicy(OptionalLong fileLimit, long reserved, AdmissionLimits limits,
                              boolean maxConnectionsGiven) {

    static final long ASSUMED_LIMIT = 4096;
    static final int MIN_RESERVE = 64;
    static final int MIN_DERIVED = 16;

    /**
     * The policy for the configured values (each 0 = derived) under {@code fileLimit}.
     */
    public static AdmissionPolicy of(OptionalLong fileLimit, int maxConnections, int maxPerAddress,
            int maxUnauthenticated, int reservedFileDescriptors) {
        long limit = fileLimit.orElse(ASSUMED_LIMIT);
        long reserve = reservedFileDescriptors > 0 ? reservedFileDescriptors : Math.max(MIN_RESERVE, limit / 8);
        int connections = maxConnections > 0 ? maxConnections : (int) Math.min(Integer.MAX_VALUE,
                Math.max(1, limit - reserve));
        int perAddress = maxPerAddress > 0 ? maxPerAddress : derived(connections, 8);
        int unauthenticated = maxUnauthenticated > 0 ? maxUnauthenticated : derived(connections, 4);
        return new AdmissionPolicy(fileLimit, reserve, new AdmissionLimits(connections,
                Math.min(perAddress, connections), Math.min(unauthenticated, connections)), maxConnections > 0);
    }

    private static int derived(int connections, int divisor) {
        return Math.min(connections, Math.max(MIN_DERIVED, connections / divisor));
    }

    /**
     * When the configured {@code maxConnections} would eat into the reserve, why that is a risk; else
     * {@code null}.
     */
    public String overcommitment() {
        if (!maxConnectionsGiven || fileLimit.isEmpty()) {
            return null;
        }
        long room = fileLimit.getAsLong() - reserved;
        if (limits.maxConnections() <= room) {
            return null;
        }
        return "maxConnections " + limits.maxConnections() + " is more than the file-descriptor limit "
                + fileLimit.getAsLong() + " less the " + reserved + " reserved: a flood could make the server fail "
                + "to open its own files; raise the limit (ulimit -n) or lower maxConnections";
    }

    /** The line logged at start. */
    public String describe() {
        String limit = fileLimit.isPresent() ? "file-descriptor limit " + fileLimit.getAsLong()
                : "file-descriptor limit unknown, " + ASSUMED_LIMIT + " assumed";
        return "at most " + limits.maxConnections() + " connections, " + limits.maxPerAddress()
                + " per address, " + limits.maxUnauthenticated() + " unauthenticated (" + limit + ", "
                + reserved + " reserved for the server)";
    }
}
