package io.troupe.testkit.junit;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.TroupeRuntime;

/**
 * A real actor in a running runtime whose messages the test reads and asserts, as Pekko's
 * {@code TestProbe}: give its {@link #ref()} to the actors under test (as a reply address, a child's
 * parent, a subscriber), then expect what they send it, each expectation waiting at most a timeout.
 *
 * <pre>
 * &#64;Test
 * void theCounterRepliesWithTheTotal(Troupe troupe, TestProbe probe) {
 *     ActorRef counter = troupe.spawn(Counter::new, ActorOptions.defaults());
 *     counter.tell(5L, probe.ref());
 *     counter.tell("get", probe.ref());
 *     assertEquals(5L, probe.expectMessageClass(Long.class));
 *     assertSame(counter, probe.lastSender());
 *
 *     troupe.stop(counter);
 *     probe.expectTerminated(counter);
 * }
 * </pre>
 *
 * <p>Messages are taken in the order the probe's actor received them; each expectation takes the next
 * one (only {@link #fishForMessage} skips). Every expectation that does not say otherwise waits up to
 * the probe's {@linkplain #timeout() timeout}, {@value #DEFAULT_TIMEOUT_SECONDS} s unless set with
 * {@link #timeout(Duration)}, and fails with an {@link AssertionError} naming what was expected and what
 * arrived (or that nothing did). {@link #expectNoMessage(Duration)} is the one expectation that always
 * waits its whole time: there, waiting is the point. Arrays, {@code byte[]} replies above all, are
 * compared by content.
 *
 * <p><b>Threading:</b> the expectations, {@link #lastSender()} and {@link #reply} are for one test
 * thread at a time. The probe's actor runs on the runtime's workers and hands each message to that
 * thread through a blocking queue; {@link #ref()} may be used from any thread or actor.
 */
public final class TestProbe {

    /** How long an expectation waits by default, in seconds. */
    public static final long DEFAULT_TIMEOUT_SECONDS = 3;
    /** How long an expectation waits by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);

    private static final AtomicLong PROBES = new AtomicLong();
    /** How many skipped messages a failure of {@link #fishForMessage} lists. */
    private static final int SKIPPED_SHOWN = 20;

    private final String name;
    private final ActorRef ref;
    private final BlockingQueue<Received> inbox;
    private volatile Duration timeout;
    private volatile Received last;

    private TestProbe(String name, ActorRef ref, BlockingQueue<Received> inbox, Duration timeout) {
        this.name = name;
        this.ref = ref;
        this.inbox = inbox;
        this.timeout = timeout;
    }

    /** A probe named {@code probe-N} in {@code runtime}, with the default timeout. */
    public static TestProbe create(TroupeRuntime runtime) {
        return create(runtime, "probe-" + PROBES.incrementAndGet());
    }

