package io.troupe.server.itest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.inject.Inject;

import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.TestClient;

/**
 * Tenants follow their ConfigAdmin configurations while the server runs: added, changed and deleted
 * within seconds, and a bad configuration leaves the tenant as it was.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TenantsIT extends ServerTest {

    private static ServerControl server;

    @Inject
    private BundleContext context;

    @Before
    public void serverRuns() throws Exception {
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of());
            server.addTenant("first");
            server.start();
        }
    }

    @Test
    public void aTenantAddedWhileTheServerRunsIsServedWithinSeconds() throws IOException {
        String token = server.addTenant("newcomer");
        try (TestClient client = server.openWhenServed("newcomer", token)) {
            ProtocolErrorsIT.assertEcho(client, 1, "welcome aboard");
        }
    }

    @Test
    public void theServerStatsServiceCountsATenantsConnectionsAndRequests() throws IOException {
        ServiceReference<ServerStats> reference = context.getServiceReference(ServerStats.class);
        assertNotNull("the server registers its statistics", reference);
        ServerStats stats = context.getService(reference);
        try {
            String token = server.addTenant("counted", "maxConnections", "7");
            try (TestClient client = server.openWhenServed("counted", token)) {
                ProtocolErrorsIT.assertEcho(client, 1, "count me");
                TenantStats counted = tenant(stats, "counted");
                assertEquals(1, counted.connections());
                assertEquals(7, counted.maxConnections());
                assertTrue("requests counted: " + counted, counted.requests() >= 1);
            }
            Await.until("the closed connection is no longer counted", () -> tenant(stats, "counted").connections() == 0,
                    () -> String.valueOf(tenant(stats, "counted")));
        } finally {
            context.ungetService(reference);
        }
    }

    @Test
    public void theServerStatsServiceSaysWhichLimitThrottlesATenantAndForHowLong() throws IOException {
        ServiceReference<ServerStats> reference = context.getServiceReference(ServerStats.class);
        ServerStats stats = context.getService(reference);
        try {
            String token = server.addTenant("slowed", "maxBytesPerSecond", "4096", "maxFrameBytes", "2048",
                    "weight", "5", "handlers", "echo");
            try (TestClient client = server.openWhenServed("slowed", token)) {
                List<Frame> pipeline = new ArrayList<>();
                for (int i = 1; i <= 12; i++) {
                    pipeline.add(Frame.request(i, "echo", new byte[1000]));
                }
                client.sendAll(pipeline);
                Await.until("the byte rate throttles the tenant",
                        () -> tenant(stats, "slowed").throttledBy().contains(TenantStats.BYTES_PER_SECOND),
                        () -> String.valueOf(tenant(stats, "slowed")));
                for (int i = 1; i <= 12; i++) {
                    Frame reply = client.next();
                    assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
                    assertEquals(i, reply.corrId());
                }
                TenantStats slowed = tenant(stats, "slowed");
                assertTrue(slowed.toString(), slowed.throttledNanos(TenantStats.BYTES_PER_SECOND) > 1_000_000_000L);
                assertEquals(0, slowed.throttledNanos(TenantStats.REQUESTS_PER_SECOND));
                assertTrue(slowed.toString(), slowed.bytesReceived() >= 12 * 1000);
                assertEquals(4096, slowed.maxBytesPerSecond());
                assertEquals(2048, slowed.maxFrameBytes());
                assertEquals(5, slowed.weight());
                assertEquals(Set.of("echo"), slowed.handlers());
            }
        } finally {
            context.ungetService(reference);
        }
    }

    private static TenantStats tenant(ServerStats stats, String id) {
        return stats.tenants().stream().filter(tenant -> tenant.tenant().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no tenant " + id + " in " + stats.tenants()));
    }

    @Test
    public void aTenantFromAFileInstallFileTakesItsIdFromTheFileName() throws IOException {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("felix.fileinstall.filename", "file:/opt/troupe/etc/io.troupe.tenant-filed.cfg");
        properties.put("token", "from-a-file-from-a-file-from-a-file");
        server.updateTenant("filed", properties);
        server.awaitTenant("filed", "from-a-file-from-a-file-from-a-file");
    }

    @Test
    public void aChangedTokenAppliesToNewConnectionsWhileOpenSessionsGoOn() throws IOException {
        String oldToken = server.addTenant("rotating");
        try (TestClient open = server.openWhenServed("rotating", oldToken)) {
            Hashtable<String, Object> properties = new Hashtable<>();
            properties.put("tenant", "rotating");
            properties.put("token", "the-new-token-the-new-token-the-new-token");
            server.updateTenant("rotating", properties);
            server.awaitTenant("rotating", "the-new-token-the-new-token-the-new-token");
            assertFalse(server.welcomes("rotating", oldToken));
            ProtocolErrorsIT.assertEcho(open, 1, "still served");
        }
    }

    @Test
    public void aChangedConnectionLimitAppliesToTheNextHello() throws IOException {
        String token = server.addTenant("growing", "maxConnections", "1");
        try (TestClient first = server.openWhenServed("growing", token)) {
            ProtocolErrorsIT.assertEcho(first, 1, "the one allowed");
            assertFalse("the limit is 1", server.welcomes("growing", token));
            Hashtable<String, Object> properties = new Hashtable<>();
            properties.put("tenant", "growing");
            properties.put("token", token);
            properties.put("maxConnections", "2");
            server.updateTenant("growing", properties);
            try (TestClient second = server.openWhenServed("growing", token)) {
                ProtocolErrorsIT.assertEcho(second, 1, "room for two");
            }
        }
    }

    @Test
    public void deletingATenantSaysByeToItsSessionsAndClosesThem() throws IOException {
        String token = server.addTenant("leaving");
        try (TestClient a = server.openWhenServed("leaving", token);
             TestClient b = server.openWhenServed("leaving", token)) {
            server.deleteTenant("leaving");
            for (TestClient client : List.of(a, b)) {
                List<Frame> frames = client.untilClosed();
                assertEquals(frames.toString(), 1, frames.size());
                assertEquals(FrameType.BYE, frames.get(0).type());
            }
        }
        try (TestClient late = TestClient.connect(server.port())) {
            late.send(Frame.hello(4, "leaving", token));
            ProtocolErrorsIT.assertErrorThenClose(late, ErrorCode.AUTH_FAILED, 4);
        }
    }

    @Test
    public void aBadConfigurationIsRejectedAndTheTenantKeepsItsPreviousState() throws IOException {
        String token = server.addTenant("steady", "maxConnections", "5");
        server.awaitTenant("steady", token);

        Hashtable<String, Object> bad = new Hashtable<>();
        bad.put("tenant", "steady");
        bad.put("token", "would-be-new-would-be-new-would-be-new");
        bad.put("maxConnections", "-1");
        server.updateTenant("steady", bad);
        Hashtable<String, Object> noToken = new Hashtable<>();
        noToken.put("tenant", "steady");
        server.updateTenant("steady", noToken);
        server.addTenant("bad id!");
        // Configuration events arrive in order: once a later one is applied, the bad ones were handled.
        String sentinel = server.addTenant("sentinel");
        server.awaitTenant("sentinel", sentinel);

        assertTrue("the previous token still works", server.welcomes("steady", token));
        assertFalse("the rejected token does not", server.welcomes("steady", "would-be-new-would-be-new-would-be-new"));
    }
}
