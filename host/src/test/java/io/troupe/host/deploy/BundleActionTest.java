package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * {@link BundleAction} with real threads: operations that return, throw, block interruptibly and spin ignoring
 * interrupts, awaited with bounded timeouts.
 */
class BundleActionTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Duration SHORT = Duration.ofMillis(200);

    private final ThreadGroup group = new ThreadGroup("troupe-plugin com.example.test");

    @Test
    void anOperationThatReturnsIsDoneWithoutAFailureOnANamedThreadOfThePluginsGroup() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<ThreadGroup> ranIn = new AtomicReference<>();
        BundleAction action = BundleAction.begin("start", "com.example 1.0.0 (deploy/x.jar)", group, null, () -> {
            ranOn.set(Thread.currentThread());
            ranIn.set(Thread.currentThread().getThreadGroup());
        });

        assertTrue(action.await(BOUND));
        assertTrue(action.isDone());
        assertNull(action.failure());
        assertFalse(action.wasReleased());
        assertEquals("troupe-plugin-start com.example 1.0.0 (deploy/x.jar)", ranOn.get().getName());
        assertSame(group, ranIn.get());
        assertEquals("start of com.example 1.0.0 (deploy/x.jar)", action.description());
    }

    @Test
    void whatTheOperationThrowsIsItsFailure() throws Exception {
        IllegalStateException thrown = new IllegalStateException("activator refuses");
        BundleAction action = BundleAction.begin("start", "p", group, null, () -> {
            throw thrown;
        });

        assertTrue(action.await(BOUND));
        assertSame(thrown, action.failure());
    }

    @Test
    void anOperationThatBlocksOutlivesItsWaitShowsItsStackAndEndsWhenInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        BundleAction action = BundleAction.begin("start", "p", group, null, never::await);

        assertFalse(action.await(SHORT));
        assertFalse(action.isDone());
        assertNull(action.failure());
        assertTrue(action.stack().contains("CountDownLatch.await"), action.stack());
        assertTrue(action.stack().startsWith("\"troupe-plugin-start p\" "), action.stack());

        assertEquals(BundleAction.Release.ENDED, action.release(BOUND, BOUND));
        assertInstanceOf(InterruptedException.class, action.failure());
        assertTrue(action.wasReleased());
    }

    @Test
    void anOperationThatSpinsIgnoringInterruptsIsStoppedWhereTheJdkAllowsIt() throws Exception {
        CountDownLatch spinning = new CountDownLatch(1);
        BundleAction action = BundleAction.begin("start", "p", group, null, () -> {
            spinning.countDown();
            spinForEver();
        });
        assertTrue(spinning.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));

        BundleAction.Release release = action.release(SHORT, BOUND);

        if (Runtime.version().feature() < 20) {
            assertEquals(BundleAction.Release.STOPPED, release);
            assertInstanceOf(ThreadDeath.class, action.failure());
        } else {
            assertEquals(BundleAction.Release.STUCK, release); // Thread.stop throws from JDK 20 on
        }
    }

    @Test
    void whenDoneRunsOnceTheOperationEndsOrAtOnceIfItHas() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        BundleAction action = BundleAction.begin("stop", "p", group, null, go::await);
        CountDownLatch later = new CountDownLatch(1);
        action.whenDone(later::countDown);
        assertEquals(1, later.getCount());

        go.countDown();

        assertTrue(later.await(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        CountDownLatch now = new CountDownLatch(1);
        action.whenDone(now::countDown);
        assertEquals(0, now.getCount());
    }

    @Test
    void aVirtualMachineErrorWrappedByTheFrameworkIsFoundAmongTheCauses() {
        OutOfMemoryError fatal = new OutOfMemoryError("Java heap space");
        Exception wrapped = new Exception("Activator start error", new RuntimeException(fatal));

        assertSame(fatal, BundleAction.fatalCause(wrapped));
        assertNull(BundleAction.fatalCause(new Exception("plain", new IllegalStateException())));
        assertNull(BundleAction.fatalCause(null));
    }

    private static void spinForEver() {
        long turns = 0;
        while (turns >= 0) {
            turns++;
            Thread.onSpinWait();
        }
    }
}
