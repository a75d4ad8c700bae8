package io.troupe.benchmarks.micro;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

import io.troupe.host.mailbox.Envelope;
import io.troupe.host.mailbox.Mailbox;

/**
 * The actor mailbox ({@link Mailbox}, bounded MPSC) on its own, in messages per second:
 *
 * <ul>
 * <li>{@code offerPoll}: one thread offers one envelope and polls it back: the uncontended cost of
 *     both ends;</li>
 * <li>{@code oneProducer}: one producer thread and one consumer thread on the same mailbox;</li>
 * <li>{@code fourProducers}: four producer threads and one consumer thread, the senders contending
 *     on the mailbox's counter and head.</li>
 * </ul>
 *
 * Every offer allocates its {@link Envelope}, as a {@code tell} does. The capacity is the runtime's
 * default (10 000); a producer that finds the mailbox full and a consumer that finds it empty yield
 * and retry until they succeed (or the iteration ends), so in the groups every operation is one
 * message moved,
 * and JMH reports the producers' and the consumer's rates separately (they agree within the
 * mailbox's capacity per iteration).
 *
 * <p>Threading: the mailbox is shared by the group's threads ({@link Scope#Group}); {@link #poll}
 * runs on exactly one thread per group, as the mailbox's single-consumer contract requires.
 */
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MailboxBenchmark {

    /** ActorOptions' default mailbox capacity. */
    static final int CAPACITY = 10_000;
    private static final Object MESSAGE = "ping";

    /** One mailbox per benchmark thread, for the single-threaded round trip. */
    @State(Scope.Thread)
    public static class Own {
        Mailbox mailbox;

        @Setup(Level.Iteration)
        public void setUp() {
            mailbox = new Mailbox(CAPACITY);
        }
    }

    /** One mailbox per group of producers and their consumer. */
    @State(Scope.Group)
    public static class Shared {
        Mailbox mailbox;

        @Setup(Level.Iteration)
        public void setUp() {
            mailbox = new Mailbox(CAPACITY);
        }
    }

    @Benchmark
    @Threads(1)
    public Envelope offerPoll(Own own) {
        own.mailbox.offer(new Envelope(MESSAGE, null));
        return own.mailbox.poll();
    }

    @Benchmark
    @Group("oneProducer")
    @GroupThreads(1)
    public boolean oneProducerOffer(Shared shared, Control control) {
        return offer(shared.mailbox, control);
    }

    @Benchmark
    @Group("oneProducer")
    @GroupThreads(1)
    public Envelope oneProducerPoll(Shared shared, Control control) {
        return poll(shared.mailbox, control);
    }

    @Benchmark
    @Group("fourProducers")
    @GroupThreads(4)
    public boolean fourProducersOffer(Shared shared, Control control) {
        return offer(shared.mailbox, control);
    }

    @Benchmark
    @Group("fourProducers")
    @GroupThreads(1)
    public Envelope fourProducersPoll(Shared shared, Control control) {
        return poll(shared.mailbox, control);
    }

    /** Offers one envelope, retrying while the mailbox is full; false only when the iteration ended. */
    private static boolean offer(Mailbox mailbox, Control control) {
        Envelope envelope = new Envelope(MESSAGE, null);
        while (!mailbox.offer(envelope)) {
            if (control.stopMeasurement) {
                return false;
            }
            Thread.yield(); // on few cores, spinning would starve the other side
        }
        return true;
    }

    /** Polls one envelope, retrying while none is linked; null only when the iteration ended. */
    private static Envelope poll(Mailbox mailbox, Control control) {
        Envelope envelope;
        while ((envelope = mailbox.poll()) == null) {
            if (control.stopMeasurement) {
                return null;
            }
            Thread.yield(); // on few cores, spinning would starve the other side
        }
        return envelope;
    }
}
