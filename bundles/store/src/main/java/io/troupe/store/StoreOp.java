package io.troupe.store;

import java.util.concurrent.CompletableFuture;

/**
 * One change queued for the writer thread, with the stage it completes once the change is durable.
 *
 * <p><b>Threading:</b> made on the caller's thread, handed to the writer thread through the queue (which
 * publishes it); from then on only the writer reads or changes it.
 */
abstract sealed class StoreOp permits StoreOp.Put, StoreOp.Remove, StoreOp.Purge, StoreOp.Close {

    /** When the op was queued, for the write latency. */
    final long queuedNanos = System.nanoTime();

    /** Fails the op's stage with {@code failure}. */
    abstract void fail(Throwable failure);

    /** Stores {@code value} under {@code key}. */
    static final class Put extends StoreOp {
        final String key;
        final byte[] value;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Put(String key, byte[] value) {
            this.key = key;
            this.value = value;
        }

        @Override
        void fail(Throwable failure) {
            done.completeExceptionally(failure);
        }
    }

    /** Removes {@code key}. */
    static final class Remove extends StoreOp {
        final String key;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Remove(String key) {
            this.key = key;
        }

        @Override
        void fail(Throwable failure) {
            done.completeExceptionally(failure);
        }
    }

    /** Removes every key that starts with {@code prefix}; completes with how many there were. */
    static final class Purge extends StoreOp {
        final String prefix;
        final CompletableFuture<Integer> done = new CompletableFuture<>();
        /** Set by the writer while it applies the op. */
        int removed;

        Purge(String prefix) {
            this.prefix = prefix;
        }

        @Override
        void fail(Throwable failure) {
            done.completeExceptionally(failure);
        }
    }

    /** The last op ever queued: the writer finishes what came before it and closes the file. */
    static final class Close extends StoreOp {
        @Override
        void fail(Throwable failure) {
            // nothing waits on it
        }
    }
}
