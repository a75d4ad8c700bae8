package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** {@link LogConfigFile} on a real file: what it reads, and when. */
class LogConfigFileTest {

    @TempDir
    Path dir;

    private final List<String> problems = new ArrayList<>();

    @Test
    void theFirstReadIsImmediateAndAChangeIsAppliedOnceItHasSettled() throws IOException {
        Path file = dir.resolve("io.troupe.log.cfg");
        write(file, "level=WARN\n", 0);
        LogConfigFile config = new LogConfigFile(file);
        assertEquals(Optional.of(Map.of("level", "WARN")), config.readIfChanged(problems::add));
        assertEquals(Optional.empty(), config.readIfChanged(problems::add), "unchanged");

        write(file, "level=INFO\n", 10);
        assertEquals(Optional.empty(), config.readIfChanged(problems::add), "just changed: it may still be written");
        assertEquals(Optional.of(Map.of("level", "INFO")), config.readIfChanged(problems::add));
        assertEquals(Optional.empty(), config.readIfChanged(problems::add));
        assertEquals(List.of(), problems);
    }

    @Test
    void aFileCaughtHalfWrittenIsNeverApplied() throws IOException {
        Path file = dir.resolve("io.troupe.log.cfg");
        write(file, "level=DEBUG\nlevel.io.troupe.host=TRACE\n", 0);
        LogConfigFile config = new LogConfigFile(file);
        config.readIfChanged(problems::add);

        write(file, "level=INFO\n", 10); // the first half of the new content
        assertEquals(Optional.empty(), config.readIfChanged(problems::add));
        write(file, "level=INFO\nlevel.io.troupe.host=DEBUG\n", 20); // the whole of it
        assertEquals(Optional.empty(), config.readIfChanged(problems::add), "changed again since the last look");
        assertEquals(Optional.of(Map.of("level", "INFO", "level.io.troupe.host", "DEBUG")),
                config.readIfChanged(problems::add));
    }

    @Test
    void aDeletedFileCountsAsEmptyOnceItStaysDeleted() throws IOException {
        Path file = dir.resolve("io.troupe.log.cfg");
        LogConfigFile config = new LogConfigFile(file);
        assertEquals(Optional.empty(), config.readIfChanged(problems::add), "no file at startup: nothing to apply");

        write(file, "level=WARN\n", 0);
        config.readIfChanged(problems::add);
        assertEquals(Optional.of(Map.of("level", "WARN")), config.readIfChanged(problems::add));

        Files.delete(file);
        assertEquals(Optional.empty(), config.readIfChanged(problems::add));
        assertEquals(Optional.of(Map.of()), config.readIfChanged(problems::add));
    }

    /** Writes {@code text}, dated {@code seconds} from now, so that every write changes the file's stamp. */
    private static void write(Path file, String text, int seconds) throws IOException {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + seconds * 1000L));
    }
}
