package io.troupe.api;

/**
 * Options for spawning an actor. Immutable; {@code with*} methods return a copy.
 *
 * <p><b>Threading:</b> safe to share between threads.
 */
public final class ActorOptions {

    /** Mailbox capacity used when none is given. */
    public static final int DEFAULT_MAILBOX_CAPACITY = 10_000;

    private static final ActorOptions DEFAULTS = new ActorOptions(null, DEFAULT_MAILBOX_CAPACITY);

    private final String name;
    private final int mailboxCapacity;

    private ActorOptions(String name, int mailboxCapacity) {
        this.name = name;
        this.mailboxCapacity = mailboxCapacity;
    }

    /** No name (the runtime derives one), capacity {@value #DEFAULT_MAILBOX_CAPACITY}. */
    public static ActorOptions defaults() {
        return DEFAULTS;
    }

    /** A copy with a display name. */
    public ActorOptions withName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("actor name must not be blank");
        }
        return new ActorOptions(name, mailboxCapacity);
    }

    /** A copy with another mailbox capacity (messages that may wait, at least 1). */
    public ActorOptions withMailboxCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be at least 1, was " + capacity);
        }
        return new ActorOptions(name, capacity);
    }

    /** The display name, or {@code null} to let the runtime choose one. */
    public String name() {
        return name;
    }

    /** How many messages may wait in the mailbox. */
    public int mailboxCapacity() {
        return mailboxCapacity;
    }

    @Override
    public String toString() {
        return "ActorOptions[name=" + name + ", mailboxCapacity=" + mailboxCapacity + "]";
    }
}
