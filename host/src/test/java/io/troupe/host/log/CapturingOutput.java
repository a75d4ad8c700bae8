package io.troupe.host.log;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A hand-written output stub that keeps every byte; one writer at a time, as the contract says. */
final class CapturingOutput implements LogOutput {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger forces = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public synchronized void write(byte[] chunk, int offset, int length) {
        writes.incrementAndGet();
        bytes.write(chunk, offset, length);
    }

    @Override
    public void flush(boolean force) {
        if (force) {
            forces.incrementAndGet();
        }
    }

    @Override
    public void close() {
        closes.incrementAndGet();
    }

    synchronized String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    List<String> lines() {
        return text().lines().toList();
    }
}
