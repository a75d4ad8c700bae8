package io.troupe.sample.chat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.state.Durable;

/**
 * One tenant's chat: keeps its {@link ChatRooms} and broadcasts what members say.
 *
 * <p>Requests (all replied to with {@code ok} in UTF-8, or a {@code bad.request} {@link Failure}):
 * <ul>
 *   <li>{@value #JOIN}, content a room name: the requesting client becomes a member (again: no-op);
 *   <li>{@value #LEAVE}, content a room name: it stops being one (not being one is fine);
 *   <li>{@value #SAY}, content {@code room + "\n" + text}: every member of the room, the speaker
 *       included, is told {@code Message("chat.message", content)} with the request's very content
 *       bytes; only members may speak; the room's history keeps it;
 *   <li>{@value #HISTORY}, content a room name: replies with the room's last {@value ChatHistory#PER_ROOM}
 *       messages, oldest first, each as sent ({@code room + "\n" + text}), separated by a record
 *       separator (U+001E); empty for a room nobody spoke in. It needs no membership.
 * </ul>
 * Joining, leaving and speaking need {@link Message#client()}: membership belongs to a connection, not to
 * a reply address.
 *
 * <p>The history is durable ({@link Durable}, every turn): it is stored before the speaker's {@code ok}
 * leaves, so what a client was told was said survives a restart of the server, {@code kill -9} included.
 * Memberships are not: connections do not outlive the server.
 *
 * <p>Closed connections leave their rooms: a room is cleared of them before each broadcast into it,
 * and from every room every 5 seconds ({@link #SWEEP_PERIOD}) by a fixed-rate timer. The broadcast
 * goes out before the reply, so by the time the speaker has {@code ok}, the message has been handed to
 * every member's connection (a connection with a full mailbox turns it into a dead letter).
 *
 * <p>It never throws from {@link #receive}: a failure would make its supervisor restart it, and a
 * fresh instance would start with no rooms.
 *
 * <p><b>Threading:</b> an actor: runs on one worker at a time, so its rooms need no synchronisation.
 */
final class ChatActor implements Actor, Durable {

    static final String JOIN = "chat.join";
    static final String LEAVE = "chat.leave";
    static final String SAY = "chat.say";
    static final String HISTORY = "chat.history";
    /** Separates the messages of a {@value #HISTORY} reply. */
    static final byte RECORD_SEPARATOR = 0x1e;
    /** The name of the messages pushed to members. */
    static final String PUSH = "chat.message";

    /** How often every room is cleared of closed connections. */
    static final Duration SWEEP_PERIOD = Duration.ofSeconds(5);
    /** The sweep timer's key and its message: a JDK type, as {@link io.troupe.api.Timers} advises. */
    static final String SWEEP = "chat.sweep-closed-connections";

    private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);
    private static final byte LINE_FEED = '\n';

    private final ChatRooms rooms;
    private final ChatHistory history = new ChatHistory();

    ChatActor() {
        this(new ChatRooms());
    }

    /** With rooms the caller can inspect (tests). */
    ChatActor(ChatRooms rooms) {
        this.rooms = rooms;
    }

    @Override
    public void preStart(ActorContext ctx) {
        ctx.timers().scheduleAtFixedRate(SWEEP, SWEEP, SWEEP_PERIOD, SWEEP_PERIOD);
    }

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (SWEEP.equals(message)) {
            rooms.dropStopped();
        } else if (message instanceof Message request) {
            onRequest(ctx, request);
        } else {
            ctx.reply(Failure.badRequest("chat expects a Message, got " + message.getClass().getName()));
        }
    }

    private void onRequest(ActorContext ctx, Message request) {
        try {
            switch (request.name()) {
                case JOIN -> join(request);
                case LEAVE -> leave(request);
                case SAY -> say(ctx, request);
                case HISTORY -> {
                    ctx.reply(historyOf(RoomName.parse(request.text())));
                    return;
                }
                default -> throw unknownName(request.name());
            }
        } catch (TroupeException e) {
            ctx.reply(new Failure(e.code(), e.detail()));
            return;
        }
        ctx.reply(OK.clone());
    }

    private void join(Message request) {
        ActorRef client = client(request);
        rooms.join(RoomName.parse(request.text()), client);
    }

    private void leave(Message request) {
        ActorRef client = client(request);
        rooms.leave(RoomName.parse(request.text()), client);
    }

    private void say(ActorContext ctx, Message request) {
        ActorRef speaker = client(request);
        RoomName room = RoomName.parse(roomPartOf(request.content()));
        rooms.dropStopped(room);
        if (!rooms.isMember(room, speaker)) {
            throw notAMember(room);
        }
        // one Message for all members: its content is never changed, by contract, so sharing it is safe
        Message push = new Message(PUSH, request.content());
        for (ActorRef member : rooms.members(room)) {
            member.tell(push, ctx.self());
        }
        history.add(room, request.content());
    }

    /** The room's messages joined by record separators. */
    private byte[] historyOf(RoomName room) {
        List<byte[]> said = history.of(room);
        int length = Math.max(0, said.size() - 1);
        for (byte[] content : said) {
            length += content.length;
        }
        byte[] reply = new byte[length];
        int at = 0;
        for (byte[] content : said) {
            if (at > 0) {
                reply[at++] = RECORD_SEPARATOR;
            }
            System.arraycopy(content, 0, reply, at, content.length);
            at += content.length;
        }
        return reply;
    }

    /** The history, as JDK types: the runtime stores it, and a hot swap hands it to the next revision. */
    @Override
    public Object exportState(ActorContext ctx) {
        return history.export();
    }

    /**
     * Takes the stored or swapped history back.
     *
     * @throws TroupeException when the state is not a history; the runtime then refuses to start the actor
     */
    @Override
    public void importState(ActorContext ctx, Object state) {
        history.restore(state);
    }

    /** The room part of a {@value #SAY} content: the UTF-8 text before the first line feed. */
    private static String roomPartOf(byte[] content) {
        // 0x0A never occurs inside a multi-byte UTF-8 sequence, so a byte search is safe
        for (int i = 0; i < content.length; i++) {
            if (content[i] == LINE_FEED) {
                return new String(content, 0, i, StandardCharsets.UTF_8);
            }
        }
        throw missingLineFeed();
    }

    private static ActorRef client(Message request) {
        if (request.client() == null) {
            throw noClient();
        }
        return request.client();
    }

    private static TroupeException noClient() {
        return badRequest("chat needs a client connection");
    }

    private static TroupeException missingLineFeed() {
        return badRequest("expected the room name, a line feed (\\n), then the text");
    }

    private static TroupeException notAMember(RoomName room) {
        return badRequest("not a member of room " + room + "; send " + JOIN + " first");
    }

    private static TroupeException unknownName(String name) {
        return badRequest("chat does not handle '" + name + "'; it handles " + JOIN + ", " + LEAVE + ", " + SAY
                + " and " + HISTORY);
    }

    private static TroupeException badRequest(String detail) {
        return new TroupeException(ErrorCode.BAD_REQUEST, detail);
    }
}
