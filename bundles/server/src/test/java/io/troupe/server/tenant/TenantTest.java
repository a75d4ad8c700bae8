package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.server.credential.TokenHash;

class TenantTest {

    private final AtomicLong now = new AtomicLong();

    @Test
    void sessionsAreAdmittedUpToTheConnectionLimitAndReleasedOnce() throws Exception {
        Tenant tenant = new Tenant(config(Map.of("maxConnections", "2")), now::get);
        RecordingSession a = new RecordingSession();
        RecordingSession b = new RecordingSession();
        RecordingSession c = new RecordingSession();
        assertEquals(Tenant.Admission.ADMITTED, tenant.admit(a));
        assertEquals(Tenant.Admission.ADMITTED, tenant.admit(b));
        assertEquals(Tenant.Admission.QUOTA_EXCEEDED, tenant.admit(c));
        tenant.leave(a);
        tenant.leave(a);
        assertEquals(1, tenant.connections());
        assertEquals(Tenant.Admission.ADMITTED, tenant.admit(c));
    }

    @Test
    void removingATenantAsksEverySessionToCloseAndAdmitsNoMore() throws Exception {
        Tenant tenant = new Tenant(config(Map.of()), now::get);
        RecordingSession a = new RecordingSession();
        tenant.admit(a);
        assertEquals(1, tenant.remove("tenant removed"));
        assertEquals(List.of(tenant), a.removals);
        assertEquals(List.of("tenant removed"), a.reasons);
        assertEquals(Tenant.Admission.REMOVED, tenant.admit(new RecordingSession()));
        assertTrue(tenant.isRemoved());
    }

    @Test
    void theRateIsSharedByAllSessionsAndUnlimitedByDefault() throws Exception {
        Tenant unlimited = new Tenant(config(Map.of()), now::get);
        for (int i = 0; i < 100_000; i++) {
            assertTrue(unlimited.tryAcquireRequest());
        }
        Tenant limited = new Tenant(config(Map.of("maxRequestsPerSecond", "3")), now::get);
        assertTrue(limited.tryAcquireRequest());
        assertTrue(limited.tryAcquireRequest());
        assertTrue(limited.tryAcquireRequest());
        assertFalse(limited.tryAcquireRequest());
    }

    @Test
    void anUpdateChangesTheLimitsAndKeepsTheRateUnlessItChanged() throws Exception {
        Tenant tenant = new Tenant(config(Map.of("maxRequestsPerSecond", "1")), now::get);
        assertTrue(tenant.tryAcquireRequest());
        tenant.update(config(Map.of("maxRequestsPerSecond", "1", "maxConnections", "5")));
        assertFalse(tenant.tryAcquireRequest(), "same rate: the bucket is still empty");
        assertEquals(5, tenant.config().maxConnections());
        tenant.update(config(Map.of("maxRequestsPerSecond", "0")));
        assertTrue(tenant.tryAcquireRequest());
    }

    @Test
    void inboundBytesShareOneBucketThatALargeFrameRunsIntoDebt() throws Exception {
        Tenant tenant = new Tenant(config(Map.of("maxBytesPerSecond", "1000")), now::get);
        assertTrue(tenant.tryAcquireBytes(600));
        assertTrue(tenant.tryAcquireBytes(4000), "room left: a frame larger than the bucket still passes");
        assertFalse(tenant.tryAcquireBytes(1));
        assertEquals(3_601_000_000L, tenant.nanosUntilAvailable(ThrottleLimit.BYTES_PER_SECOND),
                "4600 bytes taken at 1000 bytes/s: room for one byte again 3.601 s later");
        now.addAndGet(3_601_000_000L - 1);
        assertFalse(tenant.tryAcquireBytes(1));
        now.addAndGet(1);
        assertTrue(tenant.tryAcquireBytes(1));
        assertEquals(0, new Tenant(config(Map.of()), now::get).nanosUntilAvailable(ThrottleLimit.BYTES_PER_SECOND));
    }

    @Test
    void sessionsAreToldWhenTheLimitsChangeButNotWhenOnlyTheTokenDoes() throws Exception {
        Tenant tenant = new Tenant(config(Map.of()), now::get);
        RecordingSession session = new RecordingSession();
        tenant.admit(session);
        tenant.update(TenantConfig.from(null, Map.of("tenant", "a", "tokenHash",
                TokenHash.of("o".repeat(32), TokenHash.MIN_ITERATIONS, new java.security.SecureRandom()).format())));
        assertEquals(List.of(), session.changes);
        tenant.update(config(Map.of("maxFrameBytes", "4096")));
        assertEquals(List.of(tenant), session.changes);
        assertEquals(4096, tenant.config().limits().frameLimit(1 << 20));
        assertEquals(2048, tenant.config().limits().frameLimit(2048), "only lowers the server's");
    }

    @Test
    void aChangedTokenIsTheTenantsFromNowOn() throws Exception {
        Tenant tenant = new Tenant(config(Map.of()), now::get);
        assertTrue(tenant.config().tokenHash().verify(TestTokens.TOKEN));
        String other = "u".repeat(32);
        tenant.update(TenantConfig.from(null, Map.of("tenant", "a", "tokenHash",
                TokenHash.of(other, TokenHash.MIN_ITERATIONS, new java.security.SecureRandom()).format())));
        assertFalse(tenant.config().tokenHash().verify(TestTokens.TOKEN));
        assertTrue(tenant.config().tokenHash().verify(other));
    }

    private static TenantConfig config(Map<String, Object> limits) throws TenantConfigException {
        Map<String, Object> properties = new java.util.HashMap<>(limits);
        properties.put("tenant", "a");
        properties.put("tokenHash", TestTokens.HASH);
        return TenantConfig.from(null, properties);
    }

    private static final class RecordingSession implements TenantSession {
        final List<Tenant> removals = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        final List<Tenant> changes = new ArrayList<>();

        @Override
        public void tenantRemoved(Tenant tenant, String reason) {
            removals.add(tenant);
            reasons.add(reason);
        }

        @Override
        public void tenantChanged(Tenant tenant) {
            changes.add(tenant);
        }

        @Override
        public void handOver(HandoverPause pause) {
            pause.drained(this, 0);
        }

        @Override
        public void redirect(String address) {
            reasons.add("moved to " + address);
        }
    }
}
