package io.troupe.host.actor;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.DeadLetter;

/**
 * Where undeliverable messages end: counted, logged at a bounded rate (at most
 * {@value #LOG_LINES_PER_SECOND} lines a second, with the number suppressed in between), and passed
 * to subscribers.
 *
 * <p><b>Threading:</b> {@link #publish} from any thread, lock-free; subscribers run on the publishing
 * thread.
 */
public final class DeadLetterOffice {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterOffice.class);
    static final int LOG_LINES_PER_SECOND = 10;
    private static final long WINDOW = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong count = new AtomicLong();
    private final CopyOnWriteArrayList<Consumer<DeadLetter>> subscribers = new CopyOnWriteArrayList<>();
    private final LongSupplier clock;
    private final AtomicLong windowStart;
    private final AtomicInteger loggedInWindow = new AtomicInteger();
    private final AtomicLong suppressed = new AtomicLong();

    public DeadLetterOffice(LongSupplier clock) {
        this.clock = clock;
        this.windowStart = new AtomicLong(clock.getAsLong());
    }

    public void publish(DeadLetter letter) {
        count.incrementAndGet();
        logRateLimited(letter);
        for (Consumer<DeadLetter> subscriber : subscribers) {
            try {
                subscriber.accept(letter);
            } catch (RuntimeException e) {
                LOG.warn("A dead-letter subscriber failed", e);
            }
        }
    }

    /** Dead letters so far. */
    public long count() {
        return count.get();
    }

    /** Adds a subscriber; closing the handle removes it. */
    public AutoCloseable subscribe(Consumer<DeadLetter> subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    private void logRateLimited(DeadLetter letter) {
        long now = clock.getAsLong();
        long start = windowStart.get();
        if (now - start >= WINDOW && windowStart.compareAndSet(start, now)) {
            loggedInWindow.set(0);
        }
        if (loggedInWindow.incrementAndGet() > LOG_LINES_PER_SECOND) {
            suppressed.incrementAndGet();
            return;
        }
        long skipped = suppressed.getAndSet(0);
        String recipient = letter.recipient() == null ? "nobody" : describe(letter.recipient());
        String sender = letter.sender() == null ? "nobody" : describe(letter.sender());
        String more = skipped > 0 ? " (" + skipped + " more dead letters not logged)" : "";
        if (letter.cause() != null) {
            LOG.info("Dead letter to {} from {}: {} ({}): {}{}", recipient, sender, summary(letter.message()),
                    letter.reason(), letter.cause().toString(), more);
        } else {
            LOG.info("Dead letter to {} from {}: {} ({}){}", recipient, sender, summary(letter.message()),
                    letter.reason(), more);
        }
    }

    private static String describe(io.troupe.api.ActorRef ref) {
        return ref.name() + "#" + ref.id();
    }

    private static String summary(Object message) {
        if (message == null) {
            return "null";
        }
        if (message instanceof byte[] bytes) {
            return "byte[" + bytes.length + "]";
        }
        String text = message.toString();
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
