package io.troupe.host.log;

import java.nio.charset.StandardCharsets;

/**
 * The UTF-8 bytes of the last string asked for, kept until another string comes: a thread's name is
 * the same {@code String} object for every record it logs, so it is encoded once, not per record.
 * Strings are compared by identity, which is cheap and never wrong, only sometimes wasteful.
 *
 * <p>Threading: confined to one thread (each producer thread's {@link RecordBytes} has one).
 */
final class Utf8Memo {

    private String last;
    private byte[] bytes;

    /** The UTF-8 bytes of {@code text}; the caller must not modify them. */
    byte[] bytesOf(String text) {
        if (text != last) {
            bytes = text.getBytes(StandardCharsets.UTF_8);
            last = text;
        }
        return bytes;
    }
}
