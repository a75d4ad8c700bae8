package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.concurrent.ExecutionException;

import javax.inject.Inject;

import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.TroupeRuntime;
import io.troupe.testsupport.Await;

/**
 * The echo sample in a real framework: routed by name, answered byte for byte, and gone while its
 * bundle is stopped.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class EchoHandlerIT extends FrameworkTest {

    @Inject
    private TroupeRuntime runtime;

    @Inject
    private BundleContext context;

    @Before
    public void echoIsServed() {
        Requests.awaitHandler(runtime, "echo");
    }

    @Test
    public void askingEchoReturnsTheSameBytes() throws Exception {
        assertEchoed("hello, troupe".getBytes(UTF_8));

        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        assertEchoed(everyByte);

        assertEchoed(new byte[0]);
    }

    @Test
    public void stoppingTheEchoBundleMakesEchoFailWithNoHandler() throws Exception {
        Bundle echo = Bundles.find(context, Bundles.ECHO);
        echo.stop();
        try {
            Await.until("the runtime no longer serves echo",
                    () -> !runtime.handlerNames().contains("echo"),
                    () -> "handlers " + runtime.handlerNames());

            TroupeException failure = askExpectingFailure(Message.of("echo", "anyone there?"));
            assertEquals(ErrorCode.NO_HANDLER, failure.code());
            assertTrue("detail should name echo: " + failure.detail(), failure.detail().contains("echo"));
        } finally {
            echo.start();
        }

        Requests.awaitHandler(runtime, "echo");
        assertEchoed("back again".getBytes(UTF_8));
    }

    private void assertEchoed(byte[] content) throws Exception {
        Object reply = Requests.ask(runtime, new Message("echo", content.clone()));
        assertTrue("reply should be bytes, was " + describe(reply), reply instanceof byte[]);
        assertArrayEquals(content, (byte[]) reply);
    }

    private TroupeException askExpectingFailure(Message message) throws Exception {
        Object reply;
        try {
            reply = Requests.ask(runtime, message);
        } catch (TroupeException e) {
            throw new AssertionError("ask threw instead of completing exceptionally", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TroupeException failure) {
                return failure;
            }
            throw new AssertionError("expected a TroupeException", e.getCause());
        }
        fail("expected a failure, got " + describe(reply));
        return null;
    }

    private static String describe(Object reply) {
        return reply == null ? "null" : reply.getClass().getName() + " " + reply;
    }
}
