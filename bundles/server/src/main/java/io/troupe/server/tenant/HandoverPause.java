package io.troupe.server.tenant;

/**
 * A tenant's handover in progress, as its sessions see it: each session, once paused and drained,
 * says so here.
 *
 * <p><b>Threading:</b> any thread (each session calls from its own IO loop).
 */
public interface HandoverPause {

    /**
     * {@code session} reads nothing more and has answered every request it had accepted: {@code answered}
     * of them were answered during the pause. Called once per session and pause.
     */
    void drained(TenantSession session, int answered);
}
