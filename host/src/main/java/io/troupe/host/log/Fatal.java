package io.troupe.host.log;

import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.helpers.BasicMarkerFactory;

/**
 * Fatal records: an ERROR record carrying the {@value #MARKER_NAME} marker is written and flushed,
 * together with every record queued before it, before the logging call returns, so it is in the
 * file even if the process aborts right after.
 *
 * <p>Any bundle can write one with SLF4J alone:
 * <pre>{@code
 * log.error(MarkerFactory.getMarker("FATAL"), "cannot go on: {}", reason, cause);
 * }</pre>
 * Host code writes {@code Fatal.fatal(LOG, "cannot go on: {}", reason, cause)}.
 *
 * <p>A fatal call does I/O on the calling thread and waits for the records queued before it: use
 * it before an abort, not for errors the runtime survives.
 *
 * <p>Threading: stateless; any thread.
 */
public final class Fatal {

    /** The marker's name. */
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
