package io.troupe.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A named message with opaque content: what clients send to handlers, and the shape handlers see for
 * every request routed to them by name.
 *
 * <p>Handlers answer a request with {@code ctx.reply(...)} (to {@code ctx.sender()}, the request's
 * one-shot reply address). To push messages to the client later, keep {@link #client()} and tell it
 * {@code Message}s: each becomes a SEND frame with that name.
 *
 * <p>The content array is not copied: senders must not change it after sending.
 *
 * <p><b>Threading:</b> an immutable record (but for the content array, shared as said above); safe to
 * send between actors, threads and bundles. {@link #client()} may be told from any thread.
 *
 * @param name    the message name (routing key), for example {@code counter.add}
 * @param content the payload, never {@code null}
 * @param client  the network session the message came from, or {@code null} when it did not come
 *                from a client connection; it {@linkplain ActorRef#isStopped() stops} when the
 *                connection closes
 */
public record Message(String name, byte[] content, ActorRef client) {

    private static final byte[] EMPTY = new byte[0];

    public Message {
        Objects.requireNonNull(name, "name");
        content = content == null ? EMPTY : content;
    }

    /** A message that did not come from a client. */
    public Message(String name, byte[] content) {
        this(name, content, null);
    }

    /** A message whose content is {@code text} in UTF-8. */
    public static Message of(String name, String text) {
        return new Message(name, text.getBytes(StandardCharsets.UTF_8), null);
    }

    /** The content decoded as UTF-8. */
    public String text() {
        return new String(content, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Message[" + name + ", " + content.length + " bytes" + (client == null ? "" : ", from " + client) + "]";
    }
}
