/**
 * The reactor: non-blocking TCP for first-party bundles (the message server), provided by the host.
 *
 * <pre>
 *   acceptor loop ──accept──&gt; IO loop 1 … IO loop N   (round-robin; one thread, one Selector each)
 *                                 │
 *                                 ├─ Connection: read buffer, write queue, timers, state
 *                                 └─ ConnectionHandler callbacks (decode, route; never user code)
 * </pre>
 *
 * <h2>Threading</h2>
 * Every {@link io.troupe.api.net.ConnectionHandler} callback runs on the connection's own IO loop,
 * one at a time; a connection's state is touched only by that loop. Handlers must not block and must
 * not run plugin code: they decode and hand messages to actors. {@link io.troupe.api.net.Connection}
 * methods marked "any thread" hand the work to the loop.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.3.0")
package io.troupe.api.net;
