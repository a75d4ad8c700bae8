package io.troupe.launcher;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FatalErrorExitTest {

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, UTF_8);
    private final List<Integer> halts = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler before;

    @BeforeEach
    void remember() {
        before = Thread.getDefaultUncaughtExceptionHandler();
    }

    @AfterEach
    void restore() {
        Thread.setDefaultUncaughtExceptionHandler(before);
    }

    @Test
    void aFatalErrorEndingAThreadHaltsWithSeventyAfterOneLine() throws InterruptedException {
        FatalErrorExit exit = new FatalErrorExit(err, halts::add);
        Thread thread = new Thread(() -> {
            throw new OutOfMemoryError("Java heap space");
        }, "FelixStartLevel");
        thread.setUncaughtExceptionHandler(exit);
        thread.start();
        thread.join(10_000);
        assertEquals(List.of(70), halts);
        assertEquals("troupe: FATAL: java.lang.OutOfMemoryError: Java heap space on thread FelixStartLevel; Troupe"
                + " halts now with exit status 70 (a supervisor such as systemd starts it again)",
                stderr.toString(UTF_8).strip());
    }

    @Test
    void otherThrowablesArePrintedAsTheJvmWouldAndNothingHalts() {
        new FatalErrorExit(err, halts::add).uncaughtException(Thread.currentThread(), new IllegalStateException("x"));
        assertEquals(List.of(), halts);
        assertTrue(stderr.toString(UTF_8).contains("java.lang.IllegalStateException: x"));
    }

    @Test
    void aFatalErrorFelixLoggedGoesToTheDefaultHandlerInForce() {
        List<Throwable> handed = new CopyOnWriteArrayList<>();
        Thread.setDefaultUncaughtExceptionHandler((thread, thrown) -> handed.add(thrown));
        FrameworkLog log = new FrameworkLog(err);
        StackOverflowError deep = new StackOverflowError();
        log.log(org.apache.felix.framework.Logger.LOG_ERROR, "EventDispatcher: Error during dispatch.",
                new RuntimeException(deep));
        log.log(org.apache.felix.framework.Logger.LOG_ERROR, "a bundle failed", new IllegalStateException("x"));
        assertEquals(1, handed.size());
        assertTrue(handed.get(0).getCause() == deep);
        assertFalse(FatalErrorExit.isFatal(new IllegalStateException("x")));
    }
}
