package io.troupe.ops.console;

import java.util.List;
import java.util.Objects;

import io.troupe.client.deploy.DeployStatus;

/**
 * One plugin of the deploy folder as the console lists it: a bundle installed from a jar of the folder, or a
 * jar no bundle was installed from (yet, or because the host refused it).
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param file         the jar's file name in the folder
 * @param fileExists   false when the jar was deleted and the host has not uninstalled its bundle yet
 * @param bundleId     the bundle's id, -1 when none is installed
 * @param symbolicName the bundle's (or the jar's) symbolic name, null when unknown
 * @param version      the running version (or the jar's when none runs), null when unknown
 * @param state        the bundle's state ({@code ACTIVE}, ...) or {@code NOT INSTALLED}
 * @param revision     the bundle's revision as {@link PluginHistory} counts them
 * @param handlers     the handler names its services provide
 * @param factories    the factory names its services provide
 * @param outcome      the host's last outcome for the file, or null when it wrote none
 * @param refused      whether that outcome refused the bytes the file holds now
 * @param rollbackTo   the version a rollback would put back, or null when the console kept no earlier jar
 */
record PluginRow(String file, boolean fileExists, long bundleId, String symbolicName, String version, String state,
                 int revision, List<String> handlers, List<String> factories, DeployStatus outcome, boolean refused,
                 String rollbackTo) {

    /** The state shown for a jar no bundle was installed from. */
    static final String NOT_INSTALLED = "NOT INSTALLED";

    PluginRow {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(state, "state");
        handlers = List.copyOf(handlers);
        factories = List.copyOf(factories);
    }
}
