package io.troupe.cluster.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;

import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.Placement;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.api.cluster.TenantPlacement;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.state.StateStore;
import io.troupe.cluster.engine.TestNodes;

/**
 * The component as SCR drives it, with a bundle context that records registrations: a refused configuration
 * joins nothing; a good one registers the replicated store, the placement and the view in that order, and
 * deactivation leaves within its budget, releasing and redirecting the tenants and unregistering in reverse.
 *
 * <p><b>Threading:</b> JUnit's thread plays SCR; the component starts its member on its own thread.
 */
class ClusterComponentTest {

    @TempDir
    Path home;

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<Object[]> registrations = new CopyOnWriteArrayList<>();

    private BundleContext context() {
        return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getProperty" -> "troupe.home".equals(args[0]) ? home.toString() : null;
                    case "registerService" -> register((Class<?>) args[0], args[1], (Dictionary<?, ?>) args[2]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private ServiceRegistration<?> register(Class<?> type, Object service, Dictionary<?, ?> properties) {
        events.add("register " + type.getSimpleName());
        registrations.add(new Object[] {type, service, properties});
        return (ServiceRegistration<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ServiceRegistration.class}, (proxy, method, args) -> {
                    if (method.getName().equals("unregister")) {
                        events.add("unregister " + type.getSimpleName());
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Records releases (completed at once) and redirects. */
    private final class Handover implements TenantHandover {
        @Override
        public CompletionStage<HandoverReport> release(String tenant, Duration patience) {
            events.add("release " + tenant);
            return CompletableFuture.completedFuture(new HandoverReport(tenant, 0, 0, 0, Duration.ZERO, true, "ok"));
        }

        @Override
        public void redirect(String tenant, String ownerAddress) {
            events.add("redirect " + tenant + " '" + ownerAddress + "'");
        }

        @Override
        public Set<String> activeTenants() {
            return Set.of();
        }

        @Override
        public Set<String> knownTenants() {
            return Set.of("acme");
        }
    }

    private Object service(Class<?> type) {
        return registrations.stream().filter(entry -> entry[0] == type).findFirst().map(entry -> entry[1])
                .orElseThrow();
    }

    @Test
    void aRefusedConfigurationJoinsNothingAndRegistersNothing() throws Exception {
        ClusterComponent component = new ClusterComponent();
        component.bindHandover(new Handover(), Map.of(ClusterComponent.SERVER_ADDRESS_PROPERTY, "127.0.0.1:7878"));

        component.activate(context(), Map.of("secret", "short"));
        component.deactivate();

        assertEquals(List.of(), events);
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().equals("troupe-cluster-start")));
    }

    @Test
    void registersStoreThenPlacementThenViewAndLeavesWithinItsBudget() throws Exception {
        int port = TestNodes.freePorts(1).get(0);
        ClusterComponent component = new ClusterComponent();
        component.bindHandover(new Handover(), Map.of(ClusterComponent.SERVER_ADDRESS_PROPERTY, "0.0.0.0:7878"));
        component.bindServerStats(() -> List.of(new TenantStats("acme", 3, 10, 100, 12.5, 0, 0),
                new TenantStats("globex", 4, 10, 50, 7.5, 0, 0)));

        component.activate(context(), Map.of("secret", TestNodes.SECRET, "port", String.valueOf(port),
                "bindAddress", "127.0.0.1", "members", "127.0.0.1", "syncDeploy", "false",
                "syncTenants", "false"));

        assertTrue(TestNodes.await(() -> registrations.size() == 3, Duration.ofSeconds(30)), events.toString());
        assertEquals(List.of("register StateStore", "register TenantPlacement", "register ClusterView"), events);
        Dictionary<?, ?> store = (Dictionary<?, ?>) registrations.get(0)[2];
        assertEquals(100, store.get(Constants.SERVICE_RANKING));
        assertEquals(Boolean.TRUE, store.get(ClusterComponent.REPLICATED_PROPERTY));
        TenantPlacement placement = (TenantPlacement) service(TenantPlacement.class);
        assertEquals(Placement.Kind.LOCAL, placement.claim("acme").toCompletableFuture().get(10, TimeUnit.SECONDS)
                .kind());
        ClusterView view = (ClusterView) service(ClusterView.class);
        assertEquals("127.0.0.1:7878", view.members().get(0).clientAddress());
        assertTrue(TestNodes.await(() -> view.members().get(0).sessions() == 7
                && view.members().get(0).requestsPerSecond() == 20.0, Duration.ofSeconds(5)),
                view.members().toString());
        assertEquals(List.of(), view.missingMembers());
        assertFalse(service(StateStore.class) == null);
        Handover moved = new Handover();
        component.updatedHandover(moved, Map.of(ClusterComponent.SERVER_ADDRESS_PROPERTY, "0.0.0.0:7979"));
        assertEquals("127.0.0.1:7979", view.members().get(0).clientAddress());

        long start = System.nanoTime();
        component.deactivate();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertTrue(tookMillis < ClusterComponent.LEAVE_BUDGET.toMillis(), tookMillis + " ms");
        assertEquals(List.of("register StateStore", "register TenantPlacement", "register ClusterView",
                "release acme", "unregister ClusterView", "unregister TenantPlacement", "unregister StateStore",
                "redirect acme ''"), events);
    }
}
