package io.troupe.ops.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.startlevel.FrameworkStartLevel;

import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ThreadStats;

/**
 * The {@link RuntimeView} of a running framework, read through the ops bundle's context at each call: no
 * tracker, so a check never answers from a stale copy.
 *
 * <p>Signals used: the system bundle's start level; the Troupe bundles' states; the server's announcement
 * (an {@code InetSocketAddress} service with {@value #SERVER_ADDRESS}, registered while it listens); the
 * {@code StateStore} service (registered while the store is open, with {@value #STORE_FILE}); the
 * {@link ClusterView} service (registered while this node is a member); the {@link RuntimeStats} service.
 *
 * <p>Dead runtime threads: the workers and IO loops the runtime's snapshot counts whose thread ended
 * ({@link ThreadStats#alive()}), the runtime's own signal; a worker the pool retires leaves the snapshot instead.
 *
 * <p><b>Threading:</b> any thread, many at once; stateless.
 */
final class OsgiRuntimeView implements RuntimeView {

    static final String SERVER_ADDRESS = "troupe.server.address";
    static final String STORE_FILE = "troupe.store.file";
    static final String DEPLOY_DIR = "troupe.deploy.dir";
    static final String CLUSTER = "troupe.cluster";
    static final String STATE_STORE = "io.troupe.api.state.StateStore";

    private final BundleContext context;

    OsgiRuntimeView(BundleContext context) {
        this.context = context;
    }

    @Override
    public int startLevel() {
        return context.getBundle(Constants.SYSTEM_BUNDLE_ID).adapt(FrameworkStartLevel.class).getStartLevel();
    }

    @Override
    public int beginningStartLevel() {
        String value = context.getProperty(Constants.FRAMEWORK_BEGINNING_STARTLEVEL);
        try {
            return value == null ? 1 : Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    @Override
    public boolean frameworkStopping() {
        return context.getBundle(Constants.SYSTEM_BUNDLE_ID).getState() != Bundle.ACTIVE;
    }

    @Override
    public List<String> inactiveTroupeBundles() {
        String deploy = deployLocation();
        List<String> inactive = new ArrayList<>();
        for (Bundle bundle : context.getBundles()) {
            String name = bundle.getSymbolicName();
            if (name == null || !name.startsWith("io.troupe.")
                    || (deploy != null && bundle.getLocation().startsWith(deploy))
                    || bundle.getHeaders().get(Constants.FRAGMENT_HOST) != null) {
                continue;
            }
            if (bundle.getState() != Bundle.ACTIVE) {
                inactive.add(name + " (" + stateName(bundle.getState()) + ")");
            }
        }
        return inactive;
    }

    @Override
    public boolean installed(String symbolicName) {
        for (Bundle bundle : context.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Optional<String> serverAddress() {
        return firstProperty(null, "(" + SERVER_ADDRESS + "=*)", SERVER_ADDRESS);
    }

    @Override
    public Optional<String> stateStore() {
        return firstProperty(STATE_STORE, null, STORE_FILE).or(() -> registered(STATE_STORE) ? Optional.of("(file "
                + "unknown)") : Optional.empty());
    }

    @Override
    public boolean clustered() {
        return Boolean.parseBoolean(context.getProperty(CLUSTER));
    }

    @Override
    public Optional<String> clusterMembership() {
        ServiceReference<ClusterView> reference = context.getServiceReference(ClusterView.class);
        if (reference == null) {
            return Optional.empty();
        }
        ClusterView view = context.getService(reference);
        if (view == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(view.clusterName() + " as " + view.localNode() + ", " + view.members().size()
                    + " members");
        } finally {
            context.ungetService(reference);
        }
    }

    @Override
    public boolean runtimeRunning() {
        return context.getServiceReference(RuntimeStats.class) != null;
    }

    @Override
    public List<String> deadRuntimeThreads() {
        ServiceReference<RuntimeStats> reference = context.getServiceReference(RuntimeStats.class);
        RuntimeStats stats = reference == null ? null : context.getService(reference);
        if (stats == null) {
            return List.of();
        }
        try {
            return dead(stats.snapshot());
        } finally {
            context.ungetService(reference);
        }
    }

    /** The names of the snapshot's workers and IO loops whose thread ended, in name order. */
    static List<String> dead(RuntimeSnapshot snapshot) {
        List<String> dead = new ArrayList<>();
        for (ThreadStats thread : snapshot.workers().threads()) {
            if (!thread.alive()) {
                dead.add(thread.name());
            }
        }
        for (ThreadStats loop : snapshot.loops()) {
            if (!loop.alive()) {
                dead.add(loop.name());
            }
        }
        dead.sort(null);
        return dead;
    }

    private Optional<String> firstProperty(String clazz, String filter, String property) {
        ServiceReference<?>[] references;
        try {
            references = context.getServiceReferences(clazz, filter);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(filter, e);
        }
        if (references == null) {
            return Optional.empty();
        }
        for (ServiceReference<?> reference : references) {
            Object value = reference.getProperty(property);
            if (value != null) {
                return Optional.of(value.toString());
            }
        }
        return Optional.empty();
    }

    private boolean registered(String clazz) {
        try {
            return context.getServiceReferences(clazz, null) != null;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private String deployLocation() {
        String deploy = context.getProperty(DEPLOY_DIR);
        if (deploy == null || deploy.isBlank()) {
            return null;
        }
        try {
            return java.nio.file.Path.of(deploy.strip()).toUri().toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String stateName(int state) {
        return switch (state) {
            case Bundle.INSTALLED -> "installed, not resolved";
            case Bundle.RESOLVED -> "resolved, not started";
            case Bundle.STARTING -> "starting";
            case Bundle.STOPPING -> "stopping";
            case Bundle.UNINSTALLED -> "uninstalled";
            default -> "state " + state;
        };
    }
}
