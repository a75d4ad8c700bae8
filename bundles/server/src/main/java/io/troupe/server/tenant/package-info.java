/**
 * Tenants: who may connect, with which credentials, within which quotas.
 *
 * <pre>
 *  etc/io.troupe.tenant-&lt;id&gt;.cfg ─FileInstall─► ConfigAdmin factory configuration io.troupe.tenant
 *        ─ConfigurationEvent─► TenantDirectory ─TenantConfig (validated: tokenHash, certificateSubject)─► Tenant
 *            │ a plaintext token: the file rewritten with its hash (0600)   │ connections (CAS), RateLimiter
 *  Authenticator (io.troupe.server.auth) ──find(id), config()──► Tenant   Session ──admit / tryAcquireRequest──►
 * </pre>
 *
 * <h2>Threading</h2>
 * Lookups and quota checks are lock-free and run on every IO loop; configuration changes are
 * serialised in {@link io.troupe.server.tenant.TenantDirectory}.
 */
package io.troupe.server.tenant;
