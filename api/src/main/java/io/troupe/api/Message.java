package io.troupe.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A named message with opaque content: what clients send to handlers, and the shape handlers see for
 * every request routed to them by name.
 *
 * <p>The content array is not copied: senders must not change it after sending.
 *
 * @param name    the message name (routing key), for example {@code counter.add}
 * @param content the payload, never {@code null}
 */
public record Message(String name, byte[] content) {

    private static final byte[] EMPTY = new byte[0];

    public Message {
        Objects.requireNonNull(name, "name");
        content = content == null ? EMPTY : content;
    }

    /** A message whose content is {@code text} in UTF-8. */
    public static Message of(String name, String text) {
        return new Message(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** The content decoded as UTF-8. */
    public String text() {
        return new String(content, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Message[" + name + ", " + content.length + " bytes]";
    }
}
