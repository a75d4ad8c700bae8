package io.troupe.host.dispatch;

/**
 * A task that says which {@link RunGroup} it runs for, so that a {@link WorkerPool} queues it in its
 * tenant's lane and charges its turns to that tenant. Tasks that are not {@code Grouped}, or whose
 * group is {@code null}, run in the group of no tenant.
 *
 * <p><b>Threading:</b> {@link #runGroup()} is called from any thread and must return the same group
 * on every call.
 */
public interface Grouped {

    /** The group this task's turns belong to, or {@code null} for none. */
    RunGroup runGroup();
}
