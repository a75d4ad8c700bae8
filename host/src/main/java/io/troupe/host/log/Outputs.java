package io.troupe.host.log;

import java.util.Optional;
import org.slf4j.event.Level;

/**
 * The outputs the logger thread writes to: the rolling file, if there is one, and the console, if it
 * is switched on. The console can be switched live; the file is opened and closed with the logger.
 *
 * <p>A chunk the file cannot take (a full disk, a log folder gone, see {@link RollingFile}) goes to the
 * console instead, so that records are not lost where stderr is kept (the systemd journal, a terminal).
 * When the file works again, a WARN record of the logger saying how long it failed and how many records
 * missed it is written into the file, after the chunk that found it working.
 *
 * <p>Threading: one thread at a time, the holder of the logging I/O lock.
 */
final class Outputs implements LogOutput {

    private final RollingFile file;
    private final ConsoleOutput console;
    private final LogWriter.OwnRecords own;
    private boolean consoleOn;

    /**
     * @param file the log file, or null when there is none
     * @param own  formats the logger's own record written into the file when it works again
     */
    Outputs(RollingFile file, ConsoleOutput console, boolean consoleOn, LogWriter.OwnRecords own) {
        this.file = file;
        this.console = console;
        this.consoleOn = consoleOn;
        this.own = own;
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
        if (file == null) {
            return;
        }
        if (!file.append(bytes, offset, length)) {
            if (!consoleOn) {
                console.write(bytes, offset, length);
            }
            return;
        }
        String recovered = file.takeRecovery();
        if (recovered != null) {
            byte[] record = own.format(Level.WARN, recovered, null);
            if (consoleOn) {
                console.write(record, 0, record.length);
            }
            file.append(record, 0, record.length);
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
