package io.troupe.ops.health;

import java.util.List;
import java.util.Optional;

/**
 * What the health checks look at, read fresh at each call: the framework's start level, the state of
 * Troupe's system bundles, the services the runtime registers while it works. {@link OsgiRuntimeView} reads
 * the framework; the tests give fixed answers.
 *
 * <p><b>Threading:</b> implementations may be called from any thread, many at once.
 */
interface RuntimeView {

    /** The framework's active start level now. */
    int startLevel();

    /** The start level the framework goes to at start ({@code org.osgi.framework.startlevel.beginning}). */
    int beginningStartLevel();

    /** Whether the framework is stopping (or stopped): liveness ends there. */
    boolean frameworkStopping();

    /**
     * The Troupe bundles of the installation ({@code io.troupe.*} but the plugins of deploy/) that are not
     * active, as {@code symbolic-name (state)}; fragments are left out.
     */
    List<String> inactiveTroupeBundles();

    /** Whether a bundle with {@code symbolicName} is installed. */
    boolean installed(String symbolicName);

    /** Where the message server listens ({@code host:port} of its announcement), or empty. */
    Optional<String> serverAddress();

    /** The state store's file (of its service), or empty when no state store is registered. */
    Optional<String> stateStore();

    /** Whether this node is to join a cluster (framework property {@code troupe.cluster}). */
    boolean clustered();

    /** The cluster as this node sees it ({@code clusterName/localNode, N members}), or empty before it joined. */
    Optional<String> clusterMembership();

    /** Whether the runtime's statistics service (the host's) is registered. */
    boolean runtimeRunning();

    /**
     * The runtime threads (workers and IO loops of the runtime's last snapshot) that are no longer alive, by
     * name; empty while the runtime is not running.
     */
    List<String> deadRuntimeThreads();
}
