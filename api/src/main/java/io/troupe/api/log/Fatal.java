package io.troupe.api.log;

import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.helpers.BasicMarkerFactory;

/**
 * Fatal records: an ERROR record carrying the {@value #MARKER_NAME} marker is written and flushed to
 * {@code log/troupe.log}, together with every record logged before it, before the logging call
 * returns, so it is on disk even if the process aborts right after.
 *
 * <pre>{@code
 * Fatal.fatal(log, "cannot go on: {}", reason, cause);
 * // the same, with SLF4J alone:
 * log.error(MarkerFactory.getMarker("FATAL"), "cannot go on: {}", reason, cause);
 * }</pre>
 *
 * <p>A fatal call does I/O on the calling thread and waits for the records queued before it: use it
 * before an abort, not for errors the server survives (and never on a reactor thread).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class Fatal {

    /** The marker's name; the runtime recognises the marker by this name. */
    public static final String MARKER_NAME = "FATAL";

    /**
     * A marker named {@value #MARKER_NAME}. Markers are recognised by name, so this one and
     * {@code MarkerFactory.getMarker("FATAL")} are interchangeable; this one does not make SLF4J bind.
     */
    public static final Marker MARKER = new BasicMarkerFactory().getMarker(MARKER_NAME);

    private Fatal() {
    }

    /** Writes a fatal ERROR record; {@code arguments} follow SLF4J's rules, a trailing throwable included. */
    public static void fatal(Logger logger, String format, Object... arguments) {
        logger.error(MARKER, format, arguments);
    }
}
