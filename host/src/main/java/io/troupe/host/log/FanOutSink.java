package io.troupe.host.log;

import java.util.List;

/**
 * Hands every record to several sinks in order (the console first, so a record reaches the console
 * even if the file sink is being closed at that moment).
 *
 * <p>Threading: any thread; immutable, and relies on each member sink's own contract.
 */
final class FanOutSink implements LogSink {

    private final List<LogSink> sinks;

    FanOutSink(List<LogSink> sinks) {
        this.sinks = List.copyOf(sinks);
    }

    @Override
    public void append(String record) {
        for (LogSink sink : sinks) {
            sink.append(record);
        }
    }

    @Override
    public void flush() {
        for (LogSink sink : sinks) {
            sink.flush();
        }
    }

    @Override
    public void close() {
        for (LogSink sink : sinks) {
            sink.close();
        }
    }
}
