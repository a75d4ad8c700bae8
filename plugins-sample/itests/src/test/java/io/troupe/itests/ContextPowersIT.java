package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

import io.troupe.api.Message;
import io.troupe.itests.plugins.WatchRoot;
import io.troupe.testsupport.Await;

/**
 * The actor context's powers of API 1.4 in a real framework, across a hot swap by the deploy folder:
 * a plugin actor that asks without blocking, watches a worker it spawned by factory name and holds
 * requests in its stash keeps all of it when its plugin is replaced: the stashed requests are
 * answered by the new revision, and the worker's death reaches the new instance exactly once.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ContextPowersIT extends HotSwapTest {

    private static final String JAR = "watch.jar";
    private static final String TENANT = "watchers";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    public void askWatchAndStashSurviveAHotSwap() throws Exception {
        assertEquals("running", deploy("1.0.0").getProperty("outcome"));
        assertEquals("asked pong", request(WatchRoot.START));
        assertEquals("holding", request(WatchRoot.HOLD));
        CompletableFuture<Object> held = ask(WatchRoot.REPORT);

        Properties swapped = deploy("2.0.0");
        assertEquals("outcome: " + swapped, "running", swapped.getProperty("outcome"));
        assertFalse("a stashed request waits for the release", held.isDone());

        assertEquals("released", request(WatchRoot.RELEASE));
        assertEquals("the stashed request is answered by the new revision", "asked pong", text(
                held.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)));

        assertEquals("stopping", request(WatchRoot.KILL));
        Await.until("the new instance heard of the worker's death",
                () -> request(WatchRoot.REPORT).equals("asked pong,terminated true"));
        assertTrue("no dead letters: " + deadLetters, deadLetters.isEmpty());
    }

    private Properties deploy(String version) throws Exception {
        byte[] jar = jars.watchPlugin(version);
        Instant since = Instant.now();
        folder.deploy(JAR, jar);
        return folder.awaitOutcome(JAR, jar, since, TIMEOUT);
    }

    private CompletableFuture<Object> ask(String name) {
        return runtime.ask(TENANT, Message.of(name, ""), TIMEOUT).toCompletableFuture();
    }

    private String request(String name) {
        try {
            return text(ask(name).get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new AssertionError(name + " was not answered", e);
        }
    }

    private static String text(Object reply) {
        assertTrue("a byte[] reply, not " + reply, reply instanceof byte[]);
        return new String((byte[]) reply, UTF_8);
    }
}
