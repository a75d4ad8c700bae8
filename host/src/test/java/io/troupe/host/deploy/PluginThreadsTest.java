package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PluginThreads} over live threads: those of the plugin's thread group (and groups under it), those
 * whose context class loader is the revision's, and no others.
 */
class PluginThreadsTest {

    private final CountDownLatch end = new CountDownLatch(1);

    @AfterEach
    void endThreads() {
        end.countDown();
    }

    @Test
    void findsThePluginsThreadsByGroupAndByContextClassLoaderAndNoOthers() throws Exception {
        ThreadGroup group = new ThreadGroup("troupe-plugin com.example.leaky");
        ThreadGroup child = new ThreadGroup(group, "inner");
        ClassLoader revision = new URLClassLoader(new URL[0], null);
        Thread inGroup = started(new Thread(group, this::waitForEnd, "leaky-a"));
        Thread inChildGroup = started(new Thread(child, this::waitForEnd, "leaky-b"));
        Thread withLoader = new Thread(this::waitForEnd, "leaky-c");
        withLoader.setContextClassLoader(revision);
        started(withLoader);
        Thread unrelated = started(new Thread(this::waitForEnd, "unrelated"));
        Thread ignored = started(new Thread(group, this::waitForEnd, "the deployer's own action"));

        List<Thread> found = PluginThreads.of(revision, group, Set.of(ignored));

        assertEquals(List.of(inGroup, inChildGroup, withLoader), found);
        assertTrue(unrelated.isAlive());
        String text = PluginThreads.describe(found);
        assertTrue(text.contains("\"leaky-a\" TIMED_WAITING"), text);
        assertTrue(text.contains("PluginThreadsTest.waitForEnd("), text);
    }

    @Test
    void withoutALoaderOrAGroupNothingIsFound() {
        assertEquals(List.of(), PluginThreads.of(null, null, Set.of()));
    }

    @Test
    void aDeepStackIsCutInTheReport() throws Exception {
        CountDownLatch deep = new CountDownLatch(1);
        Thread thread = started(new Thread(() -> recurse(40, deep), "deep"));
        assertTrue(deep.await(10, TimeUnit.SECONDS));

        String text = PluginThreads.describe(thread);

        assertEquals(PluginThreads.FRAMES, text.lines().filter(line -> line.startsWith("\tat ")).count(), text);
        assertTrue(text.lines().anyMatch(line -> line.matches("\t\\.\\.\\. \\d+ more")), text);
    }

    private void recurse(int depth, CountDownLatch deep) {
        if (depth == 0) {
            deep.countDown();
            waitForEnd();
            return;
        }
        recurse(depth - 1, deep);
    }

    private void waitForEnd() {
        try {
            end.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread started(Thread thread) throws InterruptedException {
        thread.setDaemon(true);
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        return thread;
    }
}
