/**
 * The Troupe message server: protocol v1 over the host's reactor, in front of the actor runtime.
 * Nothing here is exported; the bundle consumes the {@link io.troupe.api.net.Reactor},
 * {@link io.troupe.api.TroupeRuntime} and ConfigurationAdmin services.
 *
 * <pre>
 *   io.troupe.server            ServerComponent (DS: config io.troupe.server, lifecycle)
 *     │  ServerConfiguration (the typed model of every server key), ServerSettings, Endpoint (the listening socket, re-bound on change),
 *     │  TenantSampler (rate windows, throttling log), TenantPolicies (tenant policy → runtime),
 *     │  ServerStatistics (the ServerStats service, printed by the shell's troupe:tenants)
 *     ├──► io.troupe.server.session   Sessions ──creates──► Session (one per connection, on its IO loop)
 *     │        Session ─decode─► HELLO ─► io.troupe.server.auth (Authenticator: PBKDF2 on its own
 *     │                  threads; LoginGuard: failed HELLOs per address) ─► quota ─► SessionThrottle
 *     │                  (bytes/s, requests/s, queue: hold and stop reading) ─► route ─► handler actors
 *     │        RequestsInFlight (exactly one answer each), Replies (answer → frame), SessionActor (pushes)
 *     └──► io.troupe.server.tenant    TenantDirectory (ConfigAdmin io.troupe.tenant-*) ─► Tenant
 *              TenantConfiguration (typed model), TenantConfig (checked), TenantLimits, RateLimiter (token
 *              bucket), TenantThrottling (throttled time and episodes), TenantLifecycle (to the runtime),
 *              DemoTenant (first start)
 *     └──► io.troupe.server.credential  TokenHash (pbkdf2-sha256), TenantToken, TenantFile, SecretFile (0600):
 *              JDK only; the shell bundle embeds a copy for troupe:tenant-add / tenant-rotate-token
 *   io.troupe.config            (module bundles/config, copied into this bundle) ConfigurationCheck:
 *                               a configuration checked against the metatype of its property type
 *
 *   dependencies point down: session uses auth and tenant; auth uses tenant and credential; tenant uses
 *   credential; credential and config know nothing;
 *   only the root knows DS.
 * </pre>
 *
 * <h2>Threads</h2>
 * <ul>
 * <li>IO loops (the host's): every {@code Session} callback; decoding, routing, timers, handing HELLOs to
 *     the authenticator. No plugin code, nothing that blocks.</li>
 * <li>the authenticator's threads ({@code troupe-auth-N}, {@code troupe-auth-log}): token hashes, the
 *     failed HELLOs' summary; outcomes go back to the session's loop.</li>
 * <li>runtime workers and the timer thread: complete asks; the session encodes the answer there and
 *     hands the bytes to the connection (any thread).</li>
 * <li>ConfigAdmin's event thread: tenant changes; closing a removed tenant's sessions is handed to
 *     their loops.</li>
 * <li>SCR (framework threads): activate, modified, deactivate; deactivation waits, bounded, for the
 *     sessions to finish.</li>
 * </ul>
 */
package io.troupe.server;
