package io.troupe.host.plugin;

/**
 * One look at an {@link ActorPool}, as the monitor sizes it.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param size           members messages are routed to (retiring members not counted)
 * @param backlog        messages waiting in those members' mailboxes
 * @param healthyBacklog of those, messages waiting for members that are not stalled
 * @param busy           members inside {@code receive} now
 * @param stalled        members whose current turn the monitor reported as stalled
 * @param retiring       members taken out of routing that still finish their queue
 */
public record PoolSample(int size, long backlog, long healthyBacklog, int busy, int stalled, int retiring) {

    /** Members able to take the next message. */
    public int healthy() {
        return size - stalled;
    }
}
