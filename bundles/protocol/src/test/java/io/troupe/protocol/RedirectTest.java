package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class RedirectTest {

    @Test
    void errorCarriesTheAddressAndClosesTheConnection() {
        Frame error = Redirect.error(7L, "10.0.0.2:7700");
        assertEquals(FrameType.ERROR, error.type());
        assertEquals(7L, error.corrId());
        assertEquals("tenant.moved", error.name());
        assertEquals("10.0.0.2:7700", error.text());
        assertTrue(ErrorCode.TENANT_MOVED.closesConnection());
        assertEquals(Optional.of("10.0.0.2:7700"), Redirect.target(error));
    }

    @Test
    void byeNamesTheCodeThenTheAddress() {
        Frame bye = Redirect.bye("node-3.example:7700");
        assertEquals(FrameType.BYE, bye.type());
        assertEquals("tenant.moved node-3.example:7700", bye.text());
        assertEquals(Optional.of("node-3.example:7700"), Redirect.target(bye));
    }

    @Test
    void anUnknownOwnerIsAnEmptyAddress() {
        assertEquals(Optional.of(""), Redirect.target(Redirect.error(1L, "")));
        assertEquals(Optional.of(""), Redirect.target(Redirect.bye("")));
        assertEquals(Optional.of(""), Redirect.target(new Frame(FrameType.BYE, 0L, "", "tenant.moved".getBytes(UTF_8))));
    }

    @Test
    void otherFramesAreNoRedirect() {
        assertEquals(Optional.empty(), Redirect.target(Frame.bye()));
        assertEquals(Optional.empty(), Redirect.target(new Frame(FrameType.BYE, 0L, "", "tenant removed".getBytes(UTF_8))));
        assertEquals(Optional.empty(), Redirect.target(Frame.error(1L, ErrorCode.SERVER_BUSY, "10.0.0.2:7700")));
        assertEquals(Optional.empty(), Redirect.target(new Frame(FrameType.BYE, 0L, "",
                "tenant.movedX 1.2.3.4:5".getBytes(UTF_8))));
    }
}
