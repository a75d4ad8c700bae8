package io.troupe.host.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded multi-producer, single-consumer FIFO queue of {@link Envelope}s: an actor's mailbox.
 *
 * <p>The queue is a linked list in which producers append with one atomic exchange of the head
 * (Vyukov's MPSC queue) and the consumer follows {@code next} links from a sentinel. Capacity is kept
 * by a counter that producers raise with a compare-and-set before linking, so a full mailbox is
 * reported to the producer ({@code false}), never silently dropped. Nothing on either path locks or
 * blocks.
 *
 * <pre>
 *   consumer                                                   producers
 *   sentinel --next--&gt; e1 --next--&gt; e2 --next--&gt; e3  &lt;--  head (getAndSet)
 * </pre>
 *
 * <p>Order: envelopes from one producer thread are polled in the order it offered them.
 *
 * <p><b>Threading:</b> {@link #offer} and {@link #size} from any thread; {@link #poll} and
 * {@link #isEmpty} only from the single consumer (the thread running the actor's turn), and never
 * concurrently with itself.
 */
public final class Mailbox {

    private static final VarHandle HEAD;
    private static final VarHandle SIZE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(Mailbox.class, "head", Envelope.class);
            SIZE = lookup.findVarHandle(Mailbox.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Envelope head;
    @SuppressWarnings("unused") // accessed through SIZE
    private volatile int size;
    /** The consumed sentinel; only the consumer touches it. */
    private Envelope tail;

    public Mailbox(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        Envelope sentinel = new Envelope(null, null);
        this.tail = sentinel;
        this.head = sentinel;
    }

    /**
     * Appends {@code envelope} if the mailbox holds fewer than {@link #capacity()} messages.
     *
     * @return {@code false} when full; the envelope is then not queued
     */
    public boolean offer(Envelope envelope) {
        int current;
        do {
            current = (int) SIZE.getVolatile(this);
            if (current >= capacity) {
                return false;
            }
        } while (!SIZE.compareAndSet(this, current, current + 1));
        Envelope previous = (Envelope) HEAD.getAndSet(this, envelope);
        previous.next = envelope;
        return true;
    }

    /**
     * Appends {@code envelope} even if the mailbox is full. Only for the runtime's own notifications
     * (a child stopped), which must neither be lost nor overtake messages queued before them.
     */
    public void forceOffer(Envelope envelope) {
        SIZE.getAndAdd(this, 1);
        Envelope previous = (Envelope) HEAD.getAndSet(this, envelope);
        previous.next = envelope;
    }

    /**
     * Removes the oldest envelope, or returns {@code null} if none is linked yet. A producer that has
     * counted its envelope but not linked it yet makes this return {@code null} while {@link #size()}
     * is positive; callers retry later.
     */
    public Envelope poll() {
        Envelope next = tail.next;
        if (next == null) {
            return null;
        }
        tail.clear();
        tail = next;
        SIZE.getAndAdd(this, -1);
        return next;
    }

    /** Messages counted in the mailbox, including ones a producer is still linking. */
    public int size() {
        return (int) SIZE.getVolatile(this);
    }

    /** Whether no message is counted; a consumer-side view. */
    public boolean isEmpty() {
        return size() == 0;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Releases the last polled envelope's references. Called by the consumer after processing, so that
     * a message is not kept alive by the sentinel until the next one arrives.
     */
    public void releaseLast() {
        tail.clear();
    }
}
