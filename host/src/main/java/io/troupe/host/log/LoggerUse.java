package io.troupe.host.log;

/**
 * One runtime's use of the {@link TroupeLogging} that SLF4J is bound to: while any use is open the logger
 * runs, and the last use to close stops it (everything queued is written, then
 * {@value TroupeLogging#STOPPED_LINE}). The host bundle holds one use from its start to its stop, the
 * runtime core one more while its actors run; an embedded runtime holds one per instance, so that two
 * runtimes in one JVM share the logger and the first to close does not silence the other.
 *
 * <p>A use may add a {@link RecordContext}: records written on its runtime's threads then carry the
 * entries it finds (the actor and tenant of a turn); each runtime's context answers for its own actors.
 *
 * <p><b>Threading:</b> any thread; {@link #close} is idempotent and serialised with the logger's start
 * and stop.
 */
public final class LoggerUse implements AutoCloseable {

    private final TroupeLogging logging;
    private volatile RecordContext context = RecordContext.NONE;
    /** Guarded by the logging's lifecycle lock. */
    private boolean closed;

    LoggerUse(TroupeLogging logging) {
        this.logging = logging;
    }

    /** The logger this use keeps running. */
    public TroupeLogging logging() {
        return logging;
    }

    /** Adds {@code context}'s entries to the records written from now on, until this use closes. */
    public void recordContext(RecordContext context) {
        logging.replaceContext(this.context, context);
        this.context = context;
    }

    /** Ends this use: its record context goes, and the logger stops if no other use is open. */
    @Override
    public void close() {
        logging.release(this);
    }

    /** Called by the logging under its lifecycle lock: whether this call closed the use. */
    boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    RecordContext context() {
        return context;
    }
}