    /**
     * A probe in {@code runtime}: a top-level actor named {@code name}, with the default timeout.
     *
     * @throws IllegalStateException if the runtime is closed
     */
    public static TestProbe create(TroupeRuntime runtime, String name) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(name, "name");
        BlockingQueue<Received> inbox = new LinkedBlockingQueue<>();
        ActorRef ref = runtime.spawn(() -> new Recorder(inbox), ActorOptions.defaults().withName(name));
        return new TestProbe(name, ref, inbox, DEFAULT_TIMEOUT);
    }

    /** The probe's actor: tell it messages, or give it as the sender of messages to others. */
    public ActorRef ref() {
        return ref;
    }

    /** How long an expectation waits when it is not given a time. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Sets how long this probe's expectations wait when they are not given a time.
     *
     * @return this probe
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public TestProbe timeout(Duration timeout) {
        this.timeout = positive(timeout);
        return this;
    }

    /**
     * Takes the next message, waiting up to the probe's timeout.
     *
     * @throws AssertionError if none arrives in time
     */
    public Object receiveMessage() {
        return receiveMessage(timeout);
    }

    /**
     * Takes the next message, waiting up to {@code max}.
     *
     * @throws AssertionError if none arrives in time
     */
    public Object receiveMessage(Duration max) {
        Received received = poll(max);
        if (received == null) {
            throw new AssertionError(name + " expected a message within " + time(max) + ", got none");
        }
        return received.message();
    }

    /**
     * Takes the next message and checks that it equals {@code expected} (arrays by content); returns it.
     *
     * @throws AssertionError if none arrives within the probe's timeout, or another one does
     */
    public <T> T expectMessage(T expected) {
        return expectMessage(expected, timeout);
    }

    /**
     * Takes the next message, waiting up to {@code max}, and checks that it equals {@code expected} (arrays
     * by content); returns it.
     *
     * @throws AssertionError if none arrives in time, or another one does
     */
    @SuppressWarnings("unchecked")
    public <T> T expectMessage(T expected, Duration max) {
        Received received = poll(max);
        if (received == null) {
            throw new AssertionError(name + " expected " + describe(expected) + " within " + time(max)
                    + ", got no message");
        }
        if (!Objects.deepEquals(expected, received.message())) {
            throw new AssertionError(name + " expected " + describe(expected) + ", got " + arrived(received));
        }
        return (T) received.message();
    }

    /**
     * Takes the next message and checks that it is a {@code type}; returns it as one.
     *
     * @throws AssertionError if none arrives within the probe's timeout, or one of another class does
     */
    public <T> T expectMessageClass(Class<T> type) {
        return expectMessageClass(type, timeout);
    }

    /**
     * Takes the next message, waiting up to {@code max}, and checks that it is a {@code type}; returns it as
     * one.
     *
     * @throws AssertionError if none arrives in time, or one of another class does
     */
    public <T> T expectMessageClass(Class<T> type, Duration max) {
        Objects.requireNonNull(type, "type");
        Received received = poll(max);
        if (received == null) {
            throw new AssertionError(name + " expected a " + type.getName() + " within " + time(max)
                    + ", got no message");
        }
        if (!type.isInstance(received.message())) {
            throw new AssertionError(name + " expected a " + type.getName() + ", got " + arrived(received));
        }
        return type.cast(received.message());
    }

    /**
     * Waits all of {@code duration} and checks that no message arrived meanwhile, nor was waiting.
     *
     * @throws AssertionError naming the message that arrived
     */
    public void expectNoMessage(Duration duration) {
        Received received = poll(duration);
        if (received != null) {
            throw new AssertionError(name + " expected no message for " + time(duration) + ", got "
                    + arrived(received));
        }
    }

    /**
     * Takes messages until one satisfies {@code wanted}, and returns it; those before it are dropped. Waits
     * up to the probe's timeout in all.
     *
     * @throws AssertionError if none does in time, listing the messages that were dropped
     */
    public Object fishForMessage(Predicate<Object> wanted) {
        return fishForMessage(wanted, timeout);
    }

    /**
     * Takes messages until one satisfies {@code wanted}, and returns it; those before it are dropped. Waits
     * up to {@code max} in all.
     *
     * @throws AssertionError if none does in time, listing the messages that were dropped
     */
    public Object fishForMessage(Predicate<Object> wanted, Duration max) {
        Objects.requireNonNull(wanted, "wanted");
        long deadline = System.nanoTime() + positive(max).toNanos();
        List<String> skipped = new ArrayList<>();
        int skippedCount = 0;
        while (true) {
            Received received = poll(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (received == null) {
                throw new AssertionError(name + " fished for a message within " + time(max) + " and caught"
                        + " none; it dropped " + skippedCount + (skippedCount == 0 ? "" : ": " + skipped
                        + (skippedCount > skipped.size() ? " and " + (skippedCount - skipped.size()) + " more" : "")));
            }
            if (wanted.test(received.message())) {
                return received.message();
            }
            if (++skippedCount <= SKIPPED_SHOWN) {
                skipped.add(describe(received.message()));
            }
        }
    }

    /**
     * Waits up to the probe's timeout for {@code actor} to stop (it may have already).
     *
     * @throws AssertionError if it is still running then
     */
    public void expectTerminated(ActorRef actor) {
        expectTerminated(actor, timeout);
    }

    /**
     * Waits up to {@code max} for {@code actor} to stop (it may have already). Messages sent to this probe
     * are not touched.
     *
     * @throws AssertionError if it is still running then
     */
    public void expectTerminated(ActorRef actor, Duration max) {
        Objects.requireNonNull(actor, "actor");
        try {
            actor.whenTerminated().toCompletableFuture().get(positive(max).toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(name + " expected " + actor + " to stop within " + time(max)
                    + ", but it is still running");
        } catch (ExecutionException e) {
            throw new AssertionError(name + " could not learn whether " + actor + " stopped", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(name + " was interrupted waiting for " + actor + " to stop", e);
        }
    }

    /**
     * The sender of the last message an expectation took: the actor to {@link #reply} to. A reference
     * whose messages go to dead letters when that message had no sender.
     *
     * @throws IllegalStateException if no expectation has taken a message yet
     */
    public ActorRef lastSender() {
        Received received = last;
        if (received == null) {
            throw new IllegalStateException(name + " has taken no message yet, so it has no last sender");
        }
        return received.sender();
    }

    /** Tells {@code message} to the {@linkplain #lastSender() last sender}, with this probe as the sender. */
    public void reply(Object message) {
        lastSender().tell(message, ref);
    }

    @Override
    public String toString() {
        return name + " " + ref;
    }

    private Received poll(Duration max) {
        long nanos = Objects.requireNonNull(max, "timeout").isNegative() ? 0 : max.toNanos();
        Received received;
        try {
            received = inbox.poll(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(name + " was interrupted waiting for a message", e);
        }
        if (received != null) {
            last = received;
        }
        return received;
    }

    private static Duration positive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a probe's timeout must be positive, was " + timeout);
        }
        return timeout;
    }

    private static String arrived(Received received) {
        return describe(received.message()) + " from " + received.sender();
    }

    /** A message as a failure shows it: its class, and a {@code byte[]} as text when it is UTF-8. */
    static String describe(Object message) {
        if (message == null) {
            return "null";
        }
        if (message instanceof byte[] bytes) {
            try {
                String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
                return "byte[" + bytes.length + "] \"" + text + "\" (UTF-8)";
            } catch (CharacterCodingException e) {
                return "byte[" + bytes.length + "] (not UTF-8)";
            }
        }
        if (message instanceof String text) {
            return "\"" + text + "\"";
        }
        return message + " (" + message.getClass().getName() + ")";
    }

    private static String time(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    /** One message as the probe's actor received it. */
    private record Received(Object message, ActorRef sender) {
    }

    /**
     * The probe's actor: hands every message, with its sender, to the test thread.
     *
     * <p><b>Threading:</b> an actor; the queue publishes each message to the test thread.
     */
    private static final class Recorder implements Actor {

        private final BlockingQueue<Received> inbox;

        Recorder(BlockingQueue<Received> inbox) {
            this.inbox = inbox;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            inbox.add(new Received(message, ctx.sender()));
        }
    }
}
