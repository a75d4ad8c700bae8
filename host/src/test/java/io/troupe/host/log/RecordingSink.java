package io.troupe.host.log;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A hand-written sink stub that keeps every record; any thread. */
final class RecordingSink implements LogSink {

    final List<String> records = new CopyOnWriteArrayList<>();
    final AtomicInteger flushes = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void append(String record) {
        records.add(record);
    }

    @Override
    public void flush() {
        flushes.incrementAndGet();
    }

    @Override
    public void close() {
        closes.incrementAndGet();
    }
}
