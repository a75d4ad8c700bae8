package io.troupe.client.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import io.troupe.client.TroupeClient;

/**
 * Where to connect and as whom: host, port, tenant, token, and the time allowed for each step.
 *
 * <p>Options win. When one is absent and the system property {@code troupe.home} names an
 * installation (the {@code bin/troupe-client} script sets it), the installation's configuration
 * fills it in:
 * <ul>
 * <li>host and port: keys {@code host} and {@code port} of {@code etc/io.troupe.server.cfg}; a
 *     wildcard host ({@code 0.0.0.0}, {@code ::}) means the server listens everywhere, so the
 *     client goes to 127.0.0.1;</li>
 * <li>tenant: {@code demo};</li>
 * <li>token: key {@code token} of {@code etc/io.troupe.tenant-TENANT.cfg} (for the default tenant,
 *     {@code etc/io.troupe.tenant-demo.cfg}).</li>
 * </ul>
 * Missing files and keys fall back to 127.0.0.1 and 7878; without a tenant or a token the command
 * line is incomplete. The files are Java properties, as FileInstall reads them.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
record ServerTarget(String host, int port, String tenant, String token, Duration timeout) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 7878;
    static final String DEFAULT_TENANT = "demo";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final String SERVER_CONFIG = "etc/io.troupe.server.cfg";

    /**
     * @param options the connection options given on the command line
     * @param home    the installation directory, or null when not run from one
     * @throws UsageException when the tenant or the token is missing, or a configuration file is
     *                        unreadable or holds a bad port
     */
    static ServerTarget resolve(ClientCommand.ServerOptions options, String home) throws UsageException {
        Path homeDir = home == null || home.isBlank() ? null : Path.of(home);
        Path serverFile = homeDir == null ? null : homeDir.resolve(SERVER_CONFIG);
        Properties server = load(serverFile);

        String host = first(options.host(), server.getProperty("host"), DEFAULT_HOST);
        if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("*")) {
            host = DEFAULT_HOST;
        }
        int port = DEFAULT_PORT;
        if (options.port() != null) {
            port = options.port();
        } else if (server.getProperty("port") != null) {
            port = OptionValues.parseInt(server.getProperty("port"), 1, 65535, "port in " + serverFile);
        }

        String tenant = first(options.tenant(), homeDir == null ? null : DEFAULT_TENANT, null);
        if (tenant == null) {
            throw new UsageException("no tenant: give --tenant and --token (run from an installation, the demo "
                    + "tenant is the default)");
        }
        Path tenantFile = homeDir == null ? null : homeDir.resolve("etc/io.troupe.tenant-" + tenant + ".cfg");
        String token = first(options.token(), load(tenantFile).getProperty("token"), null);
        if (token == null) {
            throw new UsageException("no token for tenant '" + tenant + "': give --token"
                    + (tenantFile == null ? "" : " (or set token in " + tenantFile + ")"));
        }
        Duration timeout = options.timeout() == null ? DEFAULT_TIMEOUT : options.timeout();
        return new ServerTarget(host, port, tenant, token, timeout);
    }

    /** A builder for this target; the caller adds what is specific to its command. */
    TroupeClient.Builder clientBuilder() {
        return TroupeClient.builder().host(host).port(port).tenant(tenant).token(token).requestTimeout(timeout)
                .connectTimeout(timeout);
    }

    String address() {
        return host + ":" + port;
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
