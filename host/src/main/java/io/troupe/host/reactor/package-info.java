/**
 * The reactor: non-blocking TCP on a few event loops, one thread each ("one loop per thread"), behind
 * the {@link io.troupe.api.net.Reactor} service. Private to the host bundle. Where the loops sit among
 * Troupe's threads, and the path of a frame through them, is drawn in {@code docs/architecture.md}.
 *
 * <pre>
 *  NioReactor ─────────────────────────────────────────────────────────────────────────────┐
 *   │ listen(): bind (SO_REUSEADDR)                                                         │
 *   ▼                                                                                       │
 *  Acceptor ── EventLoop "troupe-acceptor" ── TcpListener (ServerSocketChannel, OP_ACCEPT)  │
 *   │ accept … until none; on failure AcceptBackoff pauses OP_ACCEPT                        │
 *   │ Admission: over a limit, reset at once; else a Ticket (returned on close)             │
 *   │ group.next().execute(connection::open)      (round-robin)                             │
 *   ▼                                                                                       │
 *  EventLoopGroup ── EventLoop "troupe-io-1" … "troupe-io-N" ◄──────────────────────────────┘
 *                      │ Selector, TimerQueue (ScheduledTask), MPSC task queue + wakeup
 *                      ▼
 *                   TcpConnection ── InputBuffer (grows ×2 up to maxInputBuffer, shrinks when empty)
 *                      │          ├─ OutputQueue (MPSC, pending count, groups kept whole) ─► StagedChannel
 *                      │          │     (the loop's direct staging buffer: one copy, one write)
 *                      │          └─ TlsChannel (SSLEngine; handshake tasks on TlsTaskExecutor) for TLS
 *                      │             listeners: read and written in place of the socket
 *                      ▼
 *                   ConnectionHandler callbacks (api)
 * </pre>
 *
 * <h2>One loop iteration</h2>
 * heartbeat, due timers, select (bounded by the next deadline and 1 s; selectNow while tasks wait),
 * IO events of the ready keys, then the tasks queued before this point.
 *
 * <h2>Threading</h2>
 * A connection, its buffers, its selection key and its handler are touched only by its IO loop. Other
 * threads reach them through {@link io.troupe.host.reactor.EventLoop#execute}, or through the few
 * lock-free fields the {@link io.troupe.api.net.Connection} methods documented for any thread use:
 * the state (CAS), the output queue and its pending-byte counter, and flags. Loop-confined entry points
 * check {@link io.troupe.host.reactor.EventLoop#assertInLoop()}. No locks, and nothing blocks on a loop
 * but its select.
 *
 * <h2>Closing</h2>
 * A connection calls {@link io.troupe.api.net.ConnectionHandler#onClosed} exactly once: with the
 * {@link java.io.IOException} that ended it (reset, broken pipe, a {@link
 * io.troupe.host.reactor.ConnectionLimitException}) or the handler's own exception, and with
 * {@code null} for {@code close()}, {@code abort()}, both directions shut down, and reactor shutdown.
 */
package io.troupe.host.reactor;
