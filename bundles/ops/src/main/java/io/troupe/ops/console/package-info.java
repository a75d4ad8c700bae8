/**
 * The web console: a page at {@code /console} and the JSON API it reads under {@code /console/api/}, served
 * on the HTTP endpoint's servlet context {@code troupe} (whose security checks the admin token).
 *
 * <pre>
 *   browser ── GET /console, /console/static/* ──► ConsolePageServlet   (index.html, console.css, console.js)
 *           ── GET /console/api/{view} ──────────► ConsoleApiServlet ──► ConsoleViews ──► *Document (JSON)
 *           ── GET /console/api/events ─────────► EventStream ◄── "update" each second ── ConsoleSampler
 *           ── POST /console/api/{...}/{verb} ───► ConsoleActions ──► deploy folder, runtime, TenantSessions
 *
 *   ConsoleSampler (thread troupe-console, 1 s):
 *     RuntimeStats.snapshot() + ServerStats.tenants() ─► ChartHistory (10 min) + TenantWindows (10 s p99)
 *     deploy/.status/* ─► PluginHistory (swap history) + PluginRevisions (the jar a rollback puts back)
 *     clients listening? ─► EventStream.publish(ConsoleViews.update(...))
 *
 *   kept by the console itself, in memory: PluginHistory (200 events), DeadLetterLog (100 letters),
 *   ChartHistory (600 points); on disk, in its bundle data area: PluginRevisions (two jars per plugin)
 * </pre>
 *
 * <h2>Documents</h2>
 * Each view is a {@link io.troupe.ops.console.JsonDocument} written with jackson-core's streaming generator
 * from immutable records (the runtime's snapshots, the console's own entries), so one document serves a
 * request, or several clients of the event stream as the same bytes. Errors are
 * {@code {"error": code, "message": ...}} with their status ({@link io.troupe.ops.console.ConsoleApiException}).
 *
 * <h2>Threading</h2>
 * Servlets run on Jetty's threads and only read snapshots and call thread-safe services; nothing here runs on
 * a runtime thread except {@link io.troupe.ops.console.DeadLetterLog#accept}, which formats a few strings. One
 * console thread samples and publishes; each event client has a bounded queue written with non-blocking IO,
 * and a client that falls behind is dropped rather than slowing the others.
 */
package io.troupe.ops.console;
