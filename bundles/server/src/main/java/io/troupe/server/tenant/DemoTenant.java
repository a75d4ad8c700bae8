package io.troupe.server.tenant;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;

import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.server.credential.SecretFile;
import io.troupe.server.credential.TenantToken;
import io.troupe.server.credential.TokenHash;

/**
 * The tenant made on first start, when no tenant is configured, so that a fresh installation
 * answers at once: tenant {@value #ID} with a random token ({@link TenantToken#generate}: 256 bits,
 * 43 URL-safe characters).
 *
 * <p>With an installation directory ({@code troupe.home}) it writes two owner-only (0600) files:
 * {@code etc/io.troupe.tenant-demo.cfg}, the tenant, with the token's hash ({@code tokenHash}) and
 * never the token; and {@code etc/io.troupe.tenant-demo.token}, the token alone, for the clients on
 * this machine ({@code troupe-client} reads it). It serves the tenant at once without waiting for
 * FileInstall to read the file; when FileInstall does, its configuration takes the tenant over.
 * Without one (embedded, tests) it creates the named factory configuration {@code io.troupe.tenant~demo}
 * through ConfigurationAdmin instead, with the hash, and prints the token once.
 *
 * <p><b>Threading:</b> called once, on the activating thread.
 */
public final class DemoTenant {

    /** The demo tenant's id. */
    public static final String ID = "demo";
    /** The demo tenant's file name under {@code etc/}. */
    public static final String FILE_NAME = TenantConfig.FILE_PREFIX + ID + ".cfg";
    /** The demo tenant's token file under {@code etc/}: the token alone, for clients on this machine. */
    public static final String TOKEN_FILE_NAME = TenantConfig.FILE_PREFIX + ID + ".token";

    private static final Logger LOG = LoggerFactory.getLogger(DemoTenant.class);

    private final ConfigurationAdmin configAdmin;
    private final TenantDirectory directory;
    private final SecureRandom random;
    private final PrintStream console;

    public DemoTenant(ConfigurationAdmin configAdmin, TenantDirectory directory, SecureRandom random,
            PrintStream console) {
        this.configAdmin = configAdmin;
        this.directory = directory;
        this.random = random;
        this.console = console;
    }

    /** Writes the demo tenant's file under {@code home/etc/} and serves the tenant. */
    public void createFile(Path home) throws IOException {
        Path etc = home.resolve("etc");
        Files.createDirectories(etc);
        Path file = etc.resolve(FILE_NAME);
        String token = TenantToken.generate(random);
        TokenHash hash = TokenHash.of(token, random);
        try {
            SecretFile.create(file, fileContent(hash));
        } catch (FileAlreadyExistsException e) {
            LOG.warn("No tenant configured, but {} exists: leaving it for FileInstall to load", file);
            return;
        }
        SecretFile.replace(etc.resolve(TOKEN_FILE_NAME), token + "\n");
        TenantConfig config;
        try {
            config = TenantConfig.from(null, Map.of(TenantConfig.TOKEN_HASH, hash.format(),
                    TenantConfig.FILE_PROPERTY, file.toUri().toString()));
        } catch (TenantConfigException e) {
            throw new IllegalStateException("the demo tenant's own configuration is invalid: " + e.getMessage(), e);
        }
        directory.serve(config);
        announce("No tenant configured: created tenant '" + ID + "' (etc/" + FILE_NAME + "; its token is in etc/"
                + TOKEN_FILE_NAME + ", readable by this user only). Try: bin/troupe-client request echo hello");
    }

    /** Creates the demo tenant as the factory configuration {@code io.troupe.tenant~demo}. */
    public void createConfiguration() throws IOException {
        String token = TenantToken.generate(random);
        Configuration configuration = configAdmin.getFactoryConfiguration(TenantConfig.FACTORY_PID, ID, null);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(TenantConfig.TENANT, ID);
        properties.put(TenantConfig.TOKEN_HASH, TokenHash.of(token, random).format());
        configuration.update(properties);
        directory.reconcile(configuration.getPid());
        announce("No tenant configured: created tenant '" + ID + "' with token " + token + " (configuration "
                + configuration.getPid() + "). Connect as tenant '" + ID + "' with that token; it will not be shown "
                + "again (only its hash is kept).");
    }

    private void announce(String line) {
        LOG.info(line);
        console.println(line);
    }

    static String fileContent(TokenHash hash) {
        return "# Created by the Troupe server on first start, because no tenant was configured.\n"
                + "# Clients authenticate as tenant '" + ID + "' with the token in " + TOKEN_FILE_NAME + "; this\n"
                + "# file keeps only its salted hash. A new token: troupe:tenant-rotate-token " + ID + ". Edit this\n"
                + "# file to change the limits, delete it to remove the tenant: changes apply within seconds.\n"
                + TenantConfig.TOKEN_HASH + " = " + hash.format() + "\n"
                + TenantConfig.MAX_CONNECTIONS + " = " + TenantConfig.DEFAULT_MAX_CONNECTIONS + "\n"
                + "# 0 = unlimited. Over a rate or the queue limit the tenant's connections are read more slowly;\n"
                + "# nothing is refused or dropped.\n"
                + TenantConfig.MAX_REQUESTS_PER_SECOND + " = 0\n"
                + "# maxBytesPerSecond = 0\n"
                + "# maxQueuedMessages = 0\n"
                + "# 0 = unlimited; at the limit a request that needs a new actor gets tenant.limit.actors\n"
                + "# maxActors = 0\n"
                + "# 0 = the server's maxFrameBytes, which this can only lower\n"
                + "# maxFrameBytes = 0\n"
                + "# share of the workers beside other busy tenants, 1 to 1000\n"
                + "# weight = 1\n"
                + "# handler names the tenant may call, comma-separated; empty = all\n"
                + "# handlers = echo, wordcount\n";
    }
}
