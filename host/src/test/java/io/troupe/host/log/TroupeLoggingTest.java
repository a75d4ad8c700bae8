package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;

import io.troupe.api.log.Fatal;

/**
 * The asynchronous logger end to end, with its real logger thread, against a real temporary
 * {@code troupe.home}. Unless a test says otherwise the flush interval is an hour, so records reach
 * the file only through a fatal record, a flush, a stop, or a producer waking the logger thread.
 */
class TroupeLoggingTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path home;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private final List<TroupeLogging> started = new ArrayList<>();

    private TroupeLogging logging(String... keysAndValues) {
        Map<String, String> properties = new HashMap<>(Map.of(
                "troupe.home", home.toString(),
                "troupe.log.console", "false",
                "troupe.log.flushIntervalMillis", "3600000"));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        TroupeLogging logging = new TroupeLogging(properties, Clock.systemUTC(), new BasicMDCAdapter(),
                false, () -> err);
        started.add(logging);
        return logging;
    }

    @AfterEach
    void stopAll() {
        started.forEach(TroupeLogging::stop);
    }

    @Test
    void theLoggerThreadWritesQueuedRecordsWithinTheFlushInterval() throws IOException {
        TroupeLogging logging = logging("troupe.log.flushIntervalMillis", "20");

        logging.loggerFactory().getLogger("l").info("on its way");

        await(() -> read(file()).contains(" - on its way" + NL));
        assertEquals(Optional.of(file()), logging.logFile());
    }

    @Test
    void aFatalRecordIsOnDiskWithEverythingQueuedBeforeItWhenTheCallReturns() throws IOException {
        Logger log = logging().loggerFactory().getLogger("io.troupe.host.Boom");
        log.info("first");
        log.warn("second");

        Fatal.fatal(log, "cannot go on: {}", "disk controller gone", new IllegalStateException("boom"));

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(0).endsWith(" - first"), lines.toString());
        assertTrue(lines.get(1).endsWith(" - second"), lines.toString());
        assertTrue(lines.get(2).contains(" ERROR [") && lines.get(2).endsWith(" - cannot go on: disk controller gone"));
        assertEquals("java.lang.IllegalStateException: boom", lines.get(3));
        assertTrue(lines.get(4).startsWith("\tat "), "the stack trace in full");
    }

    @Test
    void theRuntimesEntriesForTheLoggingThreadJoinTheCallersMdcWhichWinsOnTheSameKey() throws IOException {
        TroupeLogging logging = logging();
        Thread caller = Thread.currentThread();
        logging.setRecordContext(() -> Thread.currentThread() == caller
                ? Map.of("actor", "echo-7#7", "tenant", "acme") : null);
        Logger log = logging.loggerFactory().getLogger("l");

        log.info("from the turn");
        logging.mdc().put("request", "r-1");
        log.info("with the caller's entry");
        logging.mdc().put("tenant", "override");
        log.info("the caller's value wins");
        logging.mdc().clear();
        logging.setRecordContext(() -> {
            throw new IllegalStateException("no context");
        });
        log.info("a failing context adds nothing");
        logging.setRecordContext(RecordContext.NONE);
        log.info("no entries");
        logging.flush();

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(0).endsWith(" - from the turn {actor=echo-7#7, tenant=acme}"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - with the caller's entry {actor=echo-7#7, request=r-1, tenant=acme}"),
                lines.get(1));
        assertTrue(lines.get(2).endsWith(" - the caller's value wins {actor=echo-7#7, request=r-1, tenant=override}"),
                lines.get(2));
        assertTrue(lines.get(3).endsWith(" - a failing context adds nothing"), lines.get(3));
        assertTrue(lines.get(4).endsWith(" - no entries"), lines.get(4));
    }

    @Test
    void aThrowableThatLogsWhilePrintedLeavesBothRecordsWhole() throws IOException {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        RuntimeException chatty = new RuntimeException() {
            private static final long serialVersionUID = 1L;

            @Override
            public String getMessage() {
                log.info("logged from getMessage");
                return "chatty";
            }
        };

        log.warn("outer record", chatty);
        logging.flush();

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(0).endsWith(" INFO  [" + Thread.currentThread().getName() + "] l - logged from getMessage"),
                lines.toString());
        assertTrue(lines.stream().anyMatch(line -> line.endsWith(" WARN  [" + Thread.currentThread().getName()
                + "] l - outer record")), lines.toString());
        assertTrue(lines.stream().anyMatch(line -> line.equals(chatty.getClass().getName() + ": chatty")), lines.toString());
    }

    @Test
    void stopWritesEverythingQueuedThenTheShutdownLineLastAndLaterRecordsGoToStderr() throws IOException {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        for (int i = 0; i < 1000; i++) {
            log.info("record {}", i);
        }

        logging.stop();
        log.info("after stop");
        logging.stop();

        List<String> lines = Files.readAllLines(file());
        assertEquals(1001, lines.size());
        assertTrue(lines.get(999).endsWith(" - record 999"));
        assertTrue(lines.get(1000).endsWith(" INFO  [" + Thread.currentThread().getName() + "] "
                + TroupeLogging.class.getName() + " - Troupe logger stopped"), lines.get(1000));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).endsWith(" - after stop" + NL));
        assertEquals(Optional.empty(), logging.logFile());
    }

    @Test
    void theShutdownLineIsLastEvenWhileOtherThreadsKeepLogging() throws Exception {
        TroupeLogging logging = logging("troupe.log.flushIntervalMillis", "5");
        Logger log = logging.loggerFactory().getLogger("l");
        List<Thread> producers = new ArrayList<>();
        int[] calls = new int[4];
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        for (int t = 0; t < calls.length; t++) {
            int id = t;
            Thread producer = new Thread(() -> {
                int afterStop = 0;
                while (afterStop < 100) {
                    log.info("producer {} record {}", id, calls[id]++);
                    if (stopped.get()) {
                        afterStop++;
                    }
                }
            }, "producer-" + t);
            producers.add(producer);
            producer.start();
        }
        await(() -> calls[0] > 1000 && calls[3] > 1000);

        logging.stop("Troupe runtime stopped");
        stopped.set(true);
        for (Thread producer : producers) {
            producer.join();
        }

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(lines.size() - 1).endsWith(" - Troupe runtime stopped"));
        long inStderr = stderr.toString(StandardCharsets.UTF_8).lines().count();
        int total = calls[0] + calls[1] + calls[2] + calls[3];
        assertEquals(total, lines.size() - 1 + inStderr, "every record in the file or, after stop, on stderr");
    }

    @Test
    void startAfterStopAppendsToTheSameFile() throws IOException {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        log.info("first run");
        logging.stop();

        logging.start();
        logging.start();
        log.info("second run");
        logging.stop();

        List<String> lines = Files.readAllLines(file());
        assertEquals(4, lines.size());
        assertTrue(lines.get(0).endsWith(" - first run") && lines.get(2).endsWith(" - second run"), lines.toString());
    }

    @Test
    void recordsDroppedAtTheCapAreCountedAndReportedInTheLog() throws Exception {
        TroupeLogging logging = logging("troupe.log.bufferCapBytes", "65536", "troupe.log.fullWaitMillis", "0");
        Logger log = logging.loggerFactory().getLogger("l");
        String padding = "p".repeat(300);
        int offered = 1000; // about 400 KB through a 64 KiB cap while the logger thread is held back

        logging.ioLock().lock();
        try {
            for (int i = 0; i < offered; i++) {
                log.info("record {} {}", i, padding);
            }
        } finally {
            logging.ioLock().unlock();
        }
        logging.flush(); // writes the backlog, after which records are queued again
        log.info("after the backlog");
        logging.stop();

        List<String> lines = Files.readAllLines(file());
        long written = lines.stream().filter(line -> line.contains(" - record ")).count();
        long reported = 0;
        Matcher dropped = Pattern.compile(" WARN  \\[.*\\] .* - (\\d+) records dropped: more than 65536 bytes")
                .matcher(String.join("\n", lines));
        while (dropped.find()) {
            reported += Long.parseLong(dropped.group(1));
        }
        assertTrue(logging.droppedRecords() > 0);
        assertTrue(lines.get(lines.size() - 2).endsWith(" - after the backlog"), "queued again once written");
        assertEquals(logging.droppedRecords(), reported, "every drop is reported");
        assertEquals(offered, written + reported, "nothing lost without being counted: written " + written
                + ", reported " + reported + ", counted " + logging.droppedRecords() + "\n" + String.join("\n",
                lines.stream().filter(line -> !line.contains(" - record ")).toList()));
    }

    @Test
    void theFileRollsBySizeAndKeepsTheRetentionCount() throws IOException {
        TroupeLogging logging = logging("troupe.log.rollSizeBytes", "1024", "troupe.log.retention", "2");
        Logger log = logging.loggerFactory().getLogger("l");
        for (int i = 0; i < 60; i++) {
            log.info("record {} {}", i, "r".repeat(100));
            logging.flush();
        }
        logging.stop();

        Path rolled1 = file().resolveSibling("troupe.log.1");
        Path rolled2 = file().resolveSibling("troupe.log.2");
        assertTrue(Files.exists(rolled1) && Files.exists(rolled2));
        assertFalse(Files.exists(file().resolveSibling("troupe.log.3")));
        for (Path each : List.of(rolled2, rolled1, file())) {
            assertTrue(Files.size(each) <= 1024, each + " has " + Files.size(each) + " bytes");
        }
        List<String> kept = new ArrayList<>();
        for (Path each : List.of(rolled2, rolled1, file())) {
            kept.addAll(Files.readAllLines(each));
        }
        assertTrue(kept.get(kept.size() - 1).endsWith(" - Troupe logger stopped"));
        assertTrue(kept.get(kept.size() - 2).contains(" - record 59 "), "oldest to newest: " + kept);
        for (String line : kept) {
            assertTrue(line.endsWith("r".repeat(100)) || line.endsWith(" - Troupe logger stopped"), line);
        }
    }

    @Test
    void levelsInTheConfigurationFileApplyLiveAndABadValueKeepsThePreviousOneWithOneWarning() throws Exception {
        Path config = Files.createDirectories(home.resolve("etc")).resolve("io.troupe.log.cfg");
        Files.writeString(config, "level=WARN\n");
        TroupeLogging logging = logging("troupe.log.configPollMillis", "10", "troupe.log.flushIntervalMillis", "10");
        Logger log = logging.loggerFactory().getLogger("io.troupe.host.actor.ActorCell");
        assertFalse(log.isInfoEnabled(), "the file is read before the first record");

        rewrite(config, "level=INFO\nlevel.io.troupe.host=DEBUG\n", 10);
        await(log::isDebugEnabled);
        assertFalse(logging.loggerFactory().getLogger("org.other.Thing").isDebugEnabled());

        rewrite(config, "level=INFO\nlevel.io.troupe.host=LOUD\n", 20);
        await(() -> read(file()).contains("io.troupe.log.cfg: level.io.troupe.host = 'LOUD'"));
        rewrite(config, "level=INFO\nlevel.io.troupe.host=LOUD\nretention=3\n", 30);
        await(() -> logging.settings().retention() == 3);
        logging.flush();

        assertTrue(log.isDebugEnabled(), "the previous level is kept");
        assertEquals(1, read(file()).lines().filter(line -> line.contains("'LOUD'")).count(), "warned once");
    }

    @Test
    void formatJsonInTheConfigurationFileAppliesLiveAndEveryLaterRecordIsOneJsonObjectWithItsMdcAndThrowable()
            throws Exception {
        Path config = Files.createDirectories(home.resolve("etc")).resolve("io.troupe.log.cfg");
        Files.writeString(config, "format = text\n");
        TroupeLogging logging = logging("troupe.log.configPollMillis", "10", "troupe.log.flushIntervalMillis", "10");
        Thread caller = Thread.currentThread();
        logging.setRecordContext(() -> Thread.currentThread() == caller ? Map.of("actor", "echo-7#7") : null);
        Logger log = logging.loggerFactory().getLogger("io.troupe.sample.Echo");
        log.info("as text");

        rewrite(config, "format = JSON\n", 10);
        await(() -> read(file()).contains("\"message\":\"Applied " + jsonEscaped(config.toString()) + "\""));
        logging.mdc().put("request", "r-\"1\"");
        log.error("failed for {}", "tenant \"acme\"", new IllegalStateException("boom\nline two"));
        logging.mdc().clear();
        rewrite(config, "format = yaml\n", 20);
        await(() -> read(file()).contains("format = 'yaml'"));
        log.info("still json");
        logging.flush();

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(0).endsWith(" INFO  [" + caller.getName() + "] io.troupe.sample.Echo - as text"
                + " {actor=echo-7#7}"), lines.get(0));
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> records = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            records.add(json.readTree(line)); // every later line is a whole JSON object
        }
        assertEquals(5, records.size(), lines.toString());
        assertEquals("Applied " + config, records.get(0).get("message").textValue());
        JsonNode failed = records.get(1);
        assertEquals("ERROR", failed.get("level").textValue());
        assertEquals(caller.getName(), failed.get("thread").textValue());
        assertEquals("io.troupe.sample.Echo", failed.get("logger").textValue());
        assertEquals("failed for tenant \"acme\"", failed.get("message").textValue());
        assertEquals(Map.of("actor", "echo-7#7", "request", "r-\"1\""),
                json.convertValue(failed.get("mdc"), Map.class));
        assertEquals("java.lang.IllegalStateException", failed.get("throwable").get("class").textValue());
        assertEquals("boom\nline two", failed.get("throwable").get("message").textValue());
        assertTrue(failed.get("throwable").get("stack").textValue()
                .startsWith("java.lang.IllegalStateException: boom\nline two" + NL + "\tat "));
        assertEquals("Applied " + config, records.get(2).get("message").textValue());
        assertEquals("WARN", records.get(3).get("level").textValue());
        assertEquals("io.troupe.log.cfg: format = 'yaml': not one of text, json; keeping json",
                records.get(3).get("message").textValue());
        assertEquals("still json", records.get(4).get("message").textValue());
    }

    @Test
    void theQueuedBytesGrowWithRecordsWaitingAndShrinkOnceWritten() {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        assertEquals(RecordQueue.INITIAL_BYTES, logging.queuedBytes());
        assertEquals(LogSettings.DEFAULT_BUFFER_CAP_BYTES, logging.bufferCapBytes());

        for (int i = 0; i < 200; i++) {
            log.info("r".repeat(100));
        }
        long waiting = logging.queuedBytes();
        logging.flush();

        assertTrue(waiting >= 200 * 100, "segments hold the records: " + waiting);
        assertTrue(logging.queuedBytes() < waiting, "written segments are released: " + logging.queuedBytes());
    }

    @Test
    void anInvalidLevelPropertyIsWrittenOnceAsAWarnRecord() throws IOException {
        TroupeLogging logging = logging("troupe.log.level", "LOUD");
        Logger log = logging.loggerFactory().getLogger("l");
        log.debug("filtered by the default level");
        log.info("kept by the default level");
        logging.stop();

        List<String> lines = Files.readAllLines(file());
        assertEquals(3, lines.size());
        assertTrue(lines.get(0).endsWith(" WARN  [" + Thread.currentThread().getName() + "] "
                + TroupeLogging.class.getName() + " - troupe.log.level = 'LOUD': not one of"
                + " TRACE, DEBUG, INFO, WARN, ERROR; keeping INFO"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - kept by the default level"));
    }

    @Test
    void aLogFileThatCannotBeOpenedSendsRecordsToTheConsoleWithAWarningUntilItCanBeOpened() throws IOException {
        Path notAFolder = Files.writeString(home.resolve("plain-file"), "x");
        TroupeLogging logging = logging("troupe.home", notAFolder.toString(), "troupe.log.console", "auto");
        Path file = notAFolder.resolve("log").resolve("troupe.log");

        logging.loggerFactory().getLogger("l").info("still logged");
        logging.flush();

        String console = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(console.contains(" WARN  ") && console.contains("Cannot open log file " + file
                + "; records go to the console until it can be opened, which is tried every second" + NL), console);
        assertTrue(console.contains("java.nio.file."), "the cause is printed: " + console);
        assertTrue(console.contains(" - still logged" + NL));

        Files.delete(notAFolder); // troupe.home can be made now
        await(() -> {
            logging.loggerFactory().getLogger("l").info("logged again");
            logging.flush();
            return Files.isRegularFile(file);
        });
        assertEquals(Optional.of(file), logging.logFile());
        logging.stop();

        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.get(0).endsWith(" - logged again"), lines.toString());
        assertTrue(lines.get(1).contains(" WARN  ") && lines.get(1).contains("log file " + file + " works again after"
                + " failing for "), "the record that found the file working, then what the failure cost: " + lines);
    }

    @Test
    void ofRejectsALoggerFactoryOfAnotherProvider() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TroupeLogging.of(name -> null));

        assertTrue(e.getMessage().contains("instead of " + TroupeServiceProvider.class.getName()),
                e.getMessage());
    }

    private static String jsonEscaped(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private Path file() {
        return home.resolve("log").resolve("troupe.log");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Rewrites {@code config} with a modification time {@code seconds} ahead, so the poll sees a change. */
    private static void rewrite(Path config, String text, int seconds) throws IOException {
        Files.writeString(config, text);
        Files.setLastModifiedTime(config, FileTime.fromMillis(System.currentTimeMillis() + seconds * 1000L));
    }

    /** Polls an effect of the logger thread for at most ten seconds. */
    static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
