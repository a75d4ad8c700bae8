package io.troupe.host.dispatch;

/**
 * A task of a stress test that is only ever queued and counted, never run: it says its name, and its lane when
 * it belongs to a tenant.
 *
 * <p><b>Threading:</b> immutable.
 */
final class NamedTask implements Runnable, Grouped {

    private final String name;
    private final RunGroup group;

    NamedTask(String name, RunGroup group) {
        this.name = name;
        this.group = group;
    }

    NamedTask(String name) {
        this(name, null);
    }

    @Override
    public void run() {
        throw new IllegalStateException("the stress test only queues " + name);
    }

    @Override
    public RunGroup runGroup() {
        return group;
    }

    @Override
    public String toString() {
        return name;
    }
}
