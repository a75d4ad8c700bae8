package io.troupe.host.reactor;

/**
 * What a {@link java.nio.channels.SelectionKey} of an {@link EventLoop} is attached to (muduo's
 * Channel): a listening socket or a connection.
 *
 * <p><b>Threading:</b> both methods run on the owning loop only.
 */
interface IoHandler {

    /** The channel is ready for the operations in {@code readyOps}. */
    void onReady(int readyOps);

    /** The loop is shutting down: release the channel now; no event follows. */
    void onLoopShutdown();
}
