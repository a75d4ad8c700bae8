package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;

class TenantCommandsTest {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong();
    private final TenantDirectory directory = new TenantDirectory(null, now::get);
    private final TenantCommands commands = new TenantCommands(directory, now::get);

    @Test
    void printsOneLinePerTenantSortedById() throws Exception {
        zetaServedAWindowBesideAnIdleAlpha();

        String[] lines = commands.tenants().split("\\R");
        assertEquals(3, lines.length);
        assertTrue(lines[0].startsWith("TENANT"), lines[0]);
        assertTrue(lines[1].startsWith("alpha "), lines[1]);
        assertTrue(lines[1].endsWith("unlimited"), lines[1]);
        assertEquals(java.util.List.of("zeta", "0/4", "25", "2.5", "1", "100/s"),
                java.util.List.of(lines[2].trim().split(" +")));
    }

    @Test
    void theServerStatsServiceGivesTheSameFiguresAsRecords() throws Exception {
        zetaServedAWindowBesideAnIdleAlpha();

        assertEquals(java.util.List.of(
                new TenantStats("alpha", 0, 1000, 0, 0.0, 0, 0), // the defaults: 1000 connections, no rate limit
                new TenantStats("zeta", 0, 4, 25, 2.5, 1, 100)), new ServerStatistics(directory).tenants());
    }

    /** Zeta (4 connections, 100/s) got 25 requests and one error in a 10 s window; alpha has defaults. */
    private void zetaServedAWindowBesideAnIdleAlpha() throws Exception {
        directory.serve(TenantConfig.from(null, Map.of("tenant", "zeta", "token", "z",
                "maxConnections", "4", "maxRequestsPerSecond", "100")));
        directory.serve(TenantConfig.from(null, Map.of("tenant", "alpha", "token", "a")));
        Tenant zeta = directory.find("zeta").orElseThrow();
        for (int i = 0; i < 25; i++) {
            zeta.metrics().countRequest();
        }
        zeta.metrics().countError();
        now.addAndGet(10 * SECOND);
        commands.sample();
    }

    @Test
    void saysSoWithoutTenants() {
        assertTrue(commands.tenants().contains("(no tenant configured)"));
    }
}
