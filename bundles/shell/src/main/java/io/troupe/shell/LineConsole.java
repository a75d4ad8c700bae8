package io.troupe.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Converter;

/**
 * Runs command lines read from a {@link BufferedReader} through a Gogo {@link CommandSession}, for
 * use without a terminal. For each line: a result is printed to {@code out} formatted as the
 * interactive shell does (unless it is {@code null} or formats to nothing); a failure of the line
 * itself (unknown command, syntax error) goes to {@code err} as
 * {@code gogo: <Exception>: <message>}; both streams are flushed after every line.
 * Blank lines and lines starting with {@code #} are skipped. End of input ends the loop and nothing
 * else. A command name without a scope is looked up in the {@code troupe} scope first.
 *
 * <p>The session is created from whichever {@link CommandProcessor} is current when a line arrives,
 * and recreated if the processor has been replaced since; without a processor the line is reported on
 * {@code err} and skipped.
 *
 * <p><b>Threading:</b> {@link #run} is the whole life of a console and must be called by exactly one
 * thread; the session is confined to it. The processor supplier and the closed flag are read on that
 * thread and may be changed by any other (they must be backed by volatile state).
 */
final class LineConsole implements Runnable {

    /** The Gogo session variable listing the command scopes searched for a name without one. */
    static final String SCOPE_VARIABLE = "SCOPE";
    /**
     * Troupe's commands first, so that {@code update} is {@code troupe:update} and not, depending on
     * Gogo's hash order, the framework's {@code felix:update}; then every other scope.
     */
    static final String SCOPE = "troupe:*";

    private final BufferedReader in;
    private final PrintStream out;
    private final PrintStream err;
    private final Supplier<CommandProcessor> processors;
    private final BooleanSupplier closed;

    private CommandProcessor sessionProcessor;
    private CommandSession session;

    LineConsole(BufferedReader in, PrintStream out, PrintStream err,
                Supplier<CommandProcessor> processors, BooleanSupplier closed) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.processors = processors;
        this.closed = closed;
    }

    @Override
    public void run() {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (closed.getAsBoolean()) {
                    err.println("troupe: the shell bundle has stopped; line not run: " + line);
                    err.flush();
                    return;
                }
                runLine(line.strip());
            }
        } catch (IOException e) {
            err.println("troupe: cannot read commands from standard input: " + e.getMessage());
            err.flush();
        } finally {
            closeSession();
        }
    }

    /** Runs one stripped line. */
    void runLine(String line) {
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        CommandSession current = session();
        if (current == null) {
            err.println("troupe: no Gogo command processor is available; line not run: " + line);
            err.flush();
            return;
        }
        try {
            Object result = current.execute(line);
            CharSequence text = result == null ? null : current.format(result, Converter.INSPECT);
            if (text != null && text.length() > 0) {
                out.println(text);
            }
        } catch (Exception e) {
            err.println("gogo: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            out.flush();
            err.flush();
        }
    }

    private CommandSession session() {
        CommandProcessor processor = processors.get();
        if (processor != sessionProcessor) {
            closeSession();
            if (processor != null) {
                session = processor.createSession(InputStream.nullInputStream(), out, err);
                session.put(SCOPE_VARIABLE, SCOPE);
                sessionProcessor = processor;
            }
        }
        return session;
    }

    private void closeSession() {
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                // the processor may already have closed it while stopping; nothing is lost
            }
            session = null;
            sessionProcessor = null;
        }
    }
}
