package ${package};

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.runtime.Troupe;
import io.troupe.testkit.junit.TestProbe;
import io.troupe.testkit.junit.TroupeExtension;

/**
 * The handler and its greeters on Troupe's embedded runtime, registered as Declarative Services registers
 * them in the server: a fresh runtime for each test, closed after it.
 *
 * <p><b>Threading:</b> JUnit's thread; the actors run on the runtime's workers, and the probes hand their
 * messages over.
 */
class HelloHandlerTest {

    private static final String TENANT = "acme";

    @RegisterExtension
    TroupeExtension troupe = TroupeExtension.withRuntime(runtime -> runtime.workers(2)
            .handler(HelloHandler.MESSAGE, new HelloHandler())
            .factory(GreeterFactory.NAME, new GreeterFactory()));

    @Test
    void aClientsRequestIsAnsweredWithTheGreeting(Troupe runtime) throws Exception {
        Object reply = runtime.ask(TENANT, Message.of(HelloHandler.MESSAGE, "Ada"), Duration.ofSeconds(3))
                .toCompletableFuture().get(3, TimeUnit.SECONDS);
        assertArrayEquals(utf8("Hello, Ada!"), assertInstanceOf(byte[].class, reply));
    }

    @Test
    void eachRequestGetsAGreeterOfItsOwnThatStopsAfterReplying(Troupe runtime, TestProbe probe) {
        ActorRef handler = runtime.handler(TENANT, HelloHandler.MESSAGE).orElseThrow();

        handler.tell(Message.of(HelloHandler.MESSAGE, "Ada"), probe.ref());
        probe.expectMessage(utf8("Hello, Ada!"));
        ActorRef firstGreeter = probe.lastSender();
        assertEquals(handler.id(), firstGreeter.parentId());
        probe.expectTerminated(firstGreeter);

        handler.tell(Message.of(HelloHandler.MESSAGE, "Grace"), probe.ref());
        probe.expectMessage(utf8("Hello, Grace!"));
        assertNotEquals(firstGreeter.id(), probe.lastSender().id());
    }

    @Test
    void aRequestWithoutANameIsABadRequest(Troupe runtime, TestProbe probe) {
        runtime.handler(TENANT, HelloHandler.MESSAGE).orElseThrow()
                .tell(Message.of(HelloHandler.MESSAGE, "  "), probe.ref());
        Failure failure = probe.expectMessageClass(Failure.class);
        assertEquals(ErrorCode.BAD_REQUEST, failure.code());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
