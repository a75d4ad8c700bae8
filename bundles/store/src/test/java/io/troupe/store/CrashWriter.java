package io.troupe.store;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

import io.troupe.api.state.StateKey;

/**
 * The child process of {@link CrashPointTest}: opens the store, prints {@code ready}, then writes snapshots
 * without end, {@value #IN_FLIGHT} at a time, to {@code keys} keys in turn with rising versions from
 * {@code firstVersion}, and prints {@code ack <key> <version>} once each write's stage has completed (the
 * snapshot is durable). The test kills it with SIGKILL at a random moment.
 *
 * <p>Arguments: store file, number of keys, first version.
 *
 * <p><b>Threading:</b> the main thread writes; acks are printed on the store's writer thread, each line
 * flushed at once (the print stream is synchronised).
 */
public final class CrashWriter {

    static final int IN_FLIGHT = 64;

    private CrashWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int keys = Integer.parseInt(args[1]);
        long version = Long.parseLong(args[2]);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        MvStateStore store = MvStateStore.open(file);
        out.println("ready");
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        while (true) {
            inFlight.acquire();
            int key = (int) (version % keys);
            long written = version;
            store.write(key(key), CrashSnapshot.of(key, written)).whenComplete((ok, failure) -> {
                if (failure == null) {
                    out.println("ack " + key + " " + written);
                } else {
                    out.println("failed " + key + " " + written + " " + failure);
                }
                inFlight.release();
            });
            version++;
        }
    }

    static StateKey key(int key) {
        return new StateKey("crash", "handler:crash", "actor-" + key);
    }
}
