package io.troupe.api;

/**
 * A snapshot of one live actor, for shells and monitoring.
 *
 * <p><b>Threading:</b> immutable; share it freely. Its counters were read one after another from
 * a running actor, not at one instant.
 *
 * @param id              the actor id
 * @param parentId        the parent's id, {@code 0} for top-level actors
 * @param name            display name
 * @param tenant          the tenant, empty for system actors
 * @param origin          where its code comes from: a handler or factory name, or the class that spawned it
 * @param mailboxDepth    messages waiting
 * @param processed       messages processed so far
 * @param failures        failures of {@code receive} so far
 * @param mailboxCapacity the mailbox's capacity (since 1.4)
 * @param overflow        what a {@code tell} to the full mailbox does (since 1.4)
 * @param rejected        messages refused to their sender because the mailbox was full (since 1.4):
 *                        {@code tell}s under {@link MailboxOverflow#REJECT}, and asks under any
 *                        policy that does not queue them
 * @param dropped         messages a full mailbox made dead letters (since 1.4), under
 *                        {@link MailboxOverflow#DROP_NEWEST} or {@link MailboxOverflow#DROP_OLDEST}
 */
public record ActorInfo(long id, long parentId, String name, String tenant, String origin,
                        int mailboxDepth, long processed, long failures, int mailboxCapacity,
                        MailboxOverflow overflow, long rejected, long dropped) {

    /** A snapshot without mailbox accounting: the constructor of version 1.3. */
    public ActorInfo(long id, long parentId, String name, String tenant, String origin, int mailboxDepth,
                     long processed, long failures) {
        this(id, parentId, name, tenant, origin, mailboxDepth, processed, failures,
                ActorOptions.DEFAULT_MAILBOX_CAPACITY, MailboxOverflow.BACKPRESSURE, 0, 0);
    }
}
