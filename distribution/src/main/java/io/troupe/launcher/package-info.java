/**
 * The Troupe launcher: starts Apache Felix in the foreground with the bundles of a Troupe
 * installation, and stops it cleanly.
 *
 * <pre>
 *  bin/troupe ──exec──&gt; java -Dtroupe.home=... -Dtroupe.console=tty|script -jar lib/troupe-launcher.jar
 *
 *  Main ── InstallLayout (bin lib system deploy etc log data)
 *       ── InstanceLock (data/troupe.lock: one Troupe per installation)
 *       ── FrameworkConfig (etc/config.properties + launcher-owned properties)
 *       ── Launcher ──┬─ init framework (ServiceLoader&lt;FrameworkFactory&gt;, cache data/cache)
 *                     ├─ SystemBundles: install system/ in a fixed order with start levels
 *                     ├─ framework.start()          ── core bundles: DS, ConfigAdmin, FileInstall, Gogo,
 *                     │                                api, host (which installs and then watches deploy/)
 *                     ├─ wait for the plugins       ── the host starts them on its own threads and says
 *                     │                                when each started, failed or outlived
 *                     │                                troupe.deploy.startTimeoutSeconds (bounded wait)
 *                     ├─ start the server bundle    ── after the plugins; wait until it listens
 *                     ├─ print "Troupe ready on host:port" on stdout
 *                     ├─ start the shell bundle     ── commands, and the stdin console in script mode
 *                     ├─ tty only: start gogo.jline ── the interactive shell on the terminal
 *                     └─ wait until the framework stops
 *       ── Shutdown: SIGTERM / SIGINT / JVM exit stop the framework, waiting up to 10 s
 * </pre>
 *
 * <h2>Exit status</h2>
 * 0 when the framework stopped (a signal, {@code stop 0} in the shell, the end of the interactive
 * shell); 1 for a startup failure or a framework that did not stop within 10 s; 2 for a usage error;
 * 70 after a fatal error ({@link java.lang.VirtualMachineError}: out of memory, a stack overflow) on any
 * thread, which halts the process at once after one {@code troupe: FATAL:} line on standard error (and, while
 * the host runs, one FATAL record in {@code log/troupe.log}): see {@link io.troupe.launcher.FatalErrorExit}.
 * Messages go to standard error prefixed with {@code troupe:}; standard output carries only
 * {@code Troupe ready} and what the shell prints.
 *
 * <h2>Threading</h2>
 * The main thread boots the framework and then waits for it to stop. Signals and the JVM shutdown
 * hook stop the framework from their own threads; the framework's own threads run the bundles.
 */
package io.troupe.launcher;
