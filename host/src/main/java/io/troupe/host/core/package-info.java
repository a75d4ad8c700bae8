/**
 * The runtime core: one runtime for the server and the embedded runtime. {@link
 * io.troupe.host.core.RuntimeCore} starts and stops the worker pool, the timer thread, the actor system,
 * the monitor and the logger's use, in one order, over an {@link io.troupe.host.plugin.ActorDirectory};
 * {@link io.troupe.host.core.HostRuntime} is the one {@link io.troupe.api.TroupeRuntime} over it. Private
 * to the host bundle.
 *
 * <pre>
 *   HostActivator (OSGi)                       io.troupe.runtime.Troupe (plain class path)
 *     PluginDirectory (service whiteboard)       CodeDirectory (registrations in code)
 *     NioReactor, DeployWatcher, services              │
 *            └──────────────► RuntimeCore ◄────────────┘
 *                               WorkerPool, TimerThread, ActorSystem, RuntimeMonitor, LoggerUse
 *                               HostRuntime: the TroupeRuntime (the OSGi service / Troupe's delegate)
 * </pre>
 *
 * <h2>Threading</h2>
 * The core is started and stopped by one controlling thread at a time (the framework's, ConfigAdmin's,
 * an application's); {@link io.troupe.host.core.HostRuntime} is called from any thread.
 */
package io.troupe.host.core;
