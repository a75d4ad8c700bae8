package io.troupe.host.monitor;

/**
 * A resize of one tenant's actor pool decided by the monitor.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param handler the handler name the pool serves
 * @param tenant  the tenant
 * @param from    members before
 * @param to      members after
 * @param reason  why, in words, for the log
 */
public record ActorPoolChange(String handler, String tenant, int from, int to, String reason) {

    /** Whether the pool grew. */
    public boolean grew() {
        return to > from;
    }

    @Override
    public String toString() {
        return (grew() ? "Growing" : "Shrinking") + " the actor pool of '" + handler + "' (tenant " + tenant
                + ") from " + from + " to " + to + ": " + reason;
    }
}
