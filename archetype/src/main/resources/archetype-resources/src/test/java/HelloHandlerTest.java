package ${package};

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;
import io.troupe.testkit.TestActorContext;
import io.troupe.testkit.TestActorRef;

/**
 * The handler forwards each request to a new greeter child, and the greeter replies.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class HelloHandlerTest {

    @Test
    void aRequestGoesToANewGreeterWithTheRequesterAsSender() throws Exception {
        TestActorContext ctx = new TestActorContext("handler");
        ctx.registerFactory(GreeterFactory.NAME, new GreeterFactory());
        ActorHarness handler = ActorHarness.start(new HelloHandler(), ctx);
        TestActorRef requester = ctx.newRef("requester");

        handler.deliverFrom(requester, Message.of(HelloHandler.MESSAGE, "Ada"));

        assertEquals(GreeterFactory.NAME, ctx.spawns().get(0).factoryName());
        TestActorRef greeter = ctx.spawned().get(0);
        assertSame(requester, greeter.received().get(0).sender());
    }

    @Test
    void aGreeterRepliesWithTheGreetingAndStops() throws Exception {
        ActorHarness greeter = ActorHarness.start(new GreeterFactory());
        Object reply = greeter.deliver(Message.of(HelloHandler.MESSAGE, " Ada\n")).onlyMessage();
        assertArrayEquals("Hello, Ada!".getBytes(StandardCharsets.UTF_8), assertInstanceOf(byte[].class, reply));
        assertEquals(true, greeter.context().selfStopped());
    }

    @Test
    void anEmptyNameIsABadRequest() throws Exception {
        ActorHarness handler = ActorHarness.start(new HelloHandler());
        Object reply = handler.deliver(Message.of(HelloHandler.MESSAGE, "  ")).onlyMessage();
        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, reply).code());
        assertEquals(List.of(), handler.context().spawns());
    }
}
