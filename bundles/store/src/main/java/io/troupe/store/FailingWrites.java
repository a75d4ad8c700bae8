package io.troupe.store;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's failing writes (a full disk, a file size limit, a device error), told once per episode: an
 * ERROR when the first batch fails, naming the disk's error, nothing while later batches fail the same way
 * (each of them still fails its writes with the precise error), and an INFO when a batch is written again,
 * saying how long writes failed and how many batches and changes were refused meanwhile.
 *
 * <p><b>Threading:</b> confined to the store's writer thread.
 */
final class FailingWrites {

    private static final Logger LOG = LoggerFactory.getLogger(FailingWrites.class);

    private final String fileName;
    private final Consumer<String> errors;
    private final Consumer<String> recoveries;
    private final LongSupplier nanoTime;

    private boolean failing;
    private long sinceNanos;
    private long batches;
    private long changes;

    /** Logs through this class's logger. */
    FailingWrites(String fileName) {
        this(fileName, LOG::error, LOG::info, System::nanoTime);
    }

    FailingWrites(String fileName, Consumer<String> errors, Consumer<String> recoveries, LongSupplier nanoTime) {
        this.fileName = Objects.requireNonNull(fileName, "fileName");
        this.errors = errors;
        this.recoveries = recoveries;
        this.nanoTime = nanoTime;
    }

    /** A batch of {@code ops} changes failed with {@code failure}, the error its writers got. */
    void failed(int ops, IOException failure) {
        batches++;
        changes += ops;
        if (failing) {
            return;
        }
        failing = true;
        sinceNanos = nanoTime.getAsLong();
        errors.accept("State store writes fail: " + failure.getMessage() + "; durable writes fail with this error"
                + " until the disk takes writes again (logged once), what was stored stays readable");
    }

    /** A batch was written. */
    void succeeded() {
        if (!failing) {
            return;
        }
        failing = false;
        long millis = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - sinceNanos);
        recoveries.accept("State store " + fileName + " writes again after failing for " + millis + " ms; " + batches
                + " batches (" + changes + " changes) were refused meanwhile");
        batches = 0;
        changes = 0;
    }

    boolean failing() {
        return failing;
    }
}
