package io.troupe.host.log;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The in-memory queue between the threads that log and the logger thread: a chain of byte
 * {@link Segment segments}. Producers copy finished records into the current segment; the logger
 * thread writes sealed segments out, oldest first.
 *
 * <pre>
 *   head (logger thread)                                     current (producers)
 *     │                                                          │
 *     ▼                                                          ▼
 *   [sealed 64K]──next──►[sealed 128K]──next──►  …  ──next──►[open 256K: claim, copy, publish]
 *     written and released                                       sealed by the logger thread's
 *     (its array becomes the spare)                              flush, or by the producer that
 *                                                                finds it full
 * </pre>
 *
 * <h2>Growth, cap and drops</h2>
 * The first segment holds {@value #INITIAL_BYTES} bytes; a producer that finds the current segment
 * full seals it and links a successor twice as large, up to a quarter of the cap (one record larger
 * than that gets a segment of its own size). The cap bounds the bytes of all segments not yet
 * written. When the successor does not fit under the cap, the sealing producer wakes the logger
 * thread and waits for room at most {@code fullWaitNanos}; the other producers wait for it. If there
 * is still no room, it links a {@link Segment.Kind#DROPPING} marker: every record offered while the
 * marker is current is dropped at once and counted in {@link #dropped()}, until the logger thread
 * has written the backlog and links an open segment behind the marker. A record larger than the cap
 * is dropped and counted too.
 *
 * <h2>Wake-ups</h2>
 * The logger thread sleeps on a timed park. A producer unparks it when its record crosses the middle
 * of a segment of at least {@value #WAKE_BYTES} x 2 bytes, or when it seals a full segment while at
 * least {@value #WAKE_BYTES} bytes are queued. Nobody spins for long: waiting producers spin
 * briefly, then yield, then park.
 *
 * <p>Threading: {@link #offer} from any number of threads, lock-free unless the cap is reached.
 * {@link #drain}, {@link #close} and {@link #reopen} are called by one thread at a time, the holder
 * of the logging I/O lock; {@link #setCap}, {@link #setFullWaitNanos} and {@link #setWakeTarget}
 * from any thread.
 */
final class RecordQueue {

    /** The size of the first segment: a page. */
    static final int INITIAL_BYTES = 4096;
    /** Queued bytes from which producers wake the logger thread early. */
    static final int WAKE_BYTES = 64 * 1024;
    /** Bounds of the cap, so that a quarter of it is a sensible segment. */
    static final int MIN_CAP_BYTES = 64 * 1024;
    static final int MAX_CAP_BYTES = 512 * 1024 * 1024;

    /** What became of an offered record. */
    enum Offer {
        QUEUED,
        /** Dropped at the cap and counted. */
        DROPPED,
        /** The queue is closed: the caller should write the record elsewhere. */
        CLOSED
    }

    private volatile Segment current;
    /** The oldest segment not yet written, or the last written one; I/O lock holder only. */
    private Segment head;
    /** Capacity of the segments not yet written, including the current one. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    /** One written array kept for the next segment, so a busy queue allocates nothing. */
    private final AtomicReference<byte[]> spare = new AtomicReference<>();
    private volatile int capBytes;
    private volatile long fullWaitNanos;
    private volatile Thread wakeTarget;
    /** The producer waiting for room under the cap, if any; unparked when a segment is released. */
    private volatile Thread roomWaiter;

    RecordQueue(int capBytes, long fullWaitNanos) {
        setCap(capBytes);
        setFullWaitNanos(fullWaitNanos);
        Segment first = newSegment(INITIAL_BYTES);
        queuedBytes.set(first.capacity());
        current = first;
        head = first;
    }

    void setCap(int bytes) {
        if (bytes < MIN_CAP_BYTES || bytes > MAX_CAP_BYTES) {
            throw new IllegalArgumentException("cap " + bytes + " outside [" + MIN_CAP_BYTES + ", "
                    + MAX_CAP_BYTES + "]");
        }
        capBytes = bytes;
    }

    void setFullWaitNanos(long nanos) {
        fullWaitNanos = Math.max(0, nanos);
    }

    /** The thread to unpark when records are waiting: the logger thread, or null for none. */
    void setWakeTarget(Thread thread) {
        wakeTarget = thread;
    }

    /** Records dropped at the cap since the queue was made. */
    long dropped() {
        return dropped.get();
    }

    /** Bytes of the segments not yet written; for tests and diagnostics. */
    long queuedBytes() {
        return queuedBytes.get();
    }

    /** Copies {@code record}, a complete record, into the queue; never blocks past the full wait. */
    Offer offer(byte[] record) {
        return offer(record, record.length);
    }

    /** Copies {@code record[0, length)}, a complete record, into the queue; see {@link #offer(byte[])}. */
    Offer offer(byte[] record, int length) {
        if (length > capBytes) {
            dropped.incrementAndGet();
            return Offer.DROPPED;
        }
        for (;;) {
            Segment s = current;
            if (s.kind != Segment.Kind.OPEN) {
                if (s.kind == Segment.Kind.CLOSED) {
                    return Offer.CLOSED;
                }
                dropped.incrementAndGet();
                return Offer.DROPPED;
            }
            int at = s.claim(length);
            if (at >= 0) {
                System.arraycopy(record, 0, s.bytes, at, length);
                s.publish(length);
                if (at < s.wakeAt && at + length >= s.wakeAt) {
                    wake();
                }
                return Offer.QUEUED;
            }
            if (s.seal() >= 0) {
                linkSuccessorOfFull(s, length);
            } else {
                awaitSuccessor(s);
            }
        }
    }

    /**
     * Writes every record offered before this call to {@code out}: seals the current segment if it
     * holds anything, then writes the sealed segments in order. Records offered meanwhile may or may
     * not be included. I/O lock holder only.
     */
    void drain(LogOutput out) {
        Segment last = current;
        if (last.kind == Segment.Kind.OPEN && last.length() > 0) {
            int length = last.seal();
            if (length >= 0) {
                linkSuccessorOfFlushed(last, length);
            }
        }
        for (;;) {
            Segment h = head;
            if (!h.written) {
                if (!h.isSealed()) {
                    return; // the open current segment, empty or filled after the call began
                }
                awaitComplete(h);
                if (h.length() > 0) {
                    out.write(h.bytes, 0, h.length());
                }
                h.written = true;
                release(h);
            }
            Segment n = h.next;
            if (n == null) {
                if (h.kind == Segment.Kind.DROPPING) {
                    link(h, newSegment(INITIAL_BYTES)); // the backlog is written
                }
                return;
            }
            head = n;
            if (h == last) {
                return;
            }
        }
    }

    /**
     * Closes the queue and writes everything it holds: later offers return {@link Offer#CLOSED}.
     * Idempotent. I/O lock holder only.
     */
    void close(LogOutput out) {
        Segment closed = Segment.marker(Segment.Kind.CLOSED);
        for (;;) {
            Segment s = current;
            if (s.kind == Segment.Kind.CLOSED) {
                break;
            }
            if (s.kind == Segment.Kind.DROPPING || s.seal() >= 0) {
                link(s, closed);
                break;
            }
            // A producer sealed s and is linking its successor, perhaps waiting for room: make room.
            drain(out);
            LockSupport.parkNanos(this, 50_000);
        }
        drain(out);
    }

    /** Opens a closed queue again; does nothing to an open one. I/O lock holder only. */
    void reopen() {
        Segment s = current;
        if (s.kind == Segment.Kind.CLOSED && s.next == null) {
            link(s, newSegment(INITIAL_BYTES));
        }
    }

    private void linkSuccessorOfFull(Segment full, int recordLength) {
        Segment next;
        try {
            next = successorOfFull(full, recordLength);
        } catch (OutOfMemoryError e) {
            next = Segment.marker(Segment.Kind.DROPPING);
        }
        link(full, next);
        if (next.kind == Segment.Kind.DROPPING || queuedBytes.get() >= WAKE_BYTES) {
            wake();
        }
    }

    /** A segment for at least {@code recordLength} bytes under the cap, or a dropping marker. */
    private Segment successorOfFull(Segment full, int recordLength) {
        int cap = capBytes;
        int wanted = Math.max(recordLength, Math.min(2 * full.capacity(), Math.max(INITIAL_BYTES, cap / 4)));
        long deadline = 0;
        for (;;) {
            long room = cap - queuedBytes.get();
            if (room >= recordLength) {
                return newSegment((int) Math.min(wanted, room));
            }
            wake();
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + fullWaitNanos;
            }
            long left = deadline - now;
            if (left <= 0) {
                return Segment.marker(Segment.Kind.DROPPING);
            }
            roomWaiter = Thread.currentThread();
            if (cap - queuedBytes.get() < recordLength) {
                if (Thread.currentThread().isInterrupted()) {
                    Thread.yield(); // park returns at once; keep the interrupt for the caller
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
            roomWaiter = null;
        }
    }

    /** The logger thread's successor: the same size, or half when the flushed one was mostly empty. */
    private void linkSuccessorOfFlushed(Segment flushed, int length) {
        int capacity = flushed.capacity();
        int wanted = length < capacity / 4 ? Math.max(INITIAL_BYTES, capacity / 2) : capacity;
        long room = capBytes - queuedBytes.get();
        wanted = (int) Math.max(INITIAL_BYTES, Math.min(wanted, room));
        Segment next;
        try {
            next = newSegment(wanted);
        } catch (OutOfMemoryError e) {
            next = Segment.marker(Segment.Kind.DROPPING);
        }
        link(flushed, next);
    }

    private void link(Segment s, Segment next) {
        queuedBytes.addAndGet(next.capacity());
        s.next = next;
        current = next;
    }

    /** A segment on the spare array if it has exactly {@code capacity} bytes, else on a new one. */
    private Segment newSegment(int capacity) {
        byte[] bytes = spare.getAndSet(null);
        if (bytes == null || bytes.length != capacity) {
            bytes = new byte[capacity];
        }
        return new Segment(bytes, capacity >= 2 * WAKE_BYTES ? capacity / 2 : Integer.MAX_VALUE);
    }

    private void release(Segment written) {
        if (written.capacity() >= INITIAL_BYTES) {
            spare.set(written.bytes);
        }
        queuedBytes.addAndGet(-written.capacity());
        Thread waiter = roomWaiter;
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    private void wake() {
        Thread target = wakeTarget;
        if (target != null) {
            LockSupport.unpark(target);
        }
    }

    /** Waits until the producer that sealed {@code s} has linked its successor. */
    private void awaitSuccessor(Segment s) {
        for (int spins = 0; current == s; spins++) {
            backOff(spins);
        }
    }

    /** Waits until the producers that claimed ranges of {@code s} have copied them. */
    private void awaitComplete(Segment s) {
        for (int spins = 0; !s.isComplete(); spins++) {
            backOff(spins);
        }
    }

    private void backOff(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else if (spins < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(this, 20_000);
        }
    }
}
