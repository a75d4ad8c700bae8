package io.troupe.ops.console;

import java.util.Objects;

/**
 * The bundle an actor's code comes from: the bundle that registered the handler or factory its origin names.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param bundleId     the bundle's id
 * @param symbolicName its symbolic name
 * @param version      the version of its current revision
 * @param revision     1 for the revision installed first, raised by each update the console saw (a hot swap or
 *                     a rollback); 1 for bundles updated before the console started
 * @param file         the jar of the deploy folder it was installed from, or null for a bundle from elsewhere
 */
record PluginCode(long bundleId, String symbolicName, String version, int revision, String file) {

    PluginCode {
        Objects.requireNonNull(symbolicName, "symbolicName");
        Objects.requireNonNull(version, "version");
    }
}
