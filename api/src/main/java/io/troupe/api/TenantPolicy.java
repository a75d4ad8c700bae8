package io.troupe.api;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the runtime enforces for the actors of one tenant: its share of the worker pool and its
 * limits. The message server sets each tenant's policy from its configuration file
 * ({@link TroupeRuntime#configureTenant}); a tenant nobody configured runs under {@link #defaults()}.
 *
 * <ul>
 *   <li>{@code weight}: when several tenants have actors ready to run, workers serve them in
 *       proportion to their weights, counted in worker time (not in messages). Default 1.</li>
 *   <li>{@code maxActors}: live actors the tenant may have; spawning one more fails with
 *       {@link ErrorCode#TENANT_LIMIT_ACTORS}. 0 (the default) for no limit.</li>
 *   <li>{@code maxQueuedMessages}: messages that may wait in all the tenant's mailboxes together
 *       before producers that watch it ({@link TroupeRuntime#awaitTenantDrain}) pause. Nothing
 *       already sent is refused or dropped on its account. 0 (the default) for no limit.</li>
 *   <li>{@code handlers}: the handler names the tenant may use; any other name is, for it, a name no
 *       handler serves. Empty (the default) allows every handler.</li>
 * </ul>
 *
 * <p>Immutable; {@code with*} methods return a copy.
 *
 * <p><b>Threading:</b> safe to share between threads.
 */
public final class TenantPolicy {

    /** The largest weight a tenant may have. */
    public static final int MAX_WEIGHT = 1000;

    private static final TenantPolicy DEFAULTS = new TenantPolicy(1, 0, 0, Set.of());

    private final int weight;
    private final int maxActors;
    private final int maxQueuedMessages;
    private final Set<String> handlers;

    private TenantPolicy(int weight, int maxActors, int maxQueuedMessages, Set<String> handlers) {
        this.weight = weight;
        this.maxActors = maxActors;
        this.maxQueuedMessages = maxQueuedMessages;
        this.handlers = handlers;
    }

    /** Weight 1, no limits, every handler. */
    public static TenantPolicy defaults() {
        return DEFAULTS;
    }

    /** A copy with another weight, from 1 to {@value #MAX_WEIGHT}. */
    public TenantPolicy withWeight(int newWeight) {
        if (newWeight < 1 || newWeight > MAX_WEIGHT) {
            throw new IllegalArgumentException("tenant weight must be from 1 to " + MAX_WEIGHT + ", was " + newWeight);
        }
        return new TenantPolicy(newWeight, maxActors, maxQueuedMessages, handlers);
    }

    /** A copy with another actor limit; 0 for none. */
    public TenantPolicy withMaxActors(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("maxActors must not be negative, was " + limit);
        }
        return new TenantPolicy(weight, limit, maxQueuedMessages, handlers);
    }

    /** A copy with another limit of queued messages; 0 for none. */
    public TenantPolicy withMaxQueuedMessages(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("maxQueuedMessages must not be negative, was " + limit);
        }
        return new TenantPolicy(weight, maxActors, limit, handlers);
    }

    /** A copy that allows only the handlers named in {@code names}; an empty set allows every handler. */
    public TenantPolicy withHandlers(Set<String> names) {
        Objects.requireNonNull(names, "names");
        for (String name : names) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("handler names must not be blank: " + names);
            }
        }
        return new TenantPolicy(weight, maxActors, maxQueuedMessages, Set.copyOf(new TreeSet<>(names)));
    }

    /** The tenant's share of the worker pool relative to other tenants; at least 1. */
    public int weight() {
        return weight;
    }

    /** Live actors allowed; 0 for no limit. */
    public int maxActors() {
        return maxActors;
    }

    /** Messages allowed to wait in the tenant's mailboxes before watching producers pause; 0 for no limit. */
    public int maxQueuedMessages() {
        return maxQueuedMessages;
    }

    /** The handler names allowed; empty when every handler is. */
    public Set<String> handlers() {
        return handlers;
    }

    /** Whether the tenant may use the handler of {@code handlerName}. */
    public boolean allows(String handlerName) {
        return handlers.isEmpty() || handlers.contains(handlerName);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TenantPolicy that && weight == that.weight && maxActors == that.maxActors
                && maxQueuedMessages == that.maxQueuedMessages && handlers.equals(that.handlers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(weight, maxActors, maxQueuedMessages, handlers);
    }

    @Override
    public String toString() {
        return "TenantPolicy[weight=" + weight + ", maxActors=" + (maxActors == 0 ? "unlimited" : maxActors)
                + ", maxQueuedMessages=" + (maxQueuedMessages == 0 ? "unlimited" : maxQueuedMessages)
                + ", handlers=" + (handlers.isEmpty() ? "all" : new TreeSet<>(handlers)) + "]";
    }
}
