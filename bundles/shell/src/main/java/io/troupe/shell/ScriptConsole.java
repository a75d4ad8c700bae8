package io.troupe.shell;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.Converter;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The console used when Troupe runs without a terminal: when the framework property
 * {@value #CONSOLE_PROPERTY} is {@value #SCRIPT_MODE}, a daemon thread reads command lines from the
 * process's standard input and runs them (see {@link LineConsole}), and a {@link BundleConverter} lets
 * framework commands take bundle ids ({@code stop 0}). In any other mode it does nothing; the
 * interactive console and its converters then come from the gogo.jline bundle.
 *
 * <p>It reads file descriptor 0 directly rather than {@code System.in}, which Gogo replaces with a
 * per-thread stream, and it never closes it. A blocking read cannot be interrupted: after
 * deactivation the thread ends at the next line (which it reports and does not run) or at end of
 * input.
 *
 * <p><b>Threading:</b> Declarative Services calls {@link #activate} and {@link #deactivate} (one
 * thread at a time, which also owns the converter registration) and sets the processor reference
 * from any thread; the reader thread sees the processor and the closed flag through volatile fields.
 */
@Component(service = {}, immediate = true)
public final class ScriptConsole {

    /** The framework property that selects the console. */
    static final String CONSOLE_PROPERTY = "troupe.console";
    /** The value of {@value #CONSOLE_PROPERTY} for the stdin console. */
    static final String SCRIPT_MODE = "script";

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile CommandProcessor processor;

    /**
     * Troupe's own commands ({@code ask}, {@code actors}, ..., {@code stats}, ...): the console starts
     * reading only once they are registered, so that a script's first line, written as soon as
     * {@code Troupe ready} appears, never meets "command not found" while the bundle's components are
     * still being activated.
     */
    @Reference
    private TroupeCommands troupeCommands;

    @Reference
    private StatsCommands statsCommands;

    private volatile boolean closed;
    private ServiceRegistration<Converter> converter;

    @Activate
    void activate(BundleContext context) {
        if (!SCRIPT_MODE.equals(context.getProperty(CONSOLE_PROPERTY))) {
            return;
        }
        converter = context.registerService(Converter.class, new BundleConverter(context), null);
        BufferedReader stdin = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream stderr = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(new LineConsole(stdin, stdout, stderr, () -> processor, () -> closed),
                "troupe-script-console");
        reader.setDaemon(true);
        reader.start();
    }

    @Deactivate
    void deactivate() {
        closed = true;
        if (converter != null) {
            try {
                converter.unregister();
            } catch (IllegalStateException e) {
                // already gone with the bundle
            }
            converter = null;
        }
    }
}
