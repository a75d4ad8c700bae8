package io.troupe.sample.chat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.testkit.ActorHarness;
import io.troupe.testkit.TestActorRef;
import io.troupe.testkit.TestTimers;

/**
 * Drives one {@link ChatActor} message by message through an {@link ActorHarness}, with
 * {@link TestActorRef}s as client connections.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class ChatActorTest {

    private static final RoomName LOBBY = RoomName.parse("lobby");

    private final ChatRooms rooms = new ChatRooms();
    private ActorHarness chat;
    private final TestActorRef alice = new TestActorRef(1, "alice");
    private final TestActorRef bob = new TestActorRef(2, "bob");
    private final TestActorRef carol = new TestActorRef(3, "carol");

    @BeforeEach
    void start() throws Exception {
        chat = ActorHarness.start(() -> new ChatActor(rooms));
    }

    @Test
    void startingSchedulesASweepEveryFiveSeconds() {
        TestTimers.Timer sweep = chat.context().timers().scheduled().get(ChatActor.SWEEP);
        assertEquals(ChatActor.SWEEP, sweep.message());
        assertEquals(Duration.ofSeconds(5), sweep.period());
        assertEquals(Duration.ofSeconds(5), sweep.initialDelay());
    }

    @Test
    void joiningRepliesOkAndMakesTheClientAMember() throws Exception {
        assertOk(request(alice, ChatActor.JOIN, "  lobby \n"));
        assertEquals(List.of(alice), rooms.members(LOBBY));
    }

    @Test
    void joiningTwiceIsOkAndStillOneMembership() throws Exception {
        assertOk(request(alice, ChatActor.JOIN, "lobby"));
        assertOk(request(alice, ChatActor.JOIN, "lobby"));
        assertEquals(List.of(alice), rooms.members(LOBBY));
    }

    @Test
    void sayingBroadcastsTheSameContentToEveryMemberOfTheRoomIncludingTheSpeaker() throws Exception {
        join(alice, "lobby");
        join(bob, "lobby");
        join(carol, "kitchen");
        byte[] content = "lobby\nhello, wörld ✓".getBytes(StandardCharsets.UTF_8);

        assertOk(chat.deliver(new Message(ChatActor.SAY, content, alice)).onlyMessage());

        for (TestActorRef member : List.of(alice, bob)) {
            Message push = assertInstanceOf(Message.class, member.onlyMessage(), member.name());
            assertEquals(ChatActor.PUSH, push.name());
            assertSame(content, push.content(), "the request's very bytes, not a re-encoding");
            assertNull(push.client());
            assertEquals(chat.context().self(), member.received().get(0).sender());
        }
        assertEquals(List.of(), carol.received(), "a member of another room hears nothing");
    }

    @Test
    void theRoomPartOfASayIsTrimmedSoCrLfClientsAreUnderstood() throws Exception {
        join(alice, "lobby");
        assertOk(request(alice, ChatActor.SAY, " lobby\r\nhi"));
        assertEquals(" lobby\r\nhi", ((Message) alice.onlyMessage()).text(), "the content goes out as it came");
    }

    @Test
    void theTextMayContainMoreLinesAndMayBeEmpty() throws Exception {
        join(alice, "lobby");
        assertOk(request(alice, ChatActor.SAY, "lobby\nfirst\nsecond"));
        assertOk(request(alice, ChatActor.SAY, "lobby\n"));
        assertEquals(List.of("lobby\nfirst\nsecond", "lobby\n"),
                alice.messages().stream().map(m -> ((Message) m).text()).toList());
    }

    @Test
    void aMemberWhoLeftNoLongerHearsTheRoom() throws Exception {
        join(alice, "lobby");
        join(bob, "lobby");

        assertOk(request(bob, ChatActor.LEAVE, "lobby"));
        assertOk(request(alice, ChatActor.SAY, "lobby\nanyone?"));

        assertEquals(1, alice.received().size());
        assertEquals(List.of(), bob.received());
        assertEquals(List.of(alice), rooms.members(LOBBY));
    }

    @Test
    void leavingARoomOneIsNotInIsStillOk() throws Exception {
        assertOk(request(alice, ChatActor.LEAVE, "nowhere"));
        join(bob, "lobby");
        assertOk(request(alice, ChatActor.LEAVE, "lobby"));
        assertEquals(List.of(bob), rooms.members(LOBBY));
    }

    @Test
    void aStoppedClientIsDroppedBeforeTheBroadcast() throws Exception {
        join(alice, "lobby");
        join(bob, "lobby");
        bob.markStopped();

        assertOk(request(alice, ChatActor.SAY, "lobby\nstill there?"));

        assertEquals(1, alice.received().size());
        assertEquals(List.of(alice), rooms.members(LOBBY));
    }

    @Test
    void theSweepDropsStoppedClientsFromEveryRoomWithoutReplying() throws Exception {
        join(alice, "lobby");
        join(bob, "lobby");
        join(bob, "kitchen");
        bob.markStopped();

        assertEquals(List.of(), chat.deliverFrom(null, ChatActor.SWEEP), "a timer message has no sender to reply to");

        assertEquals(List.of(LOBBY), rooms.rooms());
        assertEquals(List.of(alice), rooms.members(LOBBY));
        assertEquals(List.of(), alice.received());
    }

    @Test
    void aStoppedSpeakerIsNoLongerAMember() throws Exception {
        join(alice, "lobby");
        join(bob, "lobby");
        alice.markStopped();

        assertBadRequest(request(alice, ChatActor.SAY, "lobby\nghost"), "not a member");
        assertEquals(List.of(), bob.received());
    }

    @Test
    void sayingIntoARoomOneIsNotInIsABadRequestAndBroadcastsNothing() throws Exception {
        join(bob, "lobby");

        assertBadRequest(request(alice, ChatActor.SAY, "lobby\nlet me in"), "not a member of room 'lobby'");
        assertBadRequest(request(alice, ChatActor.SAY, "nowhere\nhello"), "not a member of room 'nowhere'");
        assertEquals(List.of(), bob.received());
    }

    @Test
    void requestsWithoutAClientConnectionAreBadRequests() throws Exception {
        join(bob, "lobby");
        for (String name : List.of(ChatActor.JOIN, ChatActor.LEAVE, ChatActor.SAY)) {
            Object reply = chat.deliver(Message.of(name, "lobby\nhi")).onlyMessage();
            Failure failure = assertInstanceOf(Failure.class, reply, name);
            assertEquals(new Failure(ErrorCode.BAD_REQUEST, "chat needs a client connection"), failure);
        }
        assertEquals(List.of(bob), rooms.members(LOBBY));
        assertEquals(List.of(), bob.received());
    }

    @Test
    void invalidRoomNamesAreBadRequests() throws Exception {
        assertBadRequest(request(alice, ChatActor.JOIN, "   "), "empty");
        assertBadRequest(request(alice, ChatActor.JOIN, "x".repeat(201)), "at most 200");
        assertBadRequest(request(alice, ChatActor.JOIN, "two\nlines"), "line break");
        assertBadRequest(request(alice, ChatActor.LEAVE, ""), "empty");
        assertBadRequest(request(alice, ChatActor.SAY, "\nno room"), "empty");
        assertEquals(List.of(), rooms.rooms());
    }

    @Test
    void aSayWithoutALineFeedIsABadRequest() throws Exception {
        join(alice, "lobby");
        assertBadRequest(request(alice, ChatActor.SAY, "lobby"), "line feed");
        assertEquals(List.of(), alice.received());
    }

    @Test
    void anUnknownNameOrANonMessageIsABadRequest() throws Exception {
        assertBadRequest(request(alice, "chat.shout", "lobby\nHI"), "chat.shout");
        assertBadRequest(chat.deliver("lobby").onlyMessage(), "expects a Message");
    }

    @Test
    void roomsAreSeparateActorsPerTenantSoAnotherActorKnowsNoMembers() throws Exception {
        join(alice, "lobby");
        ChatRooms otherRooms = new ChatRooms();
        ActorHarness otherTenant = ActorHarness.start(() -> new ChatActor(otherRooms));

        assertBadRequest(otherTenant.deliver(new Message(ChatActor.SAY, utf8("lobby\nhi"), alice)).onlyMessage(),
                "not a member");
        assertEquals(List.of(), alice.received());
    }

    @Test
    void theHistoryKeepsWhatWasSaidInARoomOldestFirst() throws Exception {
        join(alice, "lobby");
        join(bob, "kitchen");
        assertOk(request(alice, ChatActor.SAY, "lobby\nfirst"));
        assertOk(request(bob, ChatActor.SAY, "kitchen\nelsewhere"));
        assertOk(request(alice, ChatActor.SAY, "lobby\nsecond"));

        Object history = request(carol, ChatActor.HISTORY, "lobby");
        assertArrayEquals(utf8("lobby\nfirst\u001elobby\nsecond"), assertInstanceOf(byte[].class, history));
        assertArrayEquals(new byte[0], assertInstanceOf(byte[].class, request(carol, ChatActor.HISTORY, "attic")));
    }

    @Test
    void theHistoryKeepsTheLastHundredMessagesOfARoom() throws Exception {
        join(alice, "lobby");
        for (int i = 0; i < ChatHistory.PER_ROOM + 5; i++) {
            assertOk(request(alice, ChatActor.SAY, "lobby\n" + i));
        }
        String history = new String((byte[]) request(carol, ChatActor.HISTORY, "lobby"), StandardCharsets.UTF_8);
        String[] said = history.split("\u001e");
        assertEquals(ChatHistory.PER_ROOM, said.length);
        assertEquals("lobby\n5", said[0]);
        assertEquals("lobby\n104", said[said.length - 1]);
    }

    @Test
    void theHistoryCrossesToAnotherInstanceAsJdkTypes() throws Exception {
        join(alice, "lobby");
        assertOk(request(alice, ChatActor.SAY, "lobby\nkept"));
        Object state = chat.actor().exportState(chat.context());

        ActorHarness restarted = ActorHarness.start(ChatActor::new);
        restarted.actor().importState(restarted.context(), state);
        Object history = restarted.deliver(new Message(ChatActor.HISTORY, utf8("lobby"), carol)).onlyMessage();
        assertArrayEquals(utf8("lobby\nkept"), assertInstanceOf(byte[].class, history));
    }

    @Test
    void aHistoryThatIsNotOneIsRefused() {
        ChatHistory history = new ChatHistory();
        assertThrows(TroupeException.class, () -> history.restore(List.of("not a map")));
        assertThrows(TroupeException.class, () -> history.restore(java.util.Map.of("lobby", List.of("text"))));
    }

    private void join(TestActorRef client, String room) throws Exception {
        assertOk(request(client, ChatActor.JOIN, room));
    }

    private Object request(TestActorRef client, String name, String text) throws Exception {
        return chat.deliver(new Message(name, utf8(text), client)).onlyMessage();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertOk(Object reply) {
        assertArrayEquals(utf8("ok"), assertInstanceOf(byte[].class, reply), () -> "reply " + reply);
    }

    private static void assertBadRequest(Object reply, String expected) {
        Failure failure = assertInstanceOf(Failure.class, reply);
        assertEquals(ErrorCode.BAD_REQUEST, failure.code());
        assertTrue(failure.detail().contains(expected), failure.detail());
    }
}
