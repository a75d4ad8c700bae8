package io.troupe.sample.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.testkit.TestActorRef;

/** Deterministic tests of {@link ChatRooms}. Threading: JUnit's thread only. */
class ChatRoomsTest {

    private static final RoomName LOBBY = RoomName.parse("lobby");
    private static final RoomName KITCHEN = RoomName.parse("kitchen");

    private final ChatRooms rooms = new ChatRooms();
    private final TestActorRef alice = new TestActorRef(1, "alice");
    private final TestActorRef bob = new TestActorRef(2, "bob");
    private final TestActorRef carol = new TestActorRef(3, "carol");

    @Test
    void membersAreKeptInJoiningOrderAndJoiningTwiceChangesNothing() {
        assertTrue(rooms.join(LOBBY, bob));
        assertTrue(rooms.join(LOBBY, alice));
        assertFalse(rooms.join(LOBBY, bob));

        assertEquals(List.of(bob, alice), rooms.members(LOBBY));
        assertTrue(rooms.isMember(LOBBY, alice));
        assertFalse(rooms.isMember(KITCHEN, alice));
    }

    @Test
    void leavingRemovesOnlyThatMembershipAndTheLastToLeaveRemovesTheRoom() {
        rooms.join(LOBBY, alice);
        rooms.join(LOBBY, bob);
        rooms.join(KITCHEN, alice);

        assertTrue(rooms.leave(LOBBY, alice));
        assertEquals(List.of(bob), rooms.members(LOBBY));
        assertEquals(List.of(alice), rooms.members(KITCHEN));

        assertTrue(rooms.leave(LOBBY, bob));
        assertEquals(List.of(KITCHEN), rooms.rooms());
    }

    @Test
    void leavingARoomOneIsNotInIsHarmless() {
        rooms.join(LOBBY, alice);
        assertFalse(rooms.leave(LOBBY, bob));
        assertFalse(rooms.leave(KITCHEN, bob));
        assertEquals(List.of(alice), rooms.members(LOBBY));
        assertEquals(List.of(LOBBY), rooms.rooms());
    }

    @Test
    void droppingStoppedMembersOfOneRoomLeavesOtherRoomsAlone() {
        rooms.join(LOBBY, alice);
        rooms.join(LOBBY, bob);
        rooms.join(KITCHEN, bob);
        bob.markStopped();

        assertEquals(1, rooms.dropStopped(LOBBY));
        assertEquals(List.of(alice), rooms.members(LOBBY));
        assertEquals(List.of(bob), rooms.members(KITCHEN));
    }

    @Test
    void droppingStoppedMembersEverywhereRemovesRoomsLeftEmpty() {
        rooms.join(LOBBY, alice);
        rooms.join(LOBBY, bob);
        rooms.join(KITCHEN, bob);
        rooms.join(KITCHEN, carol);
        bob.markStopped();
        carol.markStopped();

        assertEquals(3, rooms.dropStopped());
        assertEquals(List.of(LOBBY), rooms.rooms());
        assertEquals(List.of(alice), rooms.members(LOBBY));
        assertEquals(0, rooms.dropStopped());
    }

    @Test
    void droppingFromAnUnknownRoomDropsNothing() {
        assertEquals(0, rooms.dropStopped(LOBBY));
        assertEquals(List.of(), rooms.rooms());
    }
}
