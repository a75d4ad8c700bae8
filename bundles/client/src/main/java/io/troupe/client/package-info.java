/**
 * The Java client of the Troupe message server: {@link io.troupe.client.TroupeClient}, built by
 * {@link io.troupe.client.TroupeClient#builder()}. It speaks protocol v1 through
 * {@code io.troupe.protocol} and needs nothing else but the JDK, inside OSGi or out.
 *
 * <pre>
 *   caller threads                      loop thread (one of a ClientLoop's, shared or the client's own)
 *   ──────────────                      ──────────────────────────────────────────────────────────────
 *   TroupeClient.request(name, bytes)
 *     corrId, Frame, FrameEncoder ──► outbox ──► Connector ──────────────► Connection ──► SocketChannel
 *                                     (lock-free) │ PendingRequests           │ non-blocking connect,
 *   CompletableFuture ◄── complete ───────────────┤ (corrId → future,         │ HELLO/WELCOME,
 *   PushListener ◄────── SEND, corrId 0 ──────────┤  deadline order; held     │ FrameDecoder, output
 *   ConnectionListener ◄─ connected / ... ────────┘  frames for the next      │ queue
 *                                                    session)                 │
 *                                                   AttemptRoute: where and   │
 *                                                    when ────────────────────┘ one per attempt
 *                                                    (ServerAddresses, Backoff,
 *                                                     RedirectTrail: the bound)
 * </pre>
 *
 * <p>Since 1.2 (protocol 1.4): several servers ({@code Builder.servers}), redirects ({@code tenant.moved})
 * followed with unanswered requests sent again, and requests the application declares idempotent
 * ({@code Builder.idempotent}) sent again after a lost connection; {@link io.troupe.client.TroupeClient}
 * states the rule.
 *
 * <p>Public: {@link io.troupe.client.TroupeClient} and its builder,
 * {@link io.troupe.client.ClientLoop} (IO threads shared by many clients), the listeners
 * {@link io.troupe.client.PushListener} and {@link io.troupe.client.ConnectionListener}, and the
 * failures {@link io.troupe.client.TroupeClientException} (the server's ERROR code and detail) and
 * {@link io.troupe.client.ConnectionLostException}. Everything else is package-private.
 *
 * <h2>Threading</h2>
 * Callers on any thread encode their frame and hand it to the loop thread; nothing they call blocks
 * but {@code close()}. All connection state lives on the loop thread, which completes the futures
 * and calls the listeners: these callbacks must not block. Each type states its own contract.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package io.troupe.client;
