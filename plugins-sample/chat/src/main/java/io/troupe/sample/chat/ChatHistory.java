package io.troupe.sample.chat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/**
 * What was said in each room: the last {@value #PER_ROOM} messages per room, oldest first, as the
 * content bytes of their {@code chat.say} requests ({@code room + "\n" + text}). It is the chat's
 * durable state: {@link #export()} gives it as JDK types (a map of room names to lists of byte arrays),
 * which the runtime stores, and {@link #restore} takes it back.
 *
 * <p><b>Threading:</b> not thread-safe; confined to its actor's turns.
 */
final class ChatHistory {

    /** Messages kept per room. */
    static final int PER_ROOM = 100;

    private final Map<String, ArrayDeque<byte[]>> rooms = new LinkedHashMap<>();

    /** Appends what was said in {@code room}, forgetting the oldest message beyond {@value #PER_ROOM}. */
    void add(RoomName room, byte[] content) {
        ArrayDeque<byte[]> said = rooms.computeIfAbsent(room.toString(), name -> new ArrayDeque<>());
        said.addLast(content);
        if (said.size() > PER_ROOM) {
            said.removeFirst();
        }
    }

    /** The messages of {@code room}, oldest first; empty for a room nobody spoke in. */
    List<byte[]> of(RoomName room) {
        ArrayDeque<byte[]> said = rooms.get(room.toString());
        return said == null ? List.of() : List.copyOf(said);
    }

    /** The history as JDK types: room name to the list of contents, oldest first. */
    Map<String, List<byte[]>> export() {
        Map<String, List<byte[]>> state = new LinkedHashMap<>();
        rooms.forEach((room, said) -> state.put(room, new ArrayList<>(said)));
        return state;
    }

    /**
     * Replaces the history with {@code state}, as {@link #export()} wrote it.
     *
     * @throws TroupeException {@code bad.request} when {@code state} is not such a map; nothing changes then
     */
    void restore(Object state) {
        if (!(state instanceof Map<?, ?> map)) {
            throw malformed(state);
        }
        Map<String, ArrayDeque<byte[]>> read = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String room) || !(entry.getValue() instanceof List<?> said)) {
                throw malformed(state);
            }
            ArrayDeque<byte[]> contents = new ArrayDeque<>();
            for (Object content : said) {
                if (!(content instanceof byte[] bytes)) {
                    throw malformed(state);
                }
                contents.addLast(bytes);
            }
            while (contents.size() > PER_ROOM) {
                contents.removeFirst();
            }
            read.put(room, contents);
        }
        rooms.clear();
        rooms.putAll(read);
    }

    private static TroupeException malformed(Object state) {
        return new TroupeException(ErrorCode.BAD_REQUEST, "chat history must be a map of room names to lists of"
                + " byte arrays, was " + (state == null ? "null" : state.getClass().getName()));
    }
}
