package io.troupe.host.supervise;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.event.Level;

@Timeout(30)
class FatalExitTest {

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, UTF_8);
    private final List<String> halts = new CopyOnWriteArrayList<>();
    private final CountDownLatch halted = new CountDownLatch(1);

    private void halt(int status) {
        halts.add(status + " by " + Thread.currentThread().getName());
        halted.countDown();
    }

    @Test
    void writesOneFatalRecordReleasesTheReserveAndHaltsWithSeventy() throws InterruptedException {
        CapturingLogger log = new CapturingLogger(false);
        HeapReserve reserve = HeapReserve.forThisJvm();
        FatalExit exit = new FatalExit(log, reserve, () -> err, this::halt);
        exit.start();
        try {
            OutOfMemoryError error = new OutOfMemoryError("Java heap space");
            Thread failing = new Thread(() -> exit.onFatal(Thread.currentThread(), "running an iteration", error),
                    "troupe-io-7");
            failing.start();
            failing.join(10_000);
            assertEquals(List.of("70 by troupe-io-7"), halts);
            assertEquals(0, reserve.held(), "the reserve is released before the record is written");
            List<CapturingLogger.Logged> records = log.records();
            assertEquals(1, records.size(), records::toString);
            CapturingLogger.Logged record = records.get(0);
            assertEquals(Level.ERROR, record.level());
            assertTrue(record.fatal(), "the record carries the FATAL marker, so it is on disk before the halt");
            assertEquals("FATAL: java.lang.OutOfMemoryError: Java heap space on thread troupe-io-7 while running an"
                    + " iteration; Troupe halts now with exit status 70 (a supervisor such as systemd starts it"
                    + " again)", record.message());
            assertSame(error, record.thrown());
            assertTrue(stderr.toString(UTF_8).startsWith("troupe: FATAL: java.lang.OutOfMemoryError"), stderr::toString);
        } finally {
            exit.close();
        }
    }

    @Test
    void aSecondFatalErrorWritesNothingMoreAndWaitsForTheHalt() throws InterruptedException {
        CapturingLogger log = new CapturingLogger(false);
        FatalExit exit = new FatalExit(log, HeapReserve.forThisJvm(), () -> err, this::halt);
        exit.start();
        try {
            exit.onFatal(Thread.currentThread(), "first", new StackOverflowError());
            exit.onFatal(Thread.currentThread(), "second", new OutOfMemoryError());
            assertEquals(1, log.records().size());
            assertEquals(1, halts.size(), halts::toString);
            assertTrue(exit.triggered());
        } finally {
            exit.close();
        }
    }

    @Test
    void theWatchdogHaltsWhenTheRecordCannotBeWrittenInTime() throws InterruptedException {
        CapturingLogger stuck = new CapturingLogger(true);
        FatalExit exit = new FatalExit(stuck, HeapReserve.forThisJvm(), () -> err, this::halt, Duration.ofMillis(200));
        exit.start();
        Thread failing = new Thread(() -> exit.onFatal(Thread.currentThread(), "writing", new OutOfMemoryError()),
                "troupe-logger");
        try {
            long start = System.nanoTime();
            failing.start();
            assertTrue(halted.await(10, TimeUnit.SECONDS), "no halt while the log was stuck");
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(List.of("70 by " + FatalExit.WATCHDOG_NAME), halts);
            assertTrue(waited >= 200, "halted after " + waited + " ms, before the bound");
            assertEquals(List.of(), stuck.records(), "the record was still being written");
        } finally {
            stuck.release();
            failing.join(10_000);
            exit.close();
        }
    }

    @Test
    void closingEndsTheWatchdogWithoutHalting() throws InterruptedException {
        FatalExit exit = new FatalExit(new CapturingLogger(false), HeapReserve.forThisJvm(), () -> err, this::halt);
        exit.start();
        exit.close();
        Thread watchdog = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(FatalExit.WATCHDOG_NAME)).findFirst().orElse(null);
        if (watchdog != null) {
            watchdog.join(5_000);
        }
        assertEquals(List.of(), halts);
    }
}
