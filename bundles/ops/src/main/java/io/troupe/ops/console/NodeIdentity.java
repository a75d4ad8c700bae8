package io.troupe.ops.console;

import java.time.Instant;
import java.util.Objects;

/**
 * Which Troupe process the console shows: what the overview's {@code node} member says.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param host      the machine's host name
 * @param pid       the process id
 * @param server    the message server's address ({@code host:port}), or null while it does not listen
 * @param cluster   this member's cluster address, or null when not clustered
 * @param version   the host bundle's version: the Troupe runtime's
 * @param startedAt when the JVM started
 */
record NodeIdentity(String host, long pid, String server, String cluster, String version, Instant startedAt) {

    NodeIdentity {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
