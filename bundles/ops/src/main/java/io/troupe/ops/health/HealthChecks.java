package io.troupe.ops.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The checks behind {@code /health/live} and {@code /health/ready}.
 *
 * <table>
 * <caption>Checks</caption>
 * <tr><th>endpoint</th><th>check</th><th>UP when</th></tr>
 * <tr><td>live</td><td>{@code framework}</td><td>the framework is not stopping</td></tr>
 * <tr><td>live</td><td>{@code runtime}</td><td>no worker or IO loop the runtime counts has died (UP while the
 *     runtime is still starting: liveness must not kill a process that is only slow to start)</td></tr>
 * <tr><td>ready</td><td>{@code framework}</td><td>the beginning start level is reached and every Troupe bundle
 *     of the installation is active</td></tr>
 * <tr><td>ready</td><td>{@code server}</td><td>the message server listens (its address is announced); UP
 *     without a server bundle installed</td></tr>
 * <tr><td>ready</td><td>{@code store}</td><td>the state store is registered (its file open); UP without a store
 *     bundle installed</td></tr>
 * <tr><td>ready</td><td>{@code cluster}</td><td>only on a cluster node: this node has joined</td></tr>
 * </table>
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class HealthChecks {

    static final String SERVER_BUNDLE = "io.troupe.server";
    static final String STORE_BUNDLE = "io.troupe.store";

    private HealthChecks() {
    }

    /** Whether the process should be left running. */
    static HealthReport live(RuntimeView view) {
        List<CheckResult> checks = new ArrayList<>();
        checks.add(view.frameworkStopping() ? CheckResult.down("framework", "the framework is stopping")
                : CheckResult.up("framework", "running"));
        if (!view.runtimeRunning()) {
            checks.add(CheckResult.up("runtime", "not started yet"));
        } else {
            List<String> dead = view.deadRuntimeThreads();
            checks.add(dead.isEmpty() ? CheckResult.up("runtime", "every worker and IO loop is alive")
                    : CheckResult.down("runtime", "runtime threads died: " + String.join(", ", dead)));
        }
        return new HealthReport(checks);
    }

    /** Whether the process should get traffic. */
    static HealthReport ready(RuntimeView view) {
        List<CheckResult> checks = new ArrayList<>();
        checks.add(framework(view));
        checks.add(server(view));
        checks.add(store(view));
        if (view.clustered()) {
            Optional<String> membership = view.clusterMembership();
            checks.add(membership.map(text -> CheckResult.up("cluster", "joined " + text))
                    .orElseGet(() -> CheckResult.down("cluster", "this node has not joined its cluster")));
        }
        return new HealthReport(checks);
    }

    private static CheckResult framework(RuntimeView view) {
        int level = view.startLevel();
        int beginning = view.beginningStartLevel();
        if (view.frameworkStopping()) {
            return CheckResult.down("framework", "the framework is stopping");
        }
        if (level < beginning) {
            return CheckResult.down("framework", "starting: start level " + level + " of " + beginning);
        }
        List<String> inactive = view.inactiveTroupeBundles();
        if (!inactive.isEmpty()) {
            return CheckResult.down("framework", "start level " + level + " of " + beginning
                    + "; not active: " + String.join(", ", inactive));
        }
        return CheckResult.up("framework", "start level " + level + " of " + beginning
                + "; every Troupe bundle active");
    }

    private static CheckResult server(RuntimeView view) {
        Optional<String> address = view.serverAddress();
        if (address.isPresent()) {
            return CheckResult.up("server", "listening on " + address.get());
        }
        if (!view.installed(SERVER_BUNDLE)) {
            return CheckResult.up("server", "no message server installed");
        }
        return CheckResult.down("server", "the message server listens nowhere (see log/troupe.log and "
                + "etc/io.troupe.server.cfg)");
    }

    private static CheckResult store(RuntimeView view) {
        Optional<String> file = view.stateStore();
        if (file.isPresent()) {
            return CheckResult.up("store", "open: " + file.get());
        }
        if (!view.installed(STORE_BUNDLE)) {
            return CheckResult.up("store", "no state store installed (actors keep their state in memory)");
        }
        return CheckResult.down("store", "the state store is not open (see log/troupe.log and "
                + "etc/io.troupe.store.cfg)");
    }
}
