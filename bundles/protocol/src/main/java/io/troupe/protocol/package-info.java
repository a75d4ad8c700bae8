/**
 * The Troupe wire protocol, version 1: the contract between the message server and its clients.
 * Other programs are written against it, so everything here is exact and versioned.
 *
 * <pre>
 *   client library                                          server bundle (IO loop)
 *   --------------                                          -----------------------
 *   Frame --FrameEncoder--&gt; bytes ====== TCP ======&gt; FrameDecoder --&gt; Frame --&gt; Session
 *   Frame &lt;--FrameDecoder-- bytes &lt;===== TCP ======= FrameEncoder &lt;-- Frame &lt;-- Session
 *                                                          |
 *                         bad bytes: FrameException(ErrorCode, detail, corrId)
 *                                    -&gt; ERROR frame, then close if ErrorCode.closesConnection()
 * </pre>
 *
 * <h2>A session</h2>
 * <pre>
 *   client                                 server
 *   HELLO   (name = tenant, content = token)  --&gt;      frames limited to 4096 bytes until WELCOME
 *           &lt;--  WELCOME (same corrId, content = session id)
 *   SEND    (name = handler)               --&gt;      one-way
 *           &lt;--  SEND (corrId 0)                      push
 *   REQUEST (corrId = n, name = handler)   --&gt;
 *           &lt;--  REPLY (corrId = n) or ERROR (corrId = n)
 *   PING    (corrId = m)                   --&gt;
 *           &lt;--  PONG (corrId = m, same content)
 *   BYE                                    &lt;-&gt;      either side ends the session
 * </pre>
 * The byte layout of a frame is drawn in {@link io.troupe.protocol.FrameDecoder}; the types are
 * {@link io.troupe.protocol.FrameType}, the error codes {@link io.troupe.protocol.ErrorCode}.
 *
 * <h2>Dependencies</h2>
 * The JDK only. The OSGi annotations here are build-time metadata, so the same jar is the
 * server's bundle and the client's plain library.
 *
 * <h2>Threading</h2>
 * {@link io.troupe.protocol.Frame}, {@link io.troupe.protocol.FrameType},
 * {@link io.troupe.protocol.ErrorCode} and {@link io.troupe.protocol.FrameEncoder} may be used
 * from any thread. A {@link io.troupe.protocol.FrameDecoder} holds per-connection state and belongs
 * to one thread at a time (the connection's IO loop).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.6.0")
package io.troupe.protocol;
