/**
 * {@code /health/live} and {@code /health/ready}: the checks an orchestrator (Kubernetes probes, a systemd
 * watchdog script, a load balancer) asks, open without the admin token, answered in JSON.
 *
 * <pre>
 *  GET /health/ready ─► HealthServlet ─► HealthChecks.ready(RuntimeView)
 *                                           framework: start level reached, io.troupe.* active
 *                                           server:    InetSocketAddress (troupe.server.address) registered
 *                                           store:     StateStore registered
 *                                           cluster:   ClusterView registered (troupe.cluster=true only)
 *                       ◄─ 200 {"status":"UP","checks":[...]} | 503 {"status":"DOWN","checks":[...]}
 * </pre>
 *
 * <p><b>Threading:</b> the servlets run on Jetty's threads; the checks read the framework and services at each
 * request and keep no state but {@link io.troupe.ops.health.OsgiRuntimeView}'s concurrent map.
 */
package io.troupe.ops.health;
