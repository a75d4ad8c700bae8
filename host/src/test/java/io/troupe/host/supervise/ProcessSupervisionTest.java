package io.troupe.host.supervise;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProcessSupervisionTest {

    private final List<Integer> halts = new CopyOnWriteArrayList<>();
    private final List<String> passedOn = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private Thread.UncaughtExceptionHandler before;

    @BeforeEach
    void rememberTheDefaultHandler() {
        before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, thrown) -> passedOn.add(thread.getName() + ": " + thrown));
    }

    @AfterEach
    void restoreTheDefaultHandler() {
        Thread.setDefaultUncaughtExceptionHandler(before);
    }

    private ProcessSupervision open() {
        PrintStream err = new PrintStream(stderr, true, UTF_8);
        return ProcessSupervision.open(HeapReserve.forThisJvm(), () -> err, halts::add);
    }

    @Test
    void aFatalErrorEndingAnyThreadHaltsTheProcess() throws InterruptedException {
        try (ProcessSupervision supervision = open()) {
            Thread felix = new Thread(() -> {
                throw new OutOfMemoryError("Java heap space");
            }, "FelixDispatchQueue");
            felix.start();
            felix.join(10_000);
            assertEquals(List.of(FatalExit.EXIT_STATUS), halts);
            assertTrue(supervision.exit().triggered());
            assertTrue(stderr.toString(UTF_8).contains("on thread FelixDispatchQueue while running (the error escaped"
                    + " the code it ran)"), stderr::toString);
            assertEquals(List.of(), passedOn);
        }
    }

    @Test
    void otherUncaughtThrowablesGoToTheHandlerThatWasThereBefore() throws InterruptedException {
        try (ProcessSupervision supervision = open()) {
            Thread plugin = new Thread(() -> {
                throw new IllegalStateException("a plugin's bug");
            }, "plugin-thread");
            plugin.start();
            plugin.join(10_000);
            assertEquals(List.of("plugin-thread: java.lang.IllegalStateException: a plugin's bug"), passedOn);
            assertEquals(List.of(), halts);
        }
    }

    @Test
    void closingRestoresTheDefaultHandlerAndTheAction() {
        Thread.UncaughtExceptionHandler mine = Thread.getDefaultUncaughtExceptionHandler();
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            ProcessSupervision supervision = open();
            assertTrue(Thread.getDefaultUncaughtExceptionHandler() instanceof UncaughtErrors);
            supervision.close();
            assertSame(mine, Thread.getDefaultUncaughtExceptionHandler());
            FatalErrors.fatal("after close", new InternalError("test"));
            assertEquals(1, action.heard().size(), "the action from before is back");
            assertEquals(List.of(), halts);
        }
    }
}
