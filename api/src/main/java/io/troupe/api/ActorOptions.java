package io.troupe.api;

import java.util.Objects;

/**
 * Options for spawning an actor. Immutable; {@code with*} methods return a copy.
 *
 * <pre>
 * ActorOptions.defaults()                                         // derived name, never drops a tell
 *         .withName("ingest")
 *         .withMailbox(1_000, MailboxOverflow.REJECT);            // a full mailbox throws to the sender
 * </pre>
 *
 * <p><b>Mailboxes.</b> By default a mailbox has capacity {@value #DEFAULT_MAILBOX_CAPACITY} with
 * {@link MailboxOverflow#BACKPRESSURE}: a local {@code tell} is never lost, and the capacity is where
 * producers that can wait (a blocking {@link ActorRef#send}, the message server's sockets) start
 * waiting. {@link #withMailbox} makes the mailbox bounded with another {@link MailboxOverflow}
 * policy: refuse the sender, or drop the newest or the oldest message into dead letters. What every
 * policy refused or dropped is counted per actor ({@link ActorInfo}).
 *
 * <p><b>Threading:</b> safe to share between threads.
 */
public final class ActorOptions {

    /** Mailbox capacity used when none is given. */
    public static final int DEFAULT_MAILBOX_CAPACITY = 10_000;

    private static final ActorOptions DEFAULTS =
            new ActorOptions(null, DEFAULT_MAILBOX_CAPACITY, MailboxOverflow.BACKPRESSURE);

    private final String name;
    private final int mailboxCapacity;
    private final MailboxOverflow overflow;

    private ActorOptions(String name, int mailboxCapacity, MailboxOverflow overflow) {
        this.name = name;
        this.mailboxCapacity = mailboxCapacity;
        this.overflow = overflow;
    }

    /**
     * No name (the runtime derives one from the factory's class and the id), capacity
     * {@value #DEFAULT_MAILBOX_CAPACITY}, {@link MailboxOverflow#BACKPRESSURE}.
     */
    public static ActorOptions defaults() {
        return DEFAULTS;
    }

    /**
     * A copy with a display name, by which {@link ActorContext#lookup} and
     * {@link TroupeRuntime#lookup(String, String)} find the actor (a name containing {@code /}, the path
     * separator, cannot be found that way).
     */
    public ActorOptions withName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("actor name must not be blank");
        }
        return new ActorOptions(name, mailboxCapacity, overflow);
    }

    /**
     * A copy with another mailbox capacity (at least 1), keeping the overflow policy: with the default
     * policy, the point where back-pressure starts.
     */
    public ActorOptions withMailboxCapacity(int capacity) {
        return new ActorOptions(name, checked(capacity), overflow);
    }

    /**
     * A copy with a mailbox of {@code capacity} messages (at least 1) and what a {@code tell} to it
     * does when full (since 1.4).
     */
    public ActorOptions withMailbox(int capacity, MailboxOverflow overflow) {
        return new ActorOptions(name, checked(capacity), Objects.requireNonNull(overflow, "overflow"));
    }

    private static int checked(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be at least 1, was " + capacity);
        }
        return capacity;
    }

    /** The display name, or {@code null} to let the runtime choose one. */
    public String name() {
        return name;
    }

    /** How many messages may wait in the mailbox before its {@link #mailboxOverflow()} policy applies. */
    public int mailboxCapacity() {
        return mailboxCapacity;
    }

    /** What a {@code tell} to a full mailbox does (since 1.4). */
    public MailboxOverflow mailboxOverflow() {
        return overflow;
    }

    @Override
    public String toString() {
        return "ActorOptions[name=" + name + ", mailboxCapacity=" + mailboxCapacity + ", overflow=" + overflow + "]";
    }
}
