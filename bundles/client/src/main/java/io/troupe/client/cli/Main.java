package io.troupe.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import io.troupe.client.TroupeClientException;

/**
 * The {@code troupe-client} command: {@code request} sends one request and prints the reply;
 * {@code bench} drives load and prints throughput and latency (see {@link #USAGE}).
 *
 * <p>Run as {@code java -cp troupe-client.jar:troupe-protocol.jar:HdrHistogram.jar
 * io.troupe.client.cli.Main ...}, or through the installation's {@code bin/troupe-client}, which
 * also sets {@code -Dtroupe.home} so that the defaults come from the installation's configuration
 * ({@link ServerTarget}). {@link #run(String...)} returns the exit status instead of exiting, so
 * that tests can run the command in-process.
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
    /** Bad command line or unusable configuration (sysexits' EX_USAGE). */
    static final int EXIT_USAGE = 64;
    static final int EXIT_INTERRUPTED = 130;

    static final String USAGE = """
            usage: troupe-client [OPTIONS] request NAME CONTENT
                   troupe-client [OPTIONS] bench [BENCH OPTIONS]
                   troupe-client --help

            Talks to a Troupe message server (protocol v1).

            commands:
              request NAME CONTENT  send CONTENT (UTF-8; "-" reads standard input) to the handler
                                    NAME, print the reply's bytes and a newline
              bench                 keep requests in flight on many connections for a while, then
                                    print requests/s, latency percentiles and errors

            options:
              --host HOST           server address (default: host in etc/io.troupe.server.cfg
                                    of the installation, else 127.0.0.1)
              --port PORT           server port (default: port in that file, else 7878)
              --tenant TENANT       tenant id (default in an installation: demo)
              --token TOKEN         the tenant's token (default in an installation: token in
                                    etc/io.troupe.tenant-TENANT.cfg)
              --timeout DURATION    limit for connecting and for each reply (default 30s)
              -h, --help            print this help

            bench options:
              --connections N       connections (default 64)
              --pipeline N          requests in flight per connection (default 16)
              --size BYTES          random payload per request (default 64)
              --duration DURATION   measured time (default 10s)
              --warmup DURATION     unmeasured time before it (default 2s)
              --name NAME           handler to call (default echo; echo replies are checked
                                    against their requests)
              --threads N           IO threads shared by the connections (default: cores, at most 4)

            DURATION: 500ms, 10s, 1.5s, 2m or a number of seconds. Put -- before a CONTENT
            that starts with a dash.

            exit status: 0 success; 2 the server answered ERROR (printed as CODE: detail), or
            some bench requests failed; 3 the server could not be reached, the connection was
            lost or no answer came in time; 64 bad usage or configuration; 1 anything else.
            """;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> systemProperty;

    /**
     * @param systemProperty looks up system properties ({@code troupe.home})
     */
    public Main(InputStream in, PrintStream out, PrintStream err, Function<String, String> systemProperty) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.systemProperty = systemProperty;
    }

    public static void main(String[] args) {
        int status = new Main(System.in, System.out, System.err, System::getProperty).run(args);
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command and returns its exit status; never calls {@link System#exit}. */
    public int run(String... args) {
        try {
            return dispatch(args);
        } catch (UsageException e) {
            err.println("troupe-client: " + e.getMessage());
            err.println();
            err.print(USAGE);
            err.flush();
            return EXIT_USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("troupe-client: interrupted");
            return EXIT_INTERRUPTED;
        }
    }

    private int dispatch(String[] args) throws UsageException, InterruptedException {
        Set<String> known = new HashSet<>(ServerTarget.OPTIONS);
        known.addAll(BenchOptions.OPTIONS);
        Arguments arguments = Arguments.parse(args, known);
        if (arguments.help()) {
            out.print(USAGE);
            out.flush();
            return EXIT_OK;
        }
        List<String> positional = arguments.positional();
        if (positional.isEmpty()) {
            throw new UsageException("no command");
        }
        String command = positional.get(0);
        List<String> operands = positional.subList(1, positional.size());
        return switch (command) {
            case "request" -> request(arguments, operands);
            case "bench" -> bench(arguments, operands);
            default -> throw new UsageException("unknown command '" + command + "'");
        };
    }

    private int request(Arguments arguments, List<String> operands) throws UsageException, InterruptedException {
        for (String name : arguments.optionNames()) {
            if (BenchOptions.OPTIONS.contains(name)) {
                throw new UsageException("--" + name + " is a bench option");
            }
        }
        if (operands.size() != 2) {
            throw new UsageException("request needs NAME and CONTENT");
        }
        ServerTarget target = ServerTarget.resolve(arguments, systemProperty.apply("troupe.home"));
        byte[] content;
        try {
            content = operands.get(1).equals("-") ? in.readAllBytes() : operands.get(1).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("troupe-client: cannot read standard input: " + e.getMessage());
            return EXIT_FAILURE;
        }
        return new RequestCommand(target, out, err).run(operands.get(0), content);
    }

    private int bench(Arguments arguments, List<String> operands) throws UsageException, InterruptedException {
        if (!operands.isEmpty()) {
            throw new UsageException("bench takes options only, not '" + operands.get(0) + "'");
        }
        BenchOptions options = BenchOptions.parse(arguments);
        ServerTarget target = ServerTarget.resolve(arguments, systemProperty.apply("troupe.home"));
        return new Bench(target, options, out, err).run();
    }

    /** {@code CODE: detail}, or just the code when the server gave no detail. */
    static String describe(TroupeClientException error) {
        return error.detail().isEmpty() ? error.code() : error.code() + ": " + error.detail();
    }
}
