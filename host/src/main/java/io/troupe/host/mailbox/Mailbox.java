package io.troupe.host.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An actor's mailbox: a bounded multi-producer, single-consumer FIFO queue of {@link Envelope}s, and
 * beside it an unbounded lane for the runtime's system messages (lifecycle, supervision), which the
 * consumer checks first.
 *
 * <p>The queue is a linked list in which producers append with one atomic exchange of the head
 * (Vyukov's MPSC queue) and the consumer follows {@code next} links from a sentinel. Capacity is kept
 * with two counters that wrap around (compared by difference, exact while fewer than 2<sup>31</sup>
 * envelopes are queued): producers claim a place by raising {@code produced} with a compare-and-set
 * before linking, so a full mailbox is reported to the producer ({@code false}), never silently
 * dropped; the consumer, its only writer, advances {@code consumed} with a plain ordered store, no
 * atomic instruction. Producers compare against a cached limit ({@code consumed + capacity} as last
 * seen) and read the consumer's counter only when that limit is reached, so the two sides do not
 * share a written cache line per message. Nothing on either path locks or blocks.
 *
 * <pre>
 *   consumer                                                   producers
 *   sentinel --next--&gt; e1 --next--&gt; e2 --next--&gt; e3  &lt;--  head (getAndSet)
 * </pre>
 *
 * The sentinel is the last envelope polled; before the first poll there is none, and the first
 * envelope is reached through {@code first}, written by the producer whose exchange found no head.
 *
 * <p>The system lane costs one reference while empty: producers push onto a lock-free stack with a
 * compare-and-set; the consumer takes the whole stack with one exchange and reverses it into sending
 * order. System messages are rare, so a node per message is cheap.
 *
 * <pre>
 *   producers:  systemHead --&gt; m3 --&gt; m2 --&gt; m1          (newest first)
 *   consumer:   systemPending --&gt; m1 --&gt; m2 --&gt; m3       (taken and reversed when it runs out)
 * </pre>
 *
 * <p>Order: envelopes from one producer thread are polled in the order it offered them; system
 * messages likewise.
 *
 * <p><b>Threading:</b> {@link #offer}, {@link #forceOffer}, {@link #offerSystem}, {@link #size} and
 * {@link #hasSystemMessagesPushed} from any thread; {@link #poll}, {@link #pollSystem}, {@link #hasSystemMessages} and
 * {@link #isEmpty} only from the single consumer (the thread running the actor's turn), and never
 * concurrently with itself.
 */
public final class Mailbox {

    private static final VarHandle HEAD;
    private static final VarHandle FIRST;
    private static final VarHandle SYSTEM_HEAD;
    private static final VarHandle PRODUCED;
    private static final VarHandle CONSUMED;
    private static final VarHandle LIMIT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(Mailbox.class, "head", Envelope.class);
            FIRST = lookup.findVarHandle(Mailbox.class, "first", Envelope.class);
            SYSTEM_HEAD = lookup.findVarHandle(Mailbox.class, "systemHead", SystemNode.class);
            PRODUCED = lookup.findVarHandle(Mailbox.class, "produced", int.class);
            CONSUMED = lookup.findVarHandle(Mailbox.class, "consumed", int.class);
            LIMIT = lookup.findVarHandle(Mailbox.class, "producerLimit", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A pushed system message; {@code next} is written before the node is published, then by the consumer. */
    private static final class SystemNode {
        final Object message;
        SystemNode next;

        SystemNode(Object message) {
            this.message = message;
        }
    }

    private final int capacity;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Envelope head;
    /** Envelopes counted in, by producers (compare-and-set; forced offers add). */
    @SuppressWarnings("unused") // accessed through PRODUCED
    private volatile int produced;
    /** Envelopes polled; written by the consumer only, with release stores. */
    @SuppressWarnings("unused") // accessed through CONSUMED
    private volatile int consumed;
    /** {@code consumed + capacity} as a producer last read it: below it, an offer needs no look at {@code consumed}. */
    @SuppressWarnings("unused") // accessed through LIMIT
    private int producerLimit;
    /**
     * The first envelope ever offered, until the consumer takes it: a new mailbox has no sentinel
     * envelope, so that an actor that never received a message carries none. Written once, by the
     * producer whose exchange found no head.
     */
    @SuppressWarnings("unused") // accessed through FIRST
    private Envelope first;
    /** The consumed sentinel ({@code null} until the first poll); only the consumer touches it. */
    private Envelope tail;
    /** System messages pushed and not yet taken, newest first. */
    @SuppressWarnings("unused") // accessed through SYSTEM_HEAD
    private volatile SystemNode systemHead;
    /** System messages taken from the stack, oldest first; confined to the consumer. */
    private SystemNode systemPending;

    public Mailbox(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.producerLimit = capacity;
    }

    /**
     * Appends {@code envelope} if the mailbox holds fewer than {@link #capacity()} messages.
     *
     * @return {@code false} when full; the envelope is then not queued
     */
    public boolean offer(Envelope envelope) {
        int position;
        do {
            position = (int) PRODUCED.getVolatile(this);
            int limit = (int) LIMIT.getOpaque(this);
            if (position - limit >= 0) {
                limit = (int) CONSUMED.getVolatile(this) + capacity;
                LIMIT.setOpaque(this, limit);
                if (position - limit >= 0) {
                    return false;
                }
            }
        } while (!PRODUCED.compareAndSet(this, position, position + 1));
        link(envelope);
        return true;
    }

    private void link(Envelope envelope) {
        Envelope previous = (Envelope) HEAD.getAndSet(this, envelope);
        if (previous == null) {
            FIRST.setRelease(this, envelope);
        } else {
            previous.link(envelope);
        }
    }

    /**
     * Appends {@code envelope} even if the mailbox is full. Only for the runtime's own notifications
     * (a child stopped), which must neither be lost nor overtake messages queued before them.
     */
    public void forceOffer(Envelope envelope) {
        PRODUCED.getAndAdd(this, 1);
        link(envelope);
    }

    /**
     * Removes the oldest envelope, or returns {@code null} if none is linked yet. A producer that has
     * counted its envelope but not linked it yet makes this return {@code null} while {@link #size()}
     * is positive; callers retry later.
     */
    public Envelope poll() {
        Envelope last = tail;
        Envelope next;
        if (last == null) {
            next = (Envelope) FIRST.getAcquire(this);
            if (next == null) {
                return null;
            }
            FIRST.setOpaque(this, null);
        } else {
            next = last.next();
            if (next == null) {
                return null;
            }
            last.clear();
        }
        tail = next;
        CONSUMED.setRelease(this, (int) CONSUMED.getOpaque(this) + 1);
        return next;
    }

    /** Messages counted in the mailbox, including ones a producer is still linking. */
    public int size() {
        int polled = (int) CONSUMED.getVolatile(this);
        int counted = (int) PRODUCED.getVolatile(this);
        return Math.max(0, counted - polled);
    }

    /**
     * Whether no message is counted; a consumer-side view. A volatile read of the producers' counter,
     * so that a consumer that has just published "idle" sees a producer that counted in before it.
     */
    public boolean isEmpty() {
        return (int) PRODUCED.getVolatile(this) == (int) CONSUMED.getOpaque(this);
    }

    /** Queues a system message; never refused. */
    public void offerSystem(Object message) {
        SystemNode node = new SystemNode(message);
        SystemNode top;
        do {
            top = (SystemNode) SYSTEM_HEAD.getVolatile(this);
            node.next = top;
        } while (!SYSTEM_HEAD.compareAndSet(this, top, node));
    }

    /** The oldest system message not yet polled, or {@code null}. */
    public Object pollSystem() {
        if (systemPending == null) {
            if (SYSTEM_HEAD.getVolatile(this) == null) {
                return null;
            }
            systemPending = reverse((SystemNode) SYSTEM_HEAD.getAndSet(this, null));
        }
        SystemNode first = systemPending;
        systemPending = first.next;
        first.next = null;
        return first.message;
    }

    /**
     * Whether a system message was pushed and not yet taken by the consumer; from any thread. Those the
     * consumer has taken and not processed yet are its turn's business (it is scheduled meanwhile).
     */
    public boolean hasSystemMessagesPushed() {
        return SYSTEM_HEAD.getVolatile(this) != null;
    }

    /** Whether a system message waits; a volatile read of the stack, so that one pushed before is seen. */
    public boolean hasSystemMessages() {
        return systemPending != null || SYSTEM_HEAD.getVolatile(this) != null;
    }

    private static SystemNode reverse(SystemNode newestFirst) {
        SystemNode oldestFirst = null;
        for (SystemNode node = newestFirst; node != null; ) {
            SystemNode next = node.next;
            node.next = oldestFirst;
            oldestFirst = node;
            node = next;
        }
        return oldestFirst;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Releases the last polled envelope's references. Called by the consumer after processing, so that
     * a message is not kept alive by the sentinel until the next one arrives.
     */
    public void releaseLast() {
        if (tail != null) {
            tail.clear();
        }
    }
}
