package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link ConsoleSink} on in-memory streams; single-threaded. */
class ConsoleSinkTest {

    private static final String NL = System.lineSeparator();

    @Test
    void writesTheRecordVerbatim() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleSink sink = new ConsoleSink(new PrintStream(bytes, false, StandardCharsets.UTF_8));

        sink.append("line one" + NL + "\tline two" + NL);
        sink.close();

        assertEquals("line one" + NL + "\tline two" + NL, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStreamThatThrowsNeverReachesTheCaller() {
        PrintStream hostile = new PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void print(String s) {
                throw new IllegalStateException("replaced stderr is broken");
            }

            @Override
            public void println(String s) {
                throw new IllegalStateException("replaced stderr is broken");
            }
        };
        ConsoleSink sink = new ConsoleSink(hostile);

        sink.append("lost" + NL);
        sink.append("lost too" + NL);
        sink.flush();
    }
}
