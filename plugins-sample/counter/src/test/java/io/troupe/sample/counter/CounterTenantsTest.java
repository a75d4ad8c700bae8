package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.runtime.Troupe;
import io.troupe.testkit.junit.TestProbe;
import io.troupe.testkit.junit.TroupeExtension;

/**
 * The counter as the server runs it, on the embedded runtime: the runtime creates one {@link CounterActor}
 * per tenant from the handler, on the tenant's first request, so each tenant counts on its own.
 *
 * <p>The handler is registered under the three names the plugin's {@code @Handler} lists, served by the same
 * actor per tenant, as in the server.
 *
 * <p><b>Threading:</b> JUnit's thread; the counters run on the runtime's workers.
 */
class CounterTenantsTest {

    private static final Duration REPLY = Duration.ofSeconds(3);

    @RegisterExtension
    TroupeExtension troupe = TroupeExtension.withRuntime(runtime -> runtime.workers(2)
            .handler(List.of(CounterActor.ADD, CounterActor.GET, CounterActor.VERSION),
                    () -> new CounterActor("1.0.0")));

    @Test
    void eachTenantHasItsOwnCounterAndItsOwnTotal(Troupe runtime) throws Exception {
        assertReply("5", runtime.ask("acme", Message.of(CounterActor.ADD, "5"), REPLY)
                .toCompletableFuture().get(REPLY.toSeconds(), TimeUnit.SECONDS));
        assertReply("2", runtime.ask("globex", Message.of(CounterActor.ADD, "2"), REPLY)
                .toCompletableFuture().get(REPLY.toSeconds(), TimeUnit.SECONDS));

        assertReply("5", runtime.ask("acme", Message.of(CounterActor.GET, ""), REPLY)
                .toCompletableFuture().get(REPLY.toSeconds(), TimeUnit.SECONDS));
        assertReply("2", runtime.ask("globex", Message.of(CounterActor.GET, ""), REPLY)
                .toCompletableFuture().get(REPLY.toSeconds(), TimeUnit.SECONDS));
        assertSame(runtime.handler("acme", CounterActor.ADD).orElseThrow(),
                runtime.handler("acme", CounterActor.GET).orElseThrow(), "one actor serves every name");
    }

    @Test
    void aTenantsRequestsAllReachTheSameCounterInOrder(Troupe runtime, TestProbe probe) {
        ActorRef acme = runtime.handler("acme", CounterActor.ADD).orElseThrow();
        for (int i = 1; i <= 100; i++) {
            acme.tell(Message.of(CounterActor.ADD, "1"), probe.ref());
        }
        for (int total = 1; total <= 100; total++) {
            probe.expectMessage(utf8(Integer.toString(total)));
            assertSame(acme, probe.lastSender());
        }
        assertSame(acme, runtime.handler("acme", CounterActor.ADD).orElseThrow(), "created once, on first use");
    }

    private static void assertReply(String expected, Object reply) {
        assertArrayEquals(utf8(expected), assertInstanceOf(byte[].class, reply));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
