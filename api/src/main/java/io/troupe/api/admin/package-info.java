/**
 * Administration of a running Troupe server: actions an operator takes through the web console or a script.
 *
 * <pre>
 *   web console  POST /console/api/tenants/{tenant}/disconnect ──► TenantSessions.disconnect(tenant)
 *                                                                    (server bundle: BYE to each session)
 * </pre>
 *
 * <h2>Threading</h2>
 * Services of this package may be called from any thread and never block their caller.
 *
 * <h2>Compatibility</h2>
 * The services are provided by Troupe's own bundles; consumers call them. A later minor version may add
 * methods.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.troupe.api.admin;
