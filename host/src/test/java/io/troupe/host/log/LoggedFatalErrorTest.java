package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;

import io.troupe.host.supervise.FatalErrors;
import io.troupe.host.supervise.FatalExit;
import io.troupe.host.supervise.HeapReserve;
import io.troupe.host.supervise.RecordingFatalAction;

/**
 * A fatal error that some code caught and only logged (Jetty's thread pool logs "Job failed" and goes on, a
 * plugin may do the same) still ends the process: the logger hands it to the process's fatal action once the
 * record is written, and the fatal record the action writes about it does not come back to it.
 */
class LoggedFatalErrorTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private TroupeLogging logging;

    @BeforeEach
    void start() {
        logging = new TroupeLogging(Map.of("troupe.home", home.toString(), "troupe.log.console", "false",
                "troupe.log.flushIntervalMillis", "3600000"), Clock.systemUTC(), new BasicMDCAdapter(), false, () -> err);
    }

    @AfterEach
    void stop() {
        logging.stop();
    }

    @Test
    void anOutOfMemoryErrorThatALibraryLogsGoesToTheFatalAction() {
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            Logger jetty = logging.loggerFactory().getLogger("org.eclipse.jetty.util.thread.QueuedThreadPool");
            jetty.warn("Job failed", new IllegalStateException("an ordinary failure"));
            assertEquals(List.of(), action.heard());
            OutOfMemoryError error = new OutOfMemoryError("Java heap space");
            jetty.warn("Job failed", error);
            assertEquals(1, action.heard().size());
            assertEquals("logging it instead of ending the process (logger"
                    + " org.eclipse.jetty.util.thread.QueuedThreadPool)", action.heard().get(0).doing());
        }
    }

    @Test
    void theFatalRecordOfTheActionDoesNotComeBackToIt() throws IOException {
        List<Integer> halts = new CopyOnWriteArrayList<>();
        Logger own = logging.loggerFactory().getLogger(FatalExit.class.getName());
        FatalExit exit = new FatalExit(own, HeapReserve.forThisJvm(), () -> err, halts::add);
        exit.start();
        FatalErrors.FatalAction previous = FatalErrors.install(exit);
        try {
            logging.loggerFactory().getLogger("org.apache.felix.fileinstall").error("In main loop, we have serious"
                    + " trouble", new StackOverflowError());
            assertEquals(List.of(FatalExit.EXIT_STATUS), halts);
            List<String> fatal = Files.readAllLines(home.resolve("log/troupe.log")).stream()
                    .filter(line -> line.contains("FATAL: java.lang.StackOverflowError")).toList();
            assertEquals(1, fatal.size(), fatal::toString);
            assertTrue(fatal.get(0).contains("while logging it instead of ending the process (logger"
                    + " org.apache.felix.fileinstall)"), fatal.get(0));
        } finally {
            FatalErrors.uninstall(exit, previous);
            exit.close();
        }
    }
}
