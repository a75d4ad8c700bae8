package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The API's action paths and the event stream's framing.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class ConsoleApiPathsTest {

    @Test
    void theFourActionsAreRecognisedByCollectionNameAndVerb() {
        assertArrayEquals(new String[] {"plugins", "counter.jar", "undeploy"},
                ConsoleApiServlet.actionPath("/plugins/counter.jar/undeploy"));
        assertArrayEquals(new String[] {"plugins", "counter.jar", "rollback"},
                ConsoleApiServlet.actionPath("/plugins/counter.jar/rollback"));
        assertArrayEquals(new String[] {"actors", "42", "stop"}, ConsoleApiServlet.actionPath("/actors/42/stop"));
        assertArrayEquals(new String[] {"tenants", "acme", "disconnect"},
                ConsoleApiServlet.actionPath("/tenants/acme/disconnect"));
    }

    @Test
    void viewsUnknownVerbsEmptyNamesAndDeeperPathsAreNoActions() {
        assertNull(ConsoleApiServlet.actionPath("/plugins"));
        assertNull(ConsoleApiServlet.actionPath("/plugins/counter.jar/delete"));
        assertNull(ConsoleApiServlet.actionPath("/actors/42/undeploy"));
        assertNull(ConsoleApiServlet.actionPath("/plugins//undeploy"));
        assertNull(ConsoleApiServlet.actionPath("/plugins/a/b/undeploy"));
    }

    @Test
    void anEventIsItsNameThenOneDataLineThenABlankLine() {
        byte[] frame = EventStream.frame("update", "{\"a\":1}".getBytes(StandardCharsets.UTF_8));

        assertEquals("event: update\ndata: {\"a\":1}\n\n", new String(frame, StandardCharsets.UTF_8));
    }
}
