package io.troupe.client.cli;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import io.troupe.client.TroupeClientException;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code troupe-client} command: {@code request} sends one request and prints the reply;
 * {@code bench} drives load and prints throughput and latency; {@code deploy} copies a plugin jar
 * into an installation's deploy folder and reports what the host made of it. picocli reads the
 * command line ({@link ClientCommand}); {@code --help} prints the full help of the command it
 * follows on standard output, and a usage error prints the problem, the command's synopsis and a
 * hint to try {@code --help} on standard error.
 *
 * <p>Run as {@code java -cp troupe-client.jar:troupe-protocol.jar:picocli.jar:HdrHistogram.jar
 * io.troupe.client.cli.Main ...}, or through the installation's {@code bin/troupe-client}, which
 * also sets {@code -Dtroupe.home} so that the defaults come from the installation's configuration
 * ({@link ServerTarget}) and deploy folder. {@link #run(String...)} returns the exit status instead of
 * exiting, so that tests can run the command in-process.
 *
 * <p><b>Threading:</b> one {@link #run} at a time per instance.
 */
public final class Main {

    static final int EXIT_OK = 0;
    /** Unexpected failure: a bug, or standard output closed. */
    static final int EXIT_FAILURE = 1;
    /** The server answered ERROR (printed as {@code CODE: detail}); bench: some requests failed. */
    static final int EXIT_SERVER_ERROR = 2;
    /** The server could not be reached, the connection was lost, or no answer came in time. */
    static final int EXIT_UNREACHABLE = 3;
    /** deploy: the host refused the jar, or it was refused before copying; nothing of it runs. */
    static final int EXIT_DEPLOY_REFUSED = 4;
    /** deploy: the host reported no outcome within the timeout. */
    static final int EXIT_NO_OUTCOME = 5;
    /** Bad command line or unusable configuration (sysexits' EX_USAGE). */
    static final int EXIT_USAGE = 64;
    static final int EXIT_INTERRUPTED = 130;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> systemProperty;
    private final Function<String, String> environment;

    /**
     * A command that reads no environment variable.
     *
     * @param systemProperty looks up system properties ({@code troupe.home})
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Function<String, String> systemProperty) {
        this(in, out, err, systemProperty, name -> null);
    }

    /**
     * @param systemProperty looks up system properties ({@code troupe.home})
     * @param environment    looks up environment variables ({@code TROUPE_TOKEN}, {@code TROUPE_TRUSTSTORE_PASSWORD},
     *                       {@code TROUPE_KEYSTORE_PASSWORD})
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Function<String, String> systemProperty,
            Function<String, String> environment) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.systemProperty = systemProperty;
        this.environment = environment;
    }

    public static void main(String[] args) {
        int status = new Main(System.in, System.out, System.err, System::getProperty, System::getenv).run(args);
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command and returns its exit status; never calls {@link System#exit}. */
    public int run(String... args) {
        CommandLine commandLine = ClientCommand.withoutServerOptions(new ClientCommand(in, out, err,
                systemProperty.apply(ClientCommand.HOME_PROPERTY), environment));
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        commandLine.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        commandLine.setParameterExceptionHandler((e, args1) -> usageError(e.getCommandLine(), problem(e)));
        commandLine.setExecutionExceptionHandler(this::executionFailed);
        int status = commandLine.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    /** Prints the problem, the synopsis of the command it concerns and a hint; returns {@link #EXIT_USAGE}. */
    private int usageError(CommandLine command, String problem) {
        CommandSpec spec = command.getCommandSpec();
        err.println("troupe-client: " + problem);
        String[] synopsis = spec.usageMessage().customSynopsis();
        for (int i = 0; i < synopsis.length; i++) {
            err.println(i == 0 ? "usage: " + synopsis[i] : synopsis[i]);
        }
        err.println("try '" + spec.qualifiedName() + " --help' for more information");
        err.flush();
        return EXIT_USAGE;
    }

    private int executionFailed(Exception e, CommandLine command, ParseResult parsed) {
        if (e instanceof UsageException usage) {
            return usageError(command, usage.getMessage());
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            err.println("troupe-client: interrupted");
            err.flush();
            return EXIT_INTERRUPTED;
        }
        err.println("troupe-client: " + e);
        err.flush();
        return EXIT_FAILURE;
    }

    /** What a picocli parameter exception means, in the words of this command. */
    private static String problem(ParameterException e) {
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (e.getCause() instanceof TypeConversionException conversion && e.getArgSpec() instanceof OptionSpec option) {
            return option.longestName() + " " + conversion.getMessage();
        }
        if (e instanceof OverwrittenOptionException overwritten
                && overwritten.getOverwritten() instanceof OptionSpec o) {
            return o.longestName() + " is given twice";
        }
        if (e instanceof MissingParameterException missing) {
            return missingParameter(spec, missing);
        }
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            return unmatchedArgument(spec, unmatched.getUnmatched().get(0));
        }
        return e.getMessage();
    }

    private static String missingParameter(CommandSpec spec, MissingParameterException e) {
        List<ArgSpec> missing = e.getMissing();
        if (!missing.isEmpty() && missing.get(0) instanceof OptionSpec option) {
            return option.longestName() + " needs a value";
        }
        List<String> labels = spec.positionalParameters().stream().map(ArgSpec::paramLabel).toList();
        return spec.name() + " needs " + String.join(" and ", labels);
    }

    private static String unmatchedArgument(CommandSpec spec, String argument) {
        if (argument.startsWith("-") && argument.length() > 1) {
            int equals = argument.indexOf('=');
            String name = equals < 0 ? argument : argument.substring(0, equals);
            List<String> commands = commandsWithOption(spec, name);
            if (commands.size() == 1) {
                return name + " is " + article(commands.get(0)) + " option";
            }
            return commands.isEmpty() ? "unknown option " + name
                    : name + " is an option of " + String.join(" and ", commands);
        }
        if (spec.parent() == null) {
            return "unknown command '" + argument + "'";
        }
        if (spec.positionalParameters().isEmpty()) {
            return spec.name() + " takes options only, not '" + argument + "'";
        }
        return "unexpected argument '" + argument + "'";
    }

    /** The names of the other commands that have the option {@code name}, in alphabetical order. */
    private static List<String> commandsWithOption(CommandSpec spec, String name) {
        CommandSpec root = spec.root();
        List<String> commands = new ArrayList<>();
        for (CommandLine sub : root.subcommands().values()) {
            CommandSpec other = sub.getCommandSpec();
            if (other != spec && other.findOption(name) != null && root.findOption(name) == null) {
                commands.add(other.name());
            }
        }
        Collections.sort(commands);
        return commands;
    }

    private static String article(String command) {
        return (command.startsWith("a") || command.startsWith("e") ? "an " : "a ") + command;
    }

    /** {@code CODE: detail}, or just the code when the server gave no detail. */
    static String describe(TroupeClientException error) {
        return error.detail().isEmpty() ? error.code() : error.code() + ": " + error.detail();
    }
}
