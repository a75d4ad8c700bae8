/**
 * The echo sample plugin: one class, one handler. Copy it to start a plugin.
 *
 * <pre>
 *   ask(tenant, Message("echo", bytes)) --&gt; runtime --&gt; echo actor of that tenant
 *                          bytes &lt;-- ctx.reply(bytes) &lt;--+
 * </pre>
 *
 * Nothing here is exported: the runtime finds the handler through the OSGi service registry.
 */
package io.troupe.sample.echo;
