package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Unit tests of the JSON line layout, each line read back by Jackson; single-threaded. */
class JsonLineFormatTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant INSTANT = Instant.parse("2026-11-29T23:59:01.123Z");

    private final JsonLineFormat format = new JsonLineFormat(ZoneOffset.UTC);

    @Test
    void writesOneObjectWithTimestampLevelThreadLoggerAndMessageOnOneLine() throws IOException {
        String line = text(Level.INFO, "main", "io.troupe.host.HostRuntime", "Troupe runtime started", null, null);

        assertEquals("{\"timestamp\":\"2026-11-29T23:59:01.123+00:00\",\"level\":\"INFO\",\"thread\":\"main\","
                + "\"logger\":\"io.troupe.host.HostRuntime\",\"message\":\"Troupe runtime started\"}\n", line);
        assertEquals(List.of("timestamp", "level", "thread", "logger", "message"), names(JSON.readTree(line)));
    }

    @Test
    void writesEveryLevelByItsName() throws IOException {
        for (Level level : Level.values()) {
            assertEquals(level.name(), JSON.readTree(text(level, "t", "l", "m", null, null)).get("level").asText());
        }
    }

    @Test
    void theMdcEntriesAreAnObjectInKeyOrderAndANullValueIsJsonNull() throws IOException {
        Map<String, String> mdc = new HashMap<>();
        mdc.put("tenant", "t1");
        mdc.put("actor", "/user/a");
        mdc.put("request \"id\"", "r\n1");
        mdc.put("empty", null);

        JsonNode record = JSON.readTree(text(Level.WARN, "worker-1", "l", "restarting", mdc, null));

        JsonNode entries = record.get("mdc");
        assertEquals(List.of("actor", "empty", "request \"id\"", "tenant"), names(entries));
        assertEquals("/user/a", entries.get("actor").textValue());
        assertEquals("r\n1", entries.get("request \"id\"").textValue());
        assertTrue(entries.get("empty").isNull());
        assertEquals(List.of("timestamp", "level", "thread", "logger", "message", "mdc"), names(record));
    }

    @Test
    void noMdcMemberWhenTheMdcIsEmptyAndNoThrowableMemberWithoutOne() throws IOException {
        assertFalse(JSON.readTree(text(Level.INFO, "t", "l", "m", Map.of(), null)).has("mdc"));
        assertFalse(JSON.readTree(text(Level.INFO, "t", "l", "m", null, null)).has("throwable"));
    }

    @Test
    void theThrowableHasItsClassMessageAndTheWholeStackTraceInOneEscapedString() throws IOException {
        IllegalStateException thrown = new IllegalStateException("boom \"quoted\"", new IOException("disk gone"));
        thrown.addSuppressed(new IllegalArgumentException("also this"));

        String line = text(Level.ERROR, "main", "l", "failed", Map.of("tenant", "t1"), thrown);

        assertEquals(1, line.split("\n", -1).length - 1, "one line, ending with \\n: " + line);
        JsonNode record = JSON.readTree(line);
        JsonNode throwable = record.get("throwable");
        assertEquals(List.of("class", "message", "stack"), names(throwable));
        assertEquals("java.lang.IllegalStateException", throwable.get("class").textValue());
        assertEquals("boom \"quoted\"", throwable.get("message").textValue());
        assertEquals(PrintedThrowable.stackTrace(thrown), throwable.get("stack").textValue());
        assertTrue(throwable.get("stack").textValue().contains("Caused by: java.io.IOException: disk gone"));
        assertTrue(throwable.get("stack").textValue().contains("Suppressed: java.lang.IllegalArgumentException"));
        assertEquals(List.of("timestamp", "level", "thread", "logger", "message", "mdc", "throwable"), names(record));
    }

    @Test
    void aThrowableWithoutMessageOrWhoseMessageThrowsHasNoMessageMember() throws IOException {
        Throwable hostile = new RuntimeException() {
            private static final long serialVersionUID = 1L;

            @Override
            public String getMessage() {
                throw new UnsupportedOperationException("no message for you");
            }
        };

        JsonNode quiet = JSON.readTree(text(Level.ERROR, "t", "l", "m", null, new IllegalStateException()));
        JsonNode broken = JSON.readTree(text(Level.ERROR, "t", "l", "m", null, hostile));

        assertEquals(List.of("class", "stack"), names(quiet.get("throwable")));
        assertEquals(List.of("class", "stack"), names(broken.get("throwable")));
        assertTrue(broken.get("throwable").get("stack").textValue()
                .contains("could not be printed: java.lang.UnsupportedOperationException"));
    }

    @Test
    void quotesControlCharactersAndSurrogatesInAnyFieldCannotBreakTheLine() throws IOException {
        String message = "line 1\nline 2\r\n\t\"}{\\ \u0000 \uD83D\uDE00 lone \uD800";

        String line = text(Level.INFO, "thread \"x\"\n", "logger\\name", message, Map.of("k\n", "v\u001f"), null);

        assertEquals(line.length() - 1, line.indexOf('\n'), "the only newline ends the record");
        JsonNode record = JSON.readTree(line);
        assertEquals("thread \"x\"\n", record.get("thread").textValue());
        assertEquals("logger\\name", record.get("logger").textValue());
        assertEquals(message.replace('\uD800', '\uFFFD'), record.get("message").textValue());
        assertEquals("v\u001f", record.get("mdc").get("k\n").textValue());
    }

    @Test
    void anAsciiRecordWithoutMdcOrThrowableAllocatesNothingOnceTheBufferIsWarm() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RecordBytes out = new RecordBytes(512);
        byte[] thread = "worker-1".getBytes(StandardCharsets.US_ASCII);
        byte[] logger = "io.troupe.host.actor.ActorCell".getBytes(StandardCharsets.US_ASCII);
        long millis = INSTANT.toEpochMilli();
        for (int i = 0; i < 20_000; i++) { // warm up: the JIT compiles the path, the buffer has grown
            out.clear();
            format.format(out, millis + i % 1000, Level.INFO, thread, logger, "processed message 42", null, null);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1000; i++) {
            out.clear();
            format.format(out, millis + i % 1000, Level.INFO, thread, logger, "processed message 42", null, null);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(allocated < 1000, "bytes allocated for 1000 records: " + allocated);
    }

    private String text(Level level, String thread, String logger, String message, Map<String, String> mdc,
            Throwable thrown) {
        byte[] record = format.format(INSTANT.toEpochMilli(), level, thread, logger, message, mdc, thrown);
        return new String(record, StandardCharsets.UTF_8);
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
