/**
 * Sessions: one {@link io.troupe.server.session.Session} per client connection, created by
 * {@link io.troupe.server.session.Sessions} on the connection's IO loop.
 *
 * <pre>
 *  bytes ─► FrameDecoder ─► Session ──REQUEST──► runtime.handler(tenant, name).ask(Message(name, content, sessionRef))
 *                              │                    └─ completes on a runtime thread ─► RequestsInFlight: Replies ─► connection.write
 *                              ├───SEND─────► handler.tell(Message(name, content, sessionRef))
 *                              └─ sessionRef = SessionActor "session-&lt;id&gt;": Message told to it ─► SEND push
 *
 *  backpressure (HeldFrame): awaitDrain(handler) true ─► hold the frame, suspendReading, stop decoding
 *                           onDrained (runtime thread) ─► connection.execute: route it, resumeReading
 *  timers (SessionTimers, on the loop): auth (until HELLO), idle (quiet since the last frame or answer),
 *                           linger (reading on after a shutdown's BYE)
 * </pre>
 *
 * <h2>Threading</h2>
 * A session's state is confined to its connection's loop; answers from runtime threads touch only a
 * concurrent set of pending requests and write through the connection. {@code Sessions} is
 * thread-safe.
 */
package io.troupe.server.session;
