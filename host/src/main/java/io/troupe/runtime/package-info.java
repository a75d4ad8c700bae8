/**
 * The embedded runtime: {@link io.troupe.runtime.Troupe}, Troupe started in-process on a plain class path,
 * without OSGi, with handlers and factories registered in code. Inside Felix the same runtime is the
 * {@link io.troupe.api.TroupeRuntime} service of the host bundle, which keeps this package private.
 *
 * <pre>
 *   Troupe.builder()...build()
 *     └► RuntimeCore (io.troupe.host.core)       workers, timer, actor system, monitor, logger use
 *          └► CodeDirectory (io.troupe.host.plugin)  the registrations: PluginFactory per handler/factory
 * </pre>
 */
package io.troupe.runtime;
