package io.troupe.host.plugin;

/**
 * Loads classes by name as one revision of a plugin bundle sees them ({@code Bundle::loadClass}).
 *
 * <p><b>Threading:</b> any thread.
 */
@FunctionalInterface
interface RevisionClasses {

    Class<?> load(String name) throws ClassNotFoundException;
}
