package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a turn reads in a stall report: the actor, where its code comes from, the plugin, the tenant, the message. */
class ActorTurnTest {

    @Test
    void namesThePluginThatProvidesTheActorsCode() {
        ActorTurn turn = new ActorTurn(7, "echo", "demo", "handler:echo", "io.troupe.sample.echo 1.0.0",
                "Message 'echo'");

        assertEquals("echo#7 (handler:echo, plugin io.troupe.sample.echo 1.0.0, tenant demo) processing"
                + " Message 'echo'", turn.toString());
    }

    @Test
    void leavesOutWhatIsNotKnown() {
        ActorTurn turn = new ActorTurn(1, "timer", "", "system", "", ActorTurn.describe(null));

        assertEquals("timer#1 (system) processing no message (lifecycle or system work)", turn.toString());
    }
}
