package io.troupe.host.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

class FatalErrorsTest {

    @Test
    void everyVirtualMachineErrorIsFatalAndOtherThrowablesAreNot() {
        assertTrue(FatalErrors.isFatal(new OutOfMemoryError("Java heap space")));
        assertTrue(FatalErrors.isFatal(new StackOverflowError()));
        assertTrue(FatalErrors.isFatal(new InternalError("boom")));
        assertTrue(FatalErrors.isFatal(new UnknownError("?")));
        assertFalse(FatalErrors.isFatal(new IllegalStateException("a bug")));
        assertFalse(FatalErrors.isFatal(new AssertionError("an assertion")));
        assertFalse(FatalErrors.isFatal(new NoClassDefFoundError("a.B")));
        assertFalse(FatalErrors.isFatal(new IOException("disk")));
    }

    @Test
    void aVirtualMachineErrorAmongTheCausesIsFatal() {
        Throwable wrapped = new CompletionException(new RuntimeException(new OutOfMemoryError("Metaspace")));
        assertTrue(FatalErrors.isFatal(wrapped));
        assertTrue(FatalErrors.isFatal(new ExceptionInInitializerError(new StackOverflowError())));
    }

    @Test
    void aCycleOfCausesEndsTheSearch() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);
        assertFalse(FatalErrors.isFatal(first));
    }

    @Test
    void fatalHandsTheErrorToTheActionOnceAndGivesItBackToThrow() throws InterruptedException {
        OutOfMemoryError error = new OutOfMemoryError("test");
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            Error thrown = FatalErrors.fatal("testing", error);
            assertSame(error, thrown);
            assertTrue(FatalErrors.alreadyHandled(error));
            assertSame(error, FatalErrors.fatal("an outer catch block", error));
            RecordingFatalAction.Fatal heard = action.awaitFirst(1);
            assertEquals(1, action.heard().size(), "an error given back is not handed over twice");
            assertEquals("testing", heard.doing());
            assertEquals(Thread.currentThread().getName(), heard.thread());
        }
    }

    @Test
    void aFatalCauseInsideAnExceptionIsThrownAsAnError() {
        RuntimeException wrapper = new RuntimeException(new OutOfMemoryError("inside"));
        try (RecordingFatalAction action = RecordingFatalAction.install()) {
            Error thrown = FatalErrors.fatal("testing", wrapper);
            assertSame(wrapper, thrown.getCause());
            assertEquals(1, action.heard().size());
        }
    }
}
