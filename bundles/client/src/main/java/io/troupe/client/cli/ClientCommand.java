package io.troupe.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.StatusPoller;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/**
 * The {@code troupe-client} command line as picocli reads it: the connection options (accepted
 * before or after the command, {@link ScopeType#INHERIT}) and one method per command. The methods
 * resolve what the command needs and hand over to {@link RequestCommand}, {@link Bench} and
 * {@link DeployCommand}; they return the exit status (see {@link Main}).
 *
 * <p><b>Threading:</b> one parse and one command per instance, on the caller's thread.
 */
@Command(name = "troupe-client", sortOptions = false, usageHelpWidth = 100,
        synopsisHeading = "usage: ",
        customSynopsis = {
            "troupe-client [OPTIONS] request NAME CONTENT",
            "       troupe-client [OPTIONS] bench [BENCH OPTIONS]",
            "       troupe-client deploy [--deploy-dir DIR] [--timeout DURATION] JAR",
            "       troupe-client [COMMAND] --help"},
        description = "%nTalks to a Troupe message server (protocol v1), and deploys plugins to a Troupe installation.",
        commandListHeading = "%ncommands:%n",
        optionListHeading = "%noptions:%n",
        footerHeading = "%n",
        footer = {
            "COMMAND --help lists the options of a command (bench, deploy).",
            "DURATION: 500ms, 10s, 1.5s, 2m or a number of seconds. Put -- before a CONTENT that starts with"
                + " a dash.",
            "",
            "exit status: 0 success; 2 the server answered ERROR (printed as CODE: detail), or some bench"
                + " requests failed; 3 the server could not be reached, the connection was lost or no answer"
                + " came in time; 4 deploy: the jar was refused (ERROR deploy.rejected: reason, or refused"
                + " before copying); 5 deploy: the host reported no outcome in time; 64 bad usage or"
                + " configuration; 1 anything else."})
final class ClientCommand implements Callable<Integer> {

    /** The system property naming the installation; {@code bin/troupe-client} sets it. */
    static final String HOME_PROPERTY = "troupe.home";

    /** The options that choose a server; {@code deploy} has none of them (see {@link #withoutServerOptions}). */
    static final List<String> SERVER_OPTIONS = List.of("--host", "--port", "--tenant", "--token", "--token-file",
            "--tls", "--truststore", "--truststore-password-file", "--keystore", "--keystore-password-file",
            "--no-hostname-verification");

    /** The connection options as given; null (or false) where absent. */
    record ServerOptions(String host, Integer port, String tenant, String token, Path tokenFile, Duration timeout,
                         TlsOptions tls) {
    }

    /** The TLS options as given; null (or false) where absent. */
    record TlsOptions(boolean tls, Path truststore, Path truststorePasswordFile, Path keystore,
                      Path keystorePasswordFile, boolean noHostnameVerification) {

        boolean anyGiven() {
            return tls || truststore != null || truststorePasswordFile != null || keystore != null
                    || keystorePasswordFile != null || noHostnameVerification;
        }
    }

    @Option(names = "--host", paramLabel = "HOST[:PORT][,...]", scope = ScopeType.INHERIT,
            description = "server address, or several comma-separated (the nodes of a cluster: tried in turn, and"
                    + " redirects to the node serving the tenant are followed); default: host in"
                    + " etc/io.troupe.server.cfg of the installation, else 127.0.0.1")
    private String host;

    @Option(names = "--port", paramLabel = "PORT", scope = ScopeType.INHERIT, converter = OptionValues.Port.class,
            description = "server port, for the addresses of --host that name none (default: port in that file,"
                    + " else 7878)")
    private Integer port;

    @Option(names = "--tenant", paramLabel = "TENANT", scope = ScopeType.INHERIT,
            description = "tenant id (default in an installation: demo)")
    private String tenant;

    @Option(names = "--token", paramLabel = "TOKEN", scope = ScopeType.INHERIT,
            description = "the tenant's token; visible to every user in the process list (ps): prefer --token-file"
                    + " or TROUPE_TOKEN")
    private String token;

    @Option(names = "--token-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "a file whose first line is the tenant's token (default: the environment variable"
                    + " TROUPE_TOKEN, else in an installation etc/io.troupe.tenant-TENANT.token)")
    private Path tokenFile;

    @Option(names = "--tls", scope = ScopeType.INHERIT,
            description = "speak TLS (default in an installation whose etc/io.troupe.server.cfg sets tls.keystore)")
    private boolean tls;

    @Option(names = "--truststore", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "PKCS#12 trust store with the certificate(s) the server's must chain to (implies --tls;"
                    + " default in an installation: etc/tls/trust.p12 when it exists, else the Java runtime's"
                    + " authorities)")
    private Path truststore;

    @Option(names = "--truststore-password-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "a file whose first line is the trust store's password (default: the environment"
                    + " variable TROUPE_TRUSTSTORE_PASSWORD, else etc/tls/trust.pass beside the default trust store)")
    private Path truststorePasswordFile;

    @Option(names = "--keystore", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "PKCS#12 keystore with the client's key and certificate, for servers that ask for one"
                    + " (mutual TLS; implies --tls)")
    private Path keystore;

    @Option(names = "--keystore-password-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "a file whose first line is the keystore's password (default: the environment variable"
                    + " TROUPE_KEYSTORE_PASSWORD)")
    private Path keystorePasswordFile;

    @Option(names = "--no-hostname-verification", scope = ScopeType.INHERIT,
            description = "accept a trusted server certificate even when it does not name the host connected to"
                    + " (for trying things out only)")
    private boolean noHostnameVerification;

