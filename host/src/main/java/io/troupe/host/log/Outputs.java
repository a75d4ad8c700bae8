package io.troupe.host.log;

import java.util.Optional;

/**
 * The outputs the logger thread writes to: the rolling file, if there is one, and the console, if it
 * is switched on. The console can be switched live; the file is opened and closed with the logger.
 *
 * <p>Threading: one thread at a time, the holder of the logging I/O lock.
 */
final class Outputs implements LogOutput {

    private final RollingFile file;
    private final ConsoleOutput console;
    private boolean consoleOn;

    /** @param file the log file, or null when there is none */
    Outputs(RollingFile file, ConsoleOutput console, boolean consoleOn) {
        this.file = file;
        this.console = console;
        this.consoleOn = consoleOn;
    }

    Optional<RollingFile> file() {
        return Optional.ofNullable(file);
    }

    void setConsole(boolean on) {
        if (consoleOn && !on) {
            console.flush(false);
        }
        consoleOn = on;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        if (consoleOn) {
            console.write(bytes, offset, length);
        }
        if (file != null) {
            file.write(bytes, offset, length);
        }
    }

    @Override
    public void flush(boolean force) {
        if (consoleOn) {
            console.flush(false);
        }
        if (file != null) {
            file.flush(force);
        }
    }

    @Override
    public void close() {
        if (consoleOn) {
            console.close();
        }
        if (file != null) {
            file.close();
        }
    }
}
