/**
 * The deploy folder as the tools that deploy see it: copying a plugin jar in atomically, and waiting
 * for the host's outcome. Shared by {@code troupe-client deploy} and the shell's
 * {@code troupe:deploy}, {@code troupe:update}, {@code troupe:remove} and {@code troupe:plugins}.
 *
 * <pre>
 *   tool                              deploy/                                  host (DeployWatcher)
 *   ----                              -------                                  --------------------
 *   DeployFolder.deploy/put/update
 *     PluginJar.read(source)          (refused here: nothing changes)
 *     copy + SHA-256 ─────────────►   .kv.jar.part
 *     T = now; ATOMIC_MOVE ───────►   kv.jar  ──────────────────────────────►  install / update / roll back
 *   DeployFolder.awaitOutcome                                                   │
 *     StatusPoller: every 100 ms ◄──  .status/kv.jar (DeployStatus)  ◄──────────┘ written atomically
 *       until sha256 matches and time &gt;= T, or the timeout      kv.jar.failed (for people) when refused
 * </pre>
 *
 * <h2>Why here, and why the shell embeds it</h2>
 * The package needs the JDK alone (no OSGi classes: {@link io.troupe.client.deploy.PluginJar} reads
 * manifests itself), because {@code troupe-client} runs from the distribution's {@code lib/} without a
 * framework. It lives in the client bundle, which the command line already ships, and is not exported:
 * the shell bundle copies it in at build time (bnd {@code Private-Package}), so the console does not
 * depend at run time on the client bundle (and its picocli and HdrHistogram) being installed in the
 * framework, and the two tools cannot run different revisions of the rules against one folder by
 * accident of what is installed. The code exists once, in this module; its contract with the host is
 * the status file, not a Java type, so the host does not depend on it either.
 *
 * <h2>Threading</h2>
 * {@link io.troupe.client.deploy.DeployFolder} serialises its changes; waiting holds no lock and blocks
 * only the caller. Records are immutable.
 */
package io.troupe.client.deploy;
