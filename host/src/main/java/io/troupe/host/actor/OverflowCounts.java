package io.troupe.host.actor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one actor's full mailbox refused to senders and dropped into dead letters; created at the
 * first overflow, so an actor whose mailbox never filled carries none.
 *
 * <p><b>Threading:</b> any thread; atomic counters.
 */
final class OverflowCounts {

    final AtomicLong rejected = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
}
