package io.troupe.api.cluster;

import java.util.concurrent.CompletionStage;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Decides which node serves each tenant, registered by the cluster bundle once this node has joined its
 * cluster. At any moment a tenant has exactly one owner, derived from the cluster engine's partitioning;
 * the owner serves the tenant only once the previous one has handed it over (or is gone).
 *
 * <p>The server asks before it welcomes a client: {@link Placement.Kind#LOCAL} admits the session,
 * {@link Placement.Kind#ELSEWHERE} answers ERROR {@code tenant.moved} with the owner's address.
 *
 * <p><b>Threading:</b> any thread; {@link #claim} never blocks: its answer may come later, on a cluster
 * thread, and the caller must hop back to its own thread before touching its state.
 */
@ProviderType
public interface TenantPlacement {

    /**
     * Where {@code tenant} is served now. When this node owns it but the previous owner is still handing
     * it over, the answer waits for the handover (bounded: {@link Placement.Kind#UNAVAILABLE} after it).
     * A {@link Placement.Kind#LOCAL} answer means this node has taken the tenant over: it serves it until
     * it hands it over through {@link TenantHandover}.
     */
    CompletionStage<Placement> claim(String tenant);

    /** This node's name in the cluster, for logs (the engine's member id). */
    String localNode();
}
