package io.troupe.api.cluster;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Moves a tenant off this node, registered by the message server. The cluster calls it when the tenant's
 * owner is no longer this node (a node joined or is leaving), in two steps, so that the new owner starts
 * only once this one has stopped:
 *
 * <ol>
 * <li>{@link #release}: the tenant's sessions stop reading (frames the clients send meanwhile wait in the
 * network, unread, never dropped), every request they had accepted is answered, its mailboxes drain (every
 * message its actors were sent is processed: {@link io.troupe.api.TroupeRuntime#awaitTenantIdle}), and its
 * actors stop for the next owner, which stores their durable state and the exported state of the others
 * ({@link io.troupe.api.TroupeRuntime#handOverTenant}). New HELLOs of the tenant wait.</li>
 * <li>{@link #redirect}: once the new owner is known, each paused session gets BYE {@code tenant.moved}
 * with its address and is closed, and the waiting HELLOs are answered ERROR {@code tenant.moved}.</li>
 * </ol>
 *
 * A session that gets BYE {@code tenant.moved} has had an answer to every request the server read; the
 * requests it sent without an answer were never read, so its client may send them again to the new owner.
 *
 * <p><b>Threading:</b> any thread; no method blocks its caller.
 */
@ProviderType
public interface TenantHandover {

    /**
     * Pauses and drains {@code tenant} here and stops its actors.
     *
     * @param patience how long to wait for the answers and the mailboxes before stopping the actors anyway
     * @return completes, on a runtime thread, once the actors have stopped
     */
    CompletionStage<HandoverReport> release(String tenant, Duration patience);

    /**
     * Sends the paused sessions of {@code tenant}, and its waiting HELLOs, to {@code ownerAddress}
     * ({@code host:port}, or {@code ""} when not known: the clients try the other nodes they know), and
     * ends the pause: a HELLO of the tenant afterwards asks {@link TenantPlacement#claim} again.
     */
    void redirect(String tenant, String ownerAddress);

    /** The tenants with a session or an actor on this node now, sorted. */
    Set<String> activeTenants();

    /**
     * The tenants this node's server could admit now: those whose configuration it has loaded, sorted. A node
     * that a tenant's partition moves to publishes them, and the tenant's old owner keeps serving it until the
     * new one knows it (bounded), so that the tenant's clients are not sent to a node that would refuse them.
     *
     * @since 1.1
     */
    Set<String> knownTenants();
}
