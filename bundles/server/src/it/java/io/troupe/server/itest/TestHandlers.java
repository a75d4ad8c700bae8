package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.MailboxOverflow;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Failure;
import io.troupe.api.Handler;
import io.troupe.api.Message;

/**
 * A test plugin registered from the probe without Declarative Services: {@link ActorFactory}
 * services with {@code troupe.handler} names, each handler doing one thing a test needs.
 *
 * <table>
 * <caption>Handlers</caption>
 * <tr><td>{@value #FAIL}</td><td>throws</td></tr>
 * <tr><td>{@value #SILENT}</td><td>never replies</td></tr>
 * <tr><td>{@value #REJECT}</td><td>replies {@code Failure.badRequest}</td></tr>
 * <tr><td>{@value #TYPES}</td><td>replies a String, a Message, an Integer or bytes, as asked</td></tr>
 * <tr><td>{@value #GATE}</td><td>waits at the {@link Gate}, counts, replies (unless the content starts
 *     with {@code quiet})</td></tr>
 * <tr><td>{@value #NARROW}</td><td>forwards to a child whose mailbox holds one message and which waits
 *     at the gate</td></tr>
 * <tr><td>{@value #PUSH}</td><td>pushes n messages to the client, then replies</td></tr>
 * <tr><td>{@value #ORDER}</td><td>checks that {@code run:seq} contents arrive in sequence (and
 *     replies unless a third part says {@code quiet})</td></tr>
 * </table>
 *
 * <p><b>Threading:</b> handlers run on runtime workers; the counters and the gate are thread-safe.
 */
final class TestHandlers implements AutoCloseable {

    static final String FAIL = "test.fail";
    static final String SILENT = "test.silent";
    static final String REJECT = "test.reject";
    static final String TYPES = "test.types";
    static final String GATE = "test.gate";
    static final String NARROW = "test.narrow";
    static final String PUSH = "test.push";
    static final String PUSHED = "test.pushed";
    static final String ORDER = "test.order";

    final Gate gate = new Gate();
    final AtomicInteger passed = new AtomicInteger();
    final AtomicReference<ActorRef> lastClient = new AtomicReference<>();
    private final List<ServiceRegistration<ActorFactory>> registrations = new ArrayList<>();
    private final Map<String, ServiceRegistration<ActorFactory>> byName = new HashMap<>();

    private TestHandlers() {
    }

    /** Registers every handler; they are served as soon as this returns. */
    static TestHandlers register(BundleContext context) {
        TestHandlers handlers = new TestHandlers();
        handlers.add(context, FAIL, () -> (ctx, message) -> {
            throw new IllegalStateException("boom: " + text(message));
        });
        handlers.add(context, SILENT, () -> (ctx, message) -> {
        });
        handlers.add(context, REJECT, () -> (ctx, message) -> ctx.reply(Failure.badRequest("rejected '"
                + text(message) + "'")));
        handlers.add(context, TYPES, () -> TestHandlers::replyOfType);
        handlers.add(context, GATE, () -> (ctx, message) -> {
            handlers.gate.pass();
            handlers.passed.incrementAndGet();
            if (!text(message).startsWith("quiet")) {
                ctx.reply("passed " + text(message));
            }
        });
        handlers.add(context, NARROW, () -> handlers.new Narrow());
        handlers.add(context, PUSH, () -> (ctx, message) -> {
            Message request = (Message) message;
            handlers.lastClient.set(request.client());
            int count = Integer.parseInt(request.text());
            for (int i = 0; i < count; i++) {
                request.client().tell(new Message(PUSHED, ("push " + i).getBytes(UTF_8)));
            }
            ctx.reply("pushed " + count);
        });
        handlers.add(context, ORDER, () -> new Order());
        return handlers;
    }

    @Override
    public void close() {
        gate.open();
        for (ServiceRegistration<ActorFactory> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // already gone with the probe
            }
        }
    }

    /** Withdraws the handler {@code name}, as when its plugin is stopped. */
    void withdraw(String name) {
        ServiceRegistration<ActorFactory> registration = byName.remove(name);
        registrations.remove(registration);
        registration.unregister();
    }

    private void add(BundleContext context, String name, ActorFactory factory) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(Handler.PROPERTY, name);
        ServiceRegistration<ActorFactory> registration = context.registerService(ActorFactory.class, factory,
                properties);
        registrations.add(registration);
        byName.put(name, registration);
    }

    private static String text(Object message) {
        return message instanceof Message m ? m.text() : String.valueOf(message);
    }

    private static void replyOfType(ActorContext ctx, Object message) {
        switch (text(message)) {
            case "string" -> ctx.reply("a string");
            case "message" -> ctx.reply(new Message("ignored", "a message".getBytes(UTF_8)));
            case "integer" -> ctx.reply(42);
            default -> ctx.reply(((Message) message).content());
        }
    }

    /** Blocks handlers while closed; counts those that arrived. Starts open. */
    static final class Gate {
        private volatile CountDownLatch open = new CountDownLatch(0);
        final AtomicInteger arrived = new AtomicInteger();

        void close() {
            open = new CountDownLatch(1);
        }

        void open() {
            open.countDown();
        }

        void pass() throws InterruptedException {
            arrived.incrementAndGet();
            if (!open.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the gate stayed closed for 30 s");
            }
        }
    }

    /** Forwards to a child with room for one message, which waits at the gate. */
    private final class Narrow implements Actor {
        private ActorRef child;

        @Override
        public void preStart(ActorContext ctx) {
            child = ctx.spawn(() -> (childCtx, message) -> {
                gate.pass();
                childCtx.reply("narrow " + text(message));
            }, ActorOptions.defaults().withName("narrow-child").withMailbox(1, MailboxOverflow.REJECT));
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            ctx.forward(child);
        }
    }

    /** Expects {@code run:seq[:quiet]} with seq 0, 1, 2, ... per run; replies ok or bad.request. */
    private static final class Order implements Actor {
        private final Map<String, Long> next = new HashMap<>();

        @Override
        public void receive(ActorContext ctx, Object message) {
            String[] parts = text(message).split(":");
            long expected = next.getOrDefault(parts[0], 0L);
            long seq = Long.parseLong(parts[1]);
            if (seq != expected) {
                ctx.reply(Failure.badRequest("run " + parts[0] + ": expected " + expected + ", got " + seq));
                return;
            }
            next.put(parts[0], seq + 1);
            if (parts.length < 3) {
                ctx.reply("ok " + seq);
            }
        }
    }
}
