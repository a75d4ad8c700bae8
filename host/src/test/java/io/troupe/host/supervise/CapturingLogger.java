package io.troupe.host.supervise;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger for tests: keeps every record (level, whether it carries the FATAL marker, the formatted
 * message, the throwable); optionally holds every call until released, as a stuck log disk would.
 *
 * <p><b>Threading:</b> any thread.
 */
final class CapturingLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    /** One record as logged. */
    record Logged(Level level, boolean fatal, String message, Throwable thrown) {
    }

    private final transient List<Logged> records = new CopyOnWriteArrayList<>();
    private final transient CountDownLatch hold;

    /** @param held whether every call waits for {@link #release} */
    CapturingLogger(boolean held) {
        this.name = "capturing";
        this.hold = new CountDownLatch(held ? 1 : 0);
    }

    void release() {
        hold.countDown();
    }

    List<Logged> records() {
        return List.copyOf(records);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
            Throwable throwable) {
        try {
            if (!hold.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the logger was held for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean fatal = marker != null && "FATAL".equals(marker.getName());
        records.add(new Logged(level, fatal, MessageFormatter.basicArrayFormat(messagePattern, arguments), throwable));
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
