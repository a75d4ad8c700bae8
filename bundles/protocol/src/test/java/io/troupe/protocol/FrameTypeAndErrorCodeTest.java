package io.troupe.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameTypeAndErrorCodeTest {

    @Test
    void frameTypeCodesAreThoseOfTheProtocol() {
        Map<FrameType, Integer> expected = new LinkedHashMap<>();
        expected.put(FrameType.HELLO, 1);
        expected.put(FrameType.WELCOME, 2);
        expected.put(FrameType.SEND, 3);
        expected.put(FrameType.REQUEST, 4);
        expected.put(FrameType.REPLY, 5);
        expected.put(FrameType.ERROR, 6);
        expected.put(FrameType.PING, 7);
        expected.put(FrameType.PONG, 8);
        expected.put(FrameType.BYE, 9);

        assertEquals(expected.keySet(), EnumSet.allOf(FrameType.class));
        expected.forEach((type, code) -> {
            assertEquals(code, type.code());
            assertEquals(Optional.of(type), FrameType.fromCode(code));
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10, 11, 127, 128, 255, 256, -1, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void anUnknownFrameTypeCodeHasNoType(int code) {
        assertEquals(Optional.empty(), FrameType.fromCode(code));
    }

    @Test
    void aClientMaySendHelloSendRequestPingAndByeAndNothingElse() {
        assertEquals(EnumSet.of(FrameType.HELLO, FrameType.SEND, FrameType.REQUEST, FrameType.PING, FrameType.BYE),
                Arrays.stream(FrameType.values()).filter(FrameType::isSentByClient)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(FrameType.class))));
    }

    @Test
    void aServerMaySendWelcomeSendReplyErrorPongAndByeAndNothingElse() {
        assertEquals(EnumSet.of(FrameType.WELCOME, FrameType.SEND, FrameType.REPLY, FrameType.ERROR, FrameType.PONG,
                        FrameType.BYE),
                Arrays.stream(FrameType.values()).filter(FrameType::isSentByServer)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(FrameType.class))));
    }

    @Test
    void errorCodesAreTheWireStringsOfTheProtocolAndCloseWhereItSaysClose() {
        Map<String, Boolean> closes = new LinkedHashMap<>();
        closes.put("auth.required", true);
        closes.put("auth.failed", true);
        closes.put("auth.already", false);
        closes.put("frame.crc", true);
        closes.put("frame.too_large", true);
        closes.put("frame.malformed", true);
        closes.put("frame.unexpected", false);
        closes.put("version.unsupported", true);
        closes.put("no.handler", false);
        closes.put("quota.connections", true);
        closes.put("quota.rate", false);
        closes.put("mailbox.full", false);
        closes.put("handler.failed", false);
        closes.put("handler.timeout", false);
        closes.put("bad.request", false);
        closes.put("server.shutdown", false);
        closes.put("tenant.limit.actors", false);
        closes.put("server.busy", true);
        closes.put("state.unavailable", false);
        closes.put("tenant.moved", true);

        Set<String> wire = Arrays.stream(ErrorCode.values()).map(ErrorCode::code).collect(Collectors.toSet());
        assertEquals(closes.keySet(), wire);
        closes.forEach((code, close) -> {
            ErrorCode errorCode = ErrorCode.fromCode(code).orElseThrow();
            assertEquals(code, errorCode.code());
            assertEquals(close, errorCode.closesConnection(), code);
        });
    }

    @Test
    void anUnknownErrorCodeIsEmptySoThatClientsSurviveNewerServers() {
        assertEquals(Optional.empty(), ErrorCode.fromCode("frame.shiny"));
        assertEquals(Optional.empty(), ErrorCode.fromCode("FRAME_CRC"));
        assertEquals(Optional.empty(), ErrorCode.fromCode(""));
    }

    @Test
    void aFrameExceptionBecomesTheErrorFrameThatReportsIt() {
        FrameException failure = new FrameException(ErrorCode.FRAME_MALFORMED, "unknown frame type 10", 42);

        assertEquals(Frame.error(42, ErrorCode.FRAME_MALFORMED, "unknown frame type 10"), failure.toErrorFrame());
        assertEquals("frame.malformed: unknown frame type 10", failure.getMessage());
        assertEquals(0, new FrameException(ErrorCode.FRAME_CRC, "x").corrId());
        assertTrue(failure.getStackTrace().length == 0, "a peer's fault needs no stack trace");
    }
}
