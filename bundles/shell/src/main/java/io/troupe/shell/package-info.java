/**
 * The Troupe shell: Gogo commands over the {@link io.troupe.api.TroupeRuntime} and
 * {@link io.troupe.api.monitor.RuntimeStats} services and over the
 * deploy folder, and the line console used when Troupe runs without a terminal. Nothing here is
 * exported.
 *
 * <pre>
 *  terminal (troupe.console=tty)            pipe or file (troupe.console=script)
 *  -----------------------------            ------------------------------------
 *  gogo.jline shell  (its own bundle)       ScriptConsole: one daemon thread reads stdin,
 *        |                                  runs each line in a Gogo CommandSession,
 *        |                                  prints results to stdout, errors to stderr
 *        +-------------------+--------------------+
 *                            v
 *              Gogo CommandProcessor (gogo.runtime)
 *                            |  scope "troupe"
 *             +--------------+--------------------+----------------------------------+
 *             v                                   v                                  v
 *   TroupeCommands                       PluginCommands                         StatsCommands
 *   actors, handlers, ask, deadletters   plugins, deploy, update, remove        stats [-t], tenants
 *             |                                   |                       |          |
 *             | optional, dynamic reference       | bundles and their     |          | optional, dynamic
 *             v                                   v ActorFactory services v          v
 *   TroupeRuntime service (host bundle)  BundleContext          deploy/     RuntimeStats (host), ServerStats
 *                                                                           (server; TenantTable)
 *                                                               (troupe.deploy.dir), watched by the
 *                                                               host: install / update / uninstall,
 *                                                               outcome in deploy/.status/&lt;file&gt;
 * </pre>
 *
 * <h2>State commands</h2>
 * {@code troupe:state-list}, {@code troupe:state-export}, {@code troupe:state-import} and
 * {@code troupe:tenant-purge} (one Gogo function each, the work in {@code StateCommands}) use the
 * {@link io.troupe.api.state.StateStore} service through an optional, dynamic reference; an export is a
 * {@code StateArchive} file (a versioned binary format documented there). {@code stats} adds the store's line
 * ({@code StoreStatsLine}) when a store runs.
 *
 * <h2>The deploy folder's rules are the client's</h2>
 * {@code PluginCommands} changes the folder and waits for the host's outcome through
 * {@code io.troupe.client.deploy} ({@code DeployFolder}, {@code StatusPoller}, {@code DeployStatus}), the
 * code {@code troupe-client deploy} runs too, so both tools name, copy, refuse and report alike. bnd copies
 * that package into this bundle at build time ({@code Private-Package}) instead of importing it: it
 * needs the JDK alone, and importing it would make the console depend at run time on the client bundle
 * (and, for it to resolve fully, picocli and HdrHistogram) being installed in the framework, where only
 * the command line in {@code lib/} needs them. The source exists once, in {@code bundles/client}.
 *
 * <h2>Output contract</h2>
 * Every command prints to {@code System.out}, which Gogo redirects to the calling session. An
 * {@code ask} prints exactly one reply: the reply text, or one line {@code ERROR <code>: <detail>}.
 * When the runtime service is absent, commands print
 * {@code ERROR runtime.unavailable: ...} instead of failing, and the bundle itself keeps running.
 * The plugin commands print what they changed in the deploy folder and, for {@code deploy} and
 * {@code update}, the host's outcome; a failure prints one error line ({@code ERROR deploy.rejected: ...}
 * followed by what still runs, {@code ERROR deploy.unavailable: ...} without the framework property
 * {@code troupe.deploy.dir}) and then throws, so that Gogo reports a failed command.
 *
 * <h2>Why Declarative Services</h2>
 * SCR is a system bundle of the distribution, and an optional, dynamic reference is exactly "use the
 * runtime when it is there": no tracker code, and the bundle starts whether or not the host does.
 *
 * <h2>Threading</h2>
 * Gogo may call the commands from any session thread, concurrently; they keep no state but the
 * volatile runtime reference and the final deploy folder, whose changes are serialised. The script
 * console confines its session to its own reader thread.
 */
package io.troupe.shell;
