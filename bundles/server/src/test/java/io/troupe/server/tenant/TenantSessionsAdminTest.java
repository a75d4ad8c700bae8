package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.admin.TenantSessions;

/**
 * The operators' disconnect ({@link TenantSessionsAdmin}) on a real {@link TenantDirectory}: every open session
 * of the tenant, and only of that tenant, is told to say BYE with the administrator's reason; the tenant stays.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class TenantSessionsAdminTest {

    /** A session that records what it was told. */
    private static final class RecordingSession implements TenantSession {
        final List<String> told = new ArrayList<>();

        @Override
        public void tenantRemoved(Tenant tenant, String reason) {
            told.add("removed " + tenant.id() + ": " + reason);
        }

        @Override
        public void disconnect(Tenant tenant, String reason) {
            told.add("disconnect " + tenant.id() + ": " + reason);
        }

        @Override
        public void handOver(HandoverPause pause) {
            told.add("handOver");
        }

        @Override
        public void redirect(String address) {
            told.add("redirect " + address);
        }
    }

    private final TenantDirectory directory = new TenantDirectory(null, new AtomicLong()::get);
    private final TenantSessions admin = new TenantSessionsAdmin(directory);

    @Test
    void disconnectingATenantTellsEachOfItsSessionsAndNoOtherTenantsAndKeepsTheTenant() throws Exception {
        directory.serve(TenantConfig.from(null, Map.of("tenant", "alpha", "tokenHash", TestTokens.HASH)));
        directory.serve(TenantConfig.from(null, Map.of("tenant", "beta", "tokenHash", TestTokens.HASH)));
        RecordingSession first = new RecordingSession();
        RecordingSession second = new RecordingSession();
        RecordingSession other = new RecordingSession();
        Tenant alpha = directory.find("alpha").orElseThrow();
        assertEquals(Tenant.Admission.ADMITTED, alpha.admit(first));
        assertEquals(Tenant.Admission.ADMITTED, alpha.admit(second));
        assertEquals(Tenant.Admission.ADMITTED, directory.find("beta").orElseThrow().admit(other));

        assertEquals(2, admin.disconnect("alpha"));

        assertEquals(List.of("disconnect alpha: " + TenantSessions.DISCONNECTED), first.told);
        assertEquals(List.of("disconnect alpha: " + TenantSessions.DISCONNECTED), second.told);
        assertTrue(other.told.isEmpty(), other.told::toString);
        assertEquals(Set.of("alpha", "beta"), admin.tenants());
    }

    @Test
    void aTenantWithoutSessionsHasNoneToDisconnect() throws Exception {
        directory.serve(TenantConfig.from(null, Map.of("tenant", "alpha", "tokenHash", TestTokens.HASH)));

        assertEquals(0, admin.disconnect("alpha"));
    }

    @Test
    void anUnknownTenantIsRefusedByName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> admin.disconnect("nobody"));

        assertEquals("no tenant 'nobody' is configured", refused.getMessage());
    }
}