    @Option(names = "--timeout", paramLabel = "DURATION", scope = ScopeType.INHERIT,
            converter = OptionValues.PositiveDuration.class,
            description = "request, bench: limit for connecting and for each reply (default 30s); deploy: limit"
                    + " for the host's outcome (default 60s)")
    private Duration timeout;

    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT, description = "print this help")
    private boolean help;

    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final String home;
    private final Function<String, String> environment;

    /**
     * @param home        the installation directory ({@value #HOME_PROPERTY}), or null
     * @param environment looks up environment variables ({@code TROUPE_TOKEN}, ...)
     */
    ClientCommand(InputStream in, PrintStream out, PrintStream err, String home,
            Function<String, String> environment) {
        this.in = in;
        this.out = out;
        this.err = err;
        this.home = home == null || home.isBlank() ? null : home;
        this.environment = environment;
    }

    /** Without a command. */
    @Override
    public Integer call() throws UsageException {
        throw new UsageException("no command");
    }

    @Command(name = "request", synopsisHeading = "usage: ", usageHelpWidth = 100, sortOptions = false,
            descriptionHeading = "%n", parameterListHeading = "%narguments:%n",
            customSynopsis = "troupe-client [OPTIONS] request NAME CONTENT",
            description = {"send CONTENT (UTF-8; \"-\" reads standard input) to the handler NAME, print the"
                + " reply's bytes and a newline"},
            optionListHeading = "%noptions:%n")
    int request(@Parameters(index = "0", paramLabel = "NAME", description = "the message name") String name,
                @Parameters(index = "1", paramLabel = "CONTENT", description = "the request's content, or -")
                String content,
                @Option(names = "--idempotent", description = "the request may be handled twice without harm: if"
                        + " the connection is lost before the reply, reconnect (to the next server when it is"
                        + " gone) and send it again; without it, such a loss fails with exit 3, the outcome"
                        + " unknown") boolean idempotent) throws UsageException, InterruptedException {
        ServerTarget target = ServerTarget.resolve(serverOptions(), home, environment, this::warn);
        byte[] bytes;
        try {
            bytes = content.equals("-") ? in.readAllBytes() : content.getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("troupe-client: cannot read standard input: " + e.getMessage());
            return Main.EXIT_FAILURE;
        }
        return new RequestCommand(target, out, err).run(name, bytes, idempotent);
    }

    @Command(name = "bench", synopsisHeading = "usage: ", usageHelpWidth = 100, sortOptions = false,
            descriptionHeading = "%n",
            customSynopsis = "troupe-client [OPTIONS] bench [BENCH OPTIONS]",
            description = {"keep requests in flight on many connections for a while, then print requests/s,"
                + " latency percentiles and errors"},
            optionListHeading = "%noptions:%n")
    int bench(@Mixin BenchOptions options) throws UsageException, InterruptedException {
        options.validate();
        ServerTarget target = ServerTarget.resolve(serverOptions(), home, environment, this::warn);
        return new Bench(target, options, out, err).run();
    }

    @Command(name = "deploy", synopsisHeading = "usage: ", usageHelpWidth = 100, sortOptions = false,
            descriptionHeading = "%n", parameterListHeading = "%narguments:%n",
            customSynopsis = "troupe-client deploy [--deploy-dir DIR] [--timeout DURATION] JAR",
            description = {"copy JAR into the deploy folder (replacing the jar of that name when it holds the same"
                + " bundle), wait for the host to run or refuse it, and print the outcome"},
            optionListHeading = "%noptions:%n")
    int deploy(@Option(names = "--deploy-dir", paramLabel = "DIR",
                       description = "the deploy folder (default: deploy/ of the installation)") Path deployDir,
               @Parameters(paramLabel = "JAR", description = "the plugin jar; its file name is its name in the"
                       + " folder") Path jar) throws UsageException, InterruptedException {
        if (host != null || port != null || tenant != null || token != null || tokenFile != null
                || tlsOptions().anyGiven()) {
            throw new UsageException("deploy copies into a folder and connects to no server: --host, --port,"
                    + " --tenant, --token, --token-file and the TLS options do not apply");
        }
        Path dir = deployDir;
        if (dir == null) {
            if (home == null) {
                throw new UsageException("no deploy folder: give --deploy-dir DIR (run from an installation, its"
                        + " deploy/ is the default)");
            }
            dir = Path.of(home, "deploy");
        }
        Duration wait = timeout == null ? StatusPoller.DEFAULT_TIMEOUT : timeout;
        return new DeployCommand(new DeployFolder(dir), wait, out, err).run(jar.toAbsolutePath());
    }

    /**
     * The command line for {@code command}, whose {@code deploy} does not list the inherited options
     * that choose a server: given after {@code deploy} they are unknown, given before it
     * {@link #deploy} refuses them.
     */
    static CommandLine withoutServerOptions(ClientCommand command) {
        CommandLine commandLine = new CommandLine(command);
        CommandSpec deploy = commandLine.getSubcommands().get("deploy").getCommandSpec();
        for (String name : SERVER_OPTIONS) {
            deploy.remove(deploy.findOption(name));
        }
        return commandLine;
    }

    private ServerOptions serverOptions() {
        return new ServerOptions(host, port, tenant, token, tokenFile, timeout, tlsOptions());
    }

    private TlsOptions tlsOptions() {
        return new TlsOptions(tls, truststore, truststorePasswordFile, keystore, keystorePasswordFile,
                noHostnameVerification);
    }

    private void warn(String warning) {
        err.println("troupe-client: warning: " + warning);
    }
}
