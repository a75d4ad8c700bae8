package io.troupe.client.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import io.troupe.client.TlsContexts;
import io.troupe.client.TroupeClient;

/**
 * Where to connect and as whom: the servers, tenant, token, TLS, and the time allowed for each step.
 *
 * <p>{@code --host} takes one server or several, comma-separated: {@code HOST}, {@code HOST:PORT} or
 * {@code [IPv6]:PORT}, the port defaulting to {@code --port} (the nodes of a cluster, or a server and its
 * stand-ins; the client tries them in turn and follows redirects to the node that serves the tenant).
 *
 * <p>Options win. When one is absent and the system property {@code troupe.home} names an
 * installation (the {@code bin/troupe-client} script sets it), the installation's configuration
 * fills it in:
 * <ul>
 * <li>host and port: keys {@code host} and {@code port} of {@code etc/io.troupe.server.cfg}; a
 *     wildcard host ({@code 0.0.0.0}, {@code ::}) means the server listens everywhere, so the
 *     client goes to 127.0.0.1 (also for a wildcard in {@code --host});</li>
 * <li>tenant: {@code demo};</li>
 * <li>token: {@code --token-file FILE}, else the environment variable {@value #TOKEN_VARIABLE}, else the
 *     first line of {@code etc/io.troupe.tenant-TENANT.token} (the demo tenant's is written at first start),
 *     else the key {@code token} of {@code etc/io.troupe.tenant-TENANT.cfg} (older installations);
 *     {@code --token} on the command line still wins, with a warning: {@code ps} shows it;</li>
 * <li>TLS: on with {@code --tls}, {@code --truststore} or {@code --keystore}, or when the server's
 *     configuration sets {@code tls.keystore}; the trust store defaults to {@code etc/tls/trust.p12}
 *     (written by {@code bin/troupe tls-init}) with its password in {@code etc/tls/trust.pass}; host name
 *     verification is on unless {@code --no-hostname-verification}.</li>
 * </ul>
 * Missing files and keys fall back to 127.0.0.1 and 7878; without a tenant or a token the command
 * line is incomplete. The files are Java properties, as FileInstall reads them.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
record ServerTarget(List<String> servers, String tenant, String token, Duration timeout, SSLContext tls,
                    boolean verifyHostname) {

    static final String DEFAULT_HOST = "127.0.0.1";
    /** Hosts that mean "every interface" to a server, hence this machine's loopback to a client. */
    static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "*");
    static final int DEFAULT_PORT = 7878;
    static final String DEFAULT_TENANT = "demo";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final String SERVER_CONFIG = "etc/io.troupe.server.cfg";
    static final String TOKEN_VARIABLE = "TROUPE_TOKEN";
    static final String TRUSTSTORE_PASSWORD_VARIABLE = "TROUPE_TRUSTSTORE_PASSWORD";
    static final String KEYSTORE_PASSWORD_VARIABLE = "TROUPE_KEYSTORE_PASSWORD";
    static final String DEFAULT_TRUSTSTORE = "etc/tls/trust.p12";
    static final String DEFAULT_TRUSTSTORE_PASSWORD = "etc/tls/trust.pass";

    /**
     * @param options the connection options given on the command line
     * @param home        the installation directory, or null when not run from one
     * @param environment looks up environment variables
     * @param warn        receives warnings (a token on the command line)
     * @throws UsageException when the tenant or the token is missing, a server address is not
     *                        {@code HOST[:PORT]}, a configuration file is unreadable or holds a bad port, or
     *                        a TLS store cannot be used
     */
    static ServerTarget resolve(ClientCommand.ServerOptions options, String home, Function<String, String> environment,
            Consumer<String> warn) throws UsageException {
        Path homeDir = home == null || home.isBlank() ? null : Path.of(home);
        Path serverFile = homeDir == null ? null : homeDir.resolve(SERVER_CONFIG);
        Properties server = load(serverFile);

        int port = DEFAULT_PORT;
        if (options.port() != null) {
            port = options.port();
        } else if (server.getProperty("port") != null) {
            port = OptionValues.parseInt(server.getProperty("port"), 1, 65535, "port in " + serverFile);
        }
        List<String> servers = servers(first(options.host(), server.getProperty("host"), DEFAULT_HOST), port,
                options.host() != null ? "--host" : "host in " + serverFile);

        String tenant = first(options.tenant(), homeDir == null ? null : DEFAULT_TENANT, null);
        if (tenant == null) {
            throw new UsageException("no tenant: give --tenant and --token (run from an installation, the demo "
                    + "tenant is the default)");
        }
        String token = token(options, homeDir, tenant, environment, warn);
        Duration timeout = options.timeout() == null ? DEFAULT_TIMEOUT : options.timeout();
        ClientCommand.TlsOptions tlsOptions = options.tls();
        boolean tlsOn = tlsOptions.tls() || tlsOptions.truststore() != null || tlsOptions.keystore() != null
                || !server.getProperty("tls.keystore", "").isBlank();
        if (!tlsOn && tlsOptions.anyGiven()) {
            throw new UsageException("--truststore-password-file, --keystore-password-file and "
                    + "--no-hostname-verification apply with TLS only: add --tls");
        }
        SSLContext tls = tlsOn ? tlsContext(tlsOptions, homeDir, environment) : null;
        return new ServerTarget(servers, tenant, token, timeout, tls, !tlsOptions.noHostnameVerification());
    }

    /**
     * The servers of a comma-separated list, each as {@code host:port} ({@code port} where it names none; a
     * wildcard host for 127.0.0.1).
     *
     * @param what names the list's origin in a usage error
     */
    static List<String> servers(String list, int port, String what) throws UsageException {
        List<String> servers = new ArrayList<>();
        for (String item : list.split(",", -1)) {
            String address = item.strip();
            if (address.isEmpty() && list.strip().isEmpty()) {
                address = DEFAULT_HOST;
            } else if (address.isEmpty()) {
                throw new UsageException(what + " has an empty server address: '" + list + "'");
            }
            if (WILDCARDS.contains(address)) {
                address = DEFAULT_HOST;
            }
            servers.add(withPort(address, port));
        }
        try {
            TroupeClient.builder().servers(servers.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            throw new UsageException(what + ": " + e.getMessage());
        }
        return List.copyOf(servers);
    }

    /** {@code address} with {@code port} when it names none; an IPv6 literal gets its brackets. */
    private static String withPort(String address, int port) {
        if (address.startsWith("[")) {
            return address.endsWith("]") ? address + ":" + port : address;
        }
        int colon = address.indexOf(':');
        if (colon < 0) {
            return address + ":" + port;
        }
        return colon == address.lastIndexOf(':') ? address : "[" + address + "]:" + port;
    }

    /** The token, from the first of: --token (warned), --token-file, TROUPE_TOKEN, the installation's files. */
    private static String token(ClientCommand.ServerOptions options, Path homeDir, String tenant,
            Function<String, String> environment, Consumer<String> warn) throws UsageException {
        if (options.token() != null && options.tokenFile() != null) {
            throw new UsageException("--token and --token-file both give the token: give one");
        }
        if (options.token() != null) {
            warn.accept("--token shows the token to every user of this machine (ps); use --token-file FILE or the"
                    + " environment variable " + TOKEN_VARIABLE);
            return options.token();
        }
        if (options.tokenFile() != null) {
            return SecretFile.read("--token-file", options.tokenFile());
        }
        String fromEnvironment = environment.apply(TOKEN_VARIABLE);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        if (homeDir != null) {
            Path tokenFile = homeDir.resolve("etc/io.troupe.tenant-" + tenant + ".token");
            if (Files.exists(tokenFile)) {
                return SecretFile.read("token file", tokenFile);
            }
        }
        Path tenantFile = homeDir == null ? null : homeDir.resolve("etc/io.troupe.tenant-" + tenant + ".cfg");
        String token = load(tenantFile).getProperty("token");
        if (token == null || token.isBlank()) {
            throw new UsageException("no token for tenant '" + tenant + "': give --token-file FILE or set "
                    + TOKEN_VARIABLE + (homeDir == null ? "" : " (or put it in "
                    + homeDir.resolve("etc/io.troupe.tenant-" + tenant + ".token") + ")"));
        }
        return token.trim();
    }

    private static SSLContext tlsContext(ClientCommand.TlsOptions options, Path homeDir,
            Function<String, String> environment) throws UsageException {
        Path truststore = options.truststore();
        Path truststorePasswordFile = options.truststorePasswordFile();
        if (truststore == null && homeDir != null && Files.exists(homeDir.resolve(DEFAULT_TRUSTSTORE))) {
            truststore = homeDir.resolve(DEFAULT_TRUSTSTORE);
            if (truststorePasswordFile == null && environment.apply(TRUSTSTORE_PASSWORD_VARIABLE) == null
                    && Files.exists(homeDir.resolve(DEFAULT_TRUSTSTORE_PASSWORD))) {
                truststorePasswordFile = homeDir.resolve(DEFAULT_TRUSTSTORE_PASSWORD);
            }
        }
        char[] truststorePassword = truststore == null ? null
                : password("--truststore-password-file", truststorePasswordFile, TRUSTSTORE_PASSWORD_VARIABLE,
                        environment);
        char[] keystorePassword = options.keystore() == null ? null
                : password("--keystore-password-file", options.keystorePasswordFile(), KEYSTORE_PASSWORD_VARIABLE,
                        environment);
        try {
            return TlsContexts.of(truststore, truststorePassword, options.keystore(), keystorePassword);
        } catch (IOException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static char[] password(String option, Path file, String variable, Function<String, String> environment)
            throws UsageException {
        if (file != null) {
            return SecretFile.read(option, file).toCharArray();
        }
        String value = environment.apply(variable);
        return value == null ? new char[0] : value.toCharArray();
    }

    /** A builder for this target; the caller adds what is specific to its command. */
    TroupeClient.Builder clientBuilder() {
        TroupeClient.Builder builder = TroupeClient.builder().servers(servers.toArray(String[]::new)).tenant(tenant)
                .token(token).requestTimeout(timeout).connectTimeout(timeout);
        if (tls != null) {
            builder.tls(tls).hostnameVerification(verifyHostname);
        }
        return builder;
    }

    @Override
    public String toString() {
        // Never the token.
        return "ServerTarget[" + tenant + "@" + address() + (tls == null ? "" : " TLS") + "]";
    }

    /** The servers, comma-separated. */
    String address() {
        return String.join(",", servers);
    }

    private static Properties load(Path file) throws UsageException {
        Properties properties = new Properties();
        if (file == null || !Files.exists(file)) {
            return properties;
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
        return properties;
    }

    private static String first(String option, String configured, String fallback) {
        if (option != null) {
            return option;
        }
        return configured != null ? configured.trim() : fallback;
    }
}
