package io.troupe.distribution.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the histories of chat rooms (the {@code chat} sample, every-turn durable) against real-time order and
 * the promise that nothing a client was told is lost. Each message said is a unique token (no whitespace); a
 * room is a key ({@code tenant/room}).
 * <ul>
 * <li>{@value #SAY}: invoked with the token, acknowledged with {@code ok};</li>
 * <li>{@value #HISTORY}: acknowledged with the room's history as the tokens, oldest first, separated by single
 *     blanks (the last {@link #cap} messages: older ones fall off);</li>
 * <li>{@value #PUSH}: observed by a member (its process) with the token of a message broadcast to it.</li>
 * </ul>
 * The rules, each a violation kind:
 * <ul>
 * <li>{@code phantom}: a history or a push holds a token nobody said, or one whose say failed;</li>
 * <li>{@code duplicate}: a token twice in one history, or pushed twice to one member;</li>
 * <li>{@code out-of-order}: a history or a member's pushes put a message after one that was acknowledged
 *     before it was even said;</li>
 * <li>{@code lost-acknowledged}: a message acknowledged before a history was asked for is missing from it
 *     (and cannot have fallen off the front);</li>
 * <li>{@code history-rewritten}: two histories disagree on the order of the messages they share, or a
 *     message one history showed is gone from a later one without having fallen off: what a client saw was
 *     durable, so it stays;</li>
 * <li>{@code unexpected}: a reply other than {@code ok} to a say, a completion of nothing in flight.</li>
 * </ul>
 * Pushes of messages a crash then loses are allowed (the chat does not hold pushes back), and so is a push
 * that reaches the speaker after its {@code ok}: the chat hands the broadcast to the members' connections
 * before it replies, but the reply, held until the history is durable, may still overtake it on the wire
 * (as {@code HistoryIT} sees); nothing promises the order of the two.
 *
 * <p><b>Threading:</b> not thread-safe; see {@link HistoryChecker}.
 */
public final class ChatChecker implements HistoryChecker {

    public static final String SAY = "chat.say";
    public static final String HISTORY = "chat.history";
    public static final String PUSH = "chat.message";
    /** How many messages the chat sample keeps per room. */
    public static final int SAMPLE_CAP = 100;

    private final int cap;
    private final Map<String, Room> rooms = new TreeMap<>();
    private final Map<Long, Read> reads = new HashMap<>();
    private final Map<Long, Say> saysInFlight = new HashMap<>();
    private final List<Violation> violations = new ArrayList<>();
    private long count;

    /** @param cap how many messages a room's history keeps ({@link #SAMPLE_CAP} for the sample) */
    public ChatChecker(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("a room keeps at least one message, not " + cap);
        }
        this.cap = cap;
    }

    @Override
    public void accept(Event event) {
        switch (event.f()) {
            case SAY -> say(event);
            case HISTORY -> history(event);
            case PUSH -> {
                if (event.type() == Event.Type.OBSERVE) {
                    pushed(event);
                }
            }
            default -> { }
        }
    }

    private void say(Event event) {
        if (event.type() == Event.Type.INVOKE) {
            Room room = room(event.key());
            String token = event.value();
            if (token.isEmpty() || token.chars().anyMatch(Character::isWhitespace) || room.says.containsKey(token)) {
                violation("unexpected", event, "a said token must be unique and without whitespace: '" + token + "'");
                return;
            }
            Say say = new Say(token, event.process(), event.seq());
            room.says.put(token, say);
            saysInFlight.put(event.op(), say);
            return;
        }
        Say say = saysInFlight.remove(event.op());
        if (say == null) {
            violation("unexpected", event, "completes operation " + event.op() + ", which is not in flight");
            return;
        }
        Room room = room(event.key());
        switch (event.type()) {
            case OK -> {
                if (!event.value().equals("ok")) {
                    violation("unexpected", event, "a say was answered '" + event.value() + "', not 'ok'");
                }
                say.ackSeq = event.seq();
                room.acked.add(say);
            }
            case FAIL -> say.failed = true;
            default -> { } // INFO: may or may not be in the room
        }
    }

    private void history(Event event) {
        if (event.type() == Event.Type.INVOKE) {
            Room room = room(event.key());
            reads.put(event.op(), new Read(room.acked.size(), room.canonical.size()));
            return;
        }
        Read read = reads.remove(event.op());
        if (read == null) {
            violation("unexpected", event, "completes operation " + event.op() + ", which is not in flight");
            return;
        }
        if (event.type() != Event.Type.OK) {
            return;
        }
        Room room = room(event.key());
        List<String> tokens = event.value().isEmpty() ? List.of() : Arrays.asList(event.value().split(" "));
        room.reads++;
        room.lastRead = tokens.size();
        List<Say> said = knownSays(room, tokens, event);
        if (said == null) {
            return;
        }
        checkRealTimeOrder(said, event);
        checkAcknowledgedPresent(room, read, tokens, said, event);
        merge(room, read, tokens, event);
    }

    /** The says of the tokens, or null after reporting a token nobody said (or that failed) or a duplicate. */
    private List<Say> knownSays(Room room, List<String> tokens, Event event) {
        Set<String> seen = new HashSet<>();
        List<Say> said = new ArrayList<>(tokens.size());
        boolean valid = true;
        for (String token : tokens) {
            Say say = room.says.get(token);
            if (!seen.add(token)) {
                violation("duplicate", event, "the history holds '" + token + "' twice");
                valid = false;
            } else if (say == null || say.failed) {
                violation("phantom", event, "the history holds '" + token + "', which "
                        + (say == null ? "nobody said in this room" : "failed: it never happened"));
                valid = false;
            }
            said.add(say);
        }
        if (tokens.size() > cap) {
            violation("unexpected", event, "the history holds " + tokens.size() + " messages; a room keeps " + cap);
        }
        return valid ? said : null;
    }

    /** No message after one acknowledged before it was even said. */
    private void checkRealTimeOrder(List<Say> said, Event event) {
        long earliestAckAfter = Long.MAX_VALUE;
        Say acknowledgedLater = null;
        for (int i = said.size() - 1; i >= 0; i--) {
            Say say = said.get(i);
            if (earliestAckAfter < say.invokeSeq) {
                violation("out-of-order", event, "'" + say.token + "' comes before '" + acknowledgedLater.token
                        + "', which was acknowledged (#" + acknowledgedLater.ackSeq + ") before it was said (#"
                        + say.invokeSeq + ")");
            }
            if (say.ackSeq < earliestAckAfter) {
                earliestAckAfter = say.ackSeq;
                acknowledgedLater = say;
            }
        }
    }

    /** Every message acknowledged before the read was invoked is there, unless it fell off the front. */
    private void checkAcknowledgedPresent(Room room, Read read, List<String> tokens, List<Say> said, Event event) {
        Set<String> present = new HashSet<>(tokens);
        long firstAck = said.isEmpty() ? Long.MAX_VALUE : said.get(0).ackSeq;
        for (Say say : room.acked.subList(0, read.ackedAtInvoke)) {
            boolean mayHaveFallenOff = tokens.size() == cap && say.invokeSeq < firstAck;
            if (!present.contains(say.token) && !mayHaveFallenOff) {
                violation("lost-acknowledged", event, "'" + say.token + "' was acknowledged (#" + say.ackSeq
                        + ") before this history was asked for, and is missing from its " + tokens.size()
                        + " messages");
            }
        }
    }

    /**
     * Folds the read into the room's known sequence: what a history showed was durable, so a later history
     * continues it (or, full, has lost its front only).
     */
    private void merge(Room room, Read read, List<String> tokens, Event event) {
        List<String> known = room.canonical;
        if (tokens.isEmpty()) {
            if (read.knownAtInvoke > 0) {
                violation("history-rewritten", event, "the history is empty, but earlier histories showed "
                        + read.knownAtInvoke + " messages");
            }
            return;
        }
        Integer start = room.position.get(tokens.get(0));
        if (start == null) {
            if (read.knownAtInvoke > 0 && tokens.size() < cap) {
                violation("history-rewritten", event, "none of the " + read.knownAtInvoke + " messages earlier "
                        + "histories showed is in this one of " + tokens.size() + " (not full: nothing fell off)");
            }
            for (String token : tokens) {
                if (room.position.containsKey(token)) {
                    violation("history-rewritten", event, "'" + token + "' was shown before '" + tokens.get(0)
                            + "' by an earlier history, and now after it");
                    return;
                }
            }
            room.rebase(tokens);
            return;
        }
        if (start > 0 && tokens.size() < cap) {
            violation("history-rewritten", event, "the messages before '" + tokens.get(0) + "' that an earlier "
                    + "history showed are gone, though this one is not full (" + tokens.size() + " of " + cap + ")");
        }
        int overlap = Math.min(tokens.size(), known.size() - start);
        for (int i = 0; i < overlap; i++) {
            if (!tokens.get(i).equals(known.get(start + i))) {
                violation("history-rewritten", event, "message " + (i + 1) + " is '" + tokens.get(i)
                        + "' where an earlier history had '" + known.get(start + i) + "'");
                return;
            }
        }
        if (start + tokens.size() < read.knownAtInvoke) {
            String lastKnown = known.get(Math.min(read.knownAtInvoke, known.size()) - 1);
            violation("history-rewritten", event, "it ends at '" + tokens.get(tokens.size() - 1) + "', before "
                    + "messages earlier histories showed (up to '" + lastKnown + "')");
        }
        for (String token : tokens.subList(overlap, tokens.size())) {
            if (room.position.containsKey(token)) {
                violation("history-rewritten", event, "'" + token + "' was shown earlier at another place");
                return;
            }
            room.append(token);
        }
    }

    private void pushed(Event event) {
        Room room = room(event.key());
        String token = event.value();
        Say say = room.says.get(token);
        room.pushes++;
        if (say == null || say.failed) {
            violation("phantom", event, "member p" + event.process() + " was pushed '" + token + "', which "
                    + (say == null ? "nobody said in this room" : "failed: it never happened"));
            return;
        }
        if (!room.pushedTo(event.process()).add(token)) {
            violation("duplicate", event, "member p" + event.process() + " was pushed '" + token + "' twice");
            return;
        }
        Say last = room.lastPushed.put(event.process(), say);
        if (last != null && say.ackSeq < last.invokeSeq) {
            violation("out-of-order", event, "member p" + event.process() + " was pushed '" + token + "' after '"
                    + last.token + "', though '" + token + "' was acknowledged before '" + last.token + "' was said");
        }
    }

    @Override
    public CheckReport finish() {
        List<String> summary = new ArrayList<>();
        rooms.values().forEach(room -> summary.add(room.toString()));
        return new CheckReport("chat", violations, count, summary);
    }

    private Room room(String key) {
        return rooms.computeIfAbsent(key, Room::new);
    }

    private void violation(String kind, Event event, String detail) {
        count++;
        if (violations.size() < CheckReport.KEPT) {
            violations.add(new Violation(kind, event.key(), detail + " (" + event + ")", event.seq()));
        }
    }

    /** A message said. */
    private static final class Say {
        final String token;
        final int process;
        final long invokeSeq;
        long ackSeq = Long.MAX_VALUE;
        boolean failed;

        Say(String token, int process, long invokeSeq) {
            this.token = token;
            this.process = process;
            this.invokeSeq = invokeSeq;
        }
    }

    /** A history request in flight: how many says were acknowledged, and messages known, when it was invoked. */
    private record Read(int ackedAtInvoke, int knownAtInvoke) {
    }

    /** What the checker knows of one room. */
    private static final class Room {
        final String key;
        final Map<String, Say> says = new HashMap<>();
        /** Acknowledged says, in the order of their acknowledgement. */
        final List<Say> acked = new ArrayList<>();
        /** The room's messages as histories showed them, oldest first (the front may have fallen off since). */
        final List<String> canonical = new ArrayList<>();
        final Map<String, Integer> position = new HashMap<>();
        final Map<Integer, Set<String>> pushed = new HashMap<>();
        final Map<Integer, Say> lastPushed = new HashMap<>();
        long reads;
        long pushes;
        int lastRead = -1;

        Room(String key) {
            this.key = key;
        }

        Set<String> pushedTo(int process) {
            return pushed.computeIfAbsent(process, p -> new HashSet<>());
        }

        void append(String token) {
            position.put(token, canonical.size());
            canonical.add(token);
        }

        /** Every known message fell off: the sequence starts again from {@code tokens}. */
        void rebase(List<String> tokens) {
            canonical.clear();
            position.clear();
            tokens.forEach(this::append);
        }

        @Override
        public String toString() {
            long failed = says.values().stream().filter(say -> say.failed).count();
            return key + ": said " + says.size() + ", acknowledged " + acked.size() + ", failed " + failed
                    + ", outcome unknown " + (says.size() - acked.size() - failed) + "; histories read " + reads
                    + " (the last held " + (lastRead < 0 ? "none" : lastRead) + "), messages shown " + canonical.size()
                    + ", pushes " + pushes;
        }
    }
}
