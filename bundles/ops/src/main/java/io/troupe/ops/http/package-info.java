/**
 * The operators' HTTP endpoint: Felix HTTP Jetty 12 bound to {@code etc/io.troupe.http.cfg}, and the admin
 * token in front of everything but {@code /health}.
 *
 * <pre>
 *  etc/io.troupe.http.cfg ─FileInstall─► ConfigAdmin ─► HttpComponent ─ HttpSettings (checked, refusal())
 *                                                          │                 │
 *                           etc/admin.token ◄─ AdminTokenFile    JettyBinding: PID org.apache.felix.http
 *                           (0600, re-read on change)  │         written / deleted ─► Jetty listens / stops
 *                                                      ▼         (require.config=true: nothing before)
 *  request ─► Jetty ─► context "troupe" (TroupeContext.handleSecurity ─ AccessPolicy)
 *                         ├─ /health/**            open          (io.troupe.ops.health)
 *                         ├─ POST /console/login   open          LoginServlet sets cookie troupe_admin
 *                         ├─ /metrics, /console/** Bearer token or cookie (+ X-Troupe-Console on POST)
 *                         └─ anything else         same check, then NotFoundServlet: 404
 * </pre>
 *
 * <p>Servlets of the other packages register on the whiteboard with
 * {@code osgi.http.whiteboard.context.select=}{@value io.troupe.ops.http.TroupeContext#SELECT}
 * ({@link io.troupe.ops.http.TroupeContext#servletProperties}).
 *
 * <p><b>Threading:</b> the component's methods run on SCR's thread, one at a time; servlets and the context's
 * check run on Jetty's threads, never on a runtime thread, and read only immutable or volatile state.
 */
package io.troupe.ops.http;
