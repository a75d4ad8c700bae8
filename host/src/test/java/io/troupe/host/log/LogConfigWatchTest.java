package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * The logger's configuration watch over a real {@code etc/io.troupe.log.cfg}: the first read, a
 * change applied after it settled, and each warning given once.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread, as the logger thread would.
 */
class LogConfigWatchTest {

    @TempDir
    Path home;

    private final List<String> problems = new ArrayList<>();

    @Test
    void withoutAFileThereIsNothingToPoll() {
        LogConfigWatch watch = new LogConfigWatch(Map.of("troupe.log.level", "WARN"), problems::add);
        assertEquals(Level.WARN, watch.settings().thresholds().root());
        assertEquals(Optional.empty(), watch.path());
        assertEquals(Optional.empty(), watch.poll(problems::add));
    }

    @Test
    void theFileIsReadAtOnceAndAChangeOnceItSettled() throws IOException {
        Path file = write("level = DEBUG\n", 1);
        LogConfigWatch watch = new LogConfigWatch(Map.of("troupe.home", home.toString()), problems::add);
        assertEquals(Optional.of(file), watch.path());
        assertEquals(Level.DEBUG, watch.settings().thresholds().root());

        write("level = ERROR\nretention = 2\n", 2);
        assertEquals(Optional.empty(), watch.poll(problems::add), "changed since the last look: may be half-written");
        LogSettings next = watch.poll(problems::add).orElseThrow();
        assertEquals(Level.ERROR, next.thresholds().root());
        assertEquals(2, watch.settings().retention());
        assertEquals(List.of(), problems);
    }

    @Test
    void aWarningIsGivenOnceWhileItsValueStays() throws IOException {
        write("retention = many\n", 1);
        LogConfigWatch watch = new LogConfigWatch(Map.of("troupe.home", home.toString()), problems::add);
        assertEquals(List.of("io.troupe.log.cfg: retention = 'many': not an integer; keeping 5"), watch.newWarnings());

        write("retention = many\nlevel = WARN\n", 2);
        watch.poll(problems::add);
        watch.poll(problems::add);
        assertEquals(Level.WARN, watch.settings().thresholds().root());
        assertTrue(watch.newWarnings().isEmpty(), "the same bad value is not reported again");
    }

    private Path write(String text, int second) throws IOException {
        Path file = home.resolve("etc").resolve("io.troupe.log.cfg");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000L * second));
        return file;
    }
}
