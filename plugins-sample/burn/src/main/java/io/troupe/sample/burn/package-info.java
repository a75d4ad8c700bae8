/**
 * The burn sample plugin: a handler whose every message costs real CPU time, for benchmarks and
 * tests of how the runtime shares its workers between tenants.
 *
 * <pre>
 *   ask(tenant, Message("burn", "5000")) --&gt; runtime --&gt; a burn actor of that tenant (a pool)
 *                                                         spins 5000 µs on its worker
 *                              "5000" &lt;-- ctx.reply(content) &lt;--+
 * </pre>
 *
 * Not part of the distribution: the tenant-isolation benchmark copies its jar into the deploy
 * folder of its own copy of the distribution. Nothing here is exported.
 */
package io.troupe.sample.burn;
