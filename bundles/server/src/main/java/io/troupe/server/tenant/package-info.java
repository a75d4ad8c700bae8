/**
 * Tenants: who may connect, with which token, within which quotas.
 *
 * <pre>
 *  etc/io.troupe.tenant-&lt;id&gt;.cfg ─FileInstall─► ConfigAdmin factory configuration io.troupe.tenant
 *        ─ConfigurationEvent─► TenantDirectory ─TenantConfig (validated)─► Tenant
 *                                                   │ connections (CAS), RateLimiter (CAS), sessions
 *  Session ──authenticate(id, token)──► TenantDirectory     Session ──admit / tryAcquireRequest──► Tenant
 * </pre>
 *
 * <h2>Threading</h2>
 * Lookups and quota checks are lock-free and run on every IO loop; configuration changes are
 * serialised in {@link io.troupe.server.tenant.TenantDirectory}.
 */
package io.troupe.server.tenant;
