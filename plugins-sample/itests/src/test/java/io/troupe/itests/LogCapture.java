package io.troupe.itests;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;

import io.troupe.testsupport.Await;

/**
 * Copies what is written to {@code System.err} from now until {@link #close()}, while still writing
 * it through. Without {@code troupe.home} (as here) the host's logger writes its records to
 * {@code System.err}, looked up at every write, so the test can read the host's log.
 *
 * <p><b>Threading:</b> any thread may write; {@link #text()} and the waits from the test thread.
 */
final class LogCapture implements AutoCloseable {

    private final PrintStream original;
    private final ByteArrayOutputStream copy = new ByteArrayOutputStream();

    private LogCapture(PrintStream original) {
        this.original = original;
    }

    /** Starts copying {@code System.err}. */
    static LogCapture start() {
        LogCapture capture = new LogCapture(System.err);
        System.setErr(new PrintStream(capture.new Tee(), true, UTF_8));
        return capture;
    }

    /** Everything written so far. */
    String text() {
        synchronized (copy) {
            return copy.toString(UTF_8);
        }
    }

    boolean contains(String fragment) {
        return text().contains(fragment);
    }

    /** Waits until a line containing every one of {@code fragments} was written; returns it. */
    String awaitLine(Duration timeout, String... fragments) {
        String[] found = new String[1];
        Await.until("the log has a line with " + String.join(" ... ", fragments), timeout, () -> {
            found[0] = lineWith(fragments);
            return found[0] != null;
        }, () -> "\n" + text());
        return found[0];
    }

    /** The first line containing every one of {@code fragments}, or null. */
    String lineWith(String... fragments) {
        for (String line : text().split("\n")) {
            boolean all = true;
            for (String fragment : fragments) {
                all &= line.contains(fragment);
            }
            if (all) {
                return line;
            }
        }
        return null;
    }

    @Override
    public void close() {
        System.err.flush();
        System.setErr(original);
    }

    /** Writes to the original stream and to the copy. */
    private final class Tee extends OutputStream {

        @Override
        public void write(int b) {
            original.write(b);
            synchronized (copy) {
                copy.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            original.write(bytes, offset, length);
            synchronized (copy) {
                copy.write(bytes, offset, length);
            }
        }

        @Override
        public void flush() {
            original.flush();
        }
    }
}
