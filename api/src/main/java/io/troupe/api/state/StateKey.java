package io.troupe.api.state;

import java.util.Objects;

/**
 * Where a durable actor's state is stored: stable across restarts, unlike the actor's runtime id.
 *
 * <pre>
 * new StateKey("acme", "handler:counter.add", "handler:counter.add@acme")          // a handler actor
 * new StateKey("acme", "factory:chat.room", "handler:chat.join@acme/room-lobby")  // its child "room-lobby"
 * </pre>
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param tenant the tenant the actor belongs to; empty for actors of no tenant
 * @param origin where the actor's code comes from: {@code handler:<first message name>},
 *               {@code factory:<factory name>}, or the class that wrote an anonymous factory
 * @param path   the actor's names from its top-level ancestor down, separated by {@code /}
 */
public record StateKey(String tenant, String origin, String path) {

    public StateKey {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(path, "path");
        if (origin.isEmpty() || path.isEmpty()) {
            throw new IllegalArgumentException("a state key needs an origin and a path, was " + origin + " " + path);
        }
    }

    /** The origin of {@link #movedActors}: no actor's code comes from it. */
    public static final String MOVED_ACTORS_ORIGIN = "troupe:moved";

    /**
     * Where the states of {@code tenant}'s actors that are not durable wait for the node the tenant moved
     * to ({@link io.troupe.api.TroupeRuntime#handOverTenant}); one entry per tenant (since 1.1).
     */
    public static StateKey movedActors(String tenant) {
        return new StateKey(tenant, MOVED_ACTORS_ORIGIN, MOVED_ACTORS_ORIGIN);
    }

    /** Whether this is a tenant's {@link #movedActors} entry rather than one actor's state (since 1.1). */
    public boolean isMovedActors() {
        return origin.equals(MOVED_ACTORS_ORIGIN) && path.equals(MOVED_ACTORS_ORIGIN);
    }

    @Override
    public String toString() {
        return (tenant.isEmpty() ? "-" : tenant) + " " + origin + " " + path;
    }
}
