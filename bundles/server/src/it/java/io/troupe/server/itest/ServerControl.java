package io.troupe.server.itest;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

import io.troupe.protocol.FrameType;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.FreePorts;
import io.troupe.testsupport.TestClient;

/**
 * Drives the server bundle from inside the framework: its configuration and its tenants through
 * ConfigAdmin (as FileInstall would), starting and stopping it, and waiting until it listens.
 * Each instance picks a free loopback port.
 *
 * <p><b>Threading:</b> the test thread.
 */
final class ServerControl {

    static final String SERVER = "io.troupe.server";
    /** System property naming the server bundle built by this module (set by the build). */
    static final String SERVER_JAR_PROPERTY = "troupe.itest.server";
    static final String SERVER_PID = "io.troupe.server";
    static final String TENANT_FACTORY_PID = "io.troupe.tenant";

    private final BundleContext context;
    private final ConfigurationAdmin configAdmin;
    private int port;
    private final Map<String, String> tenantPids = new HashMap<>();

    ServerControl(BundleContext context) throws IOException {
        this.context = context;
        ServiceReference<ConfigurationAdmin> reference = context.getServiceReference(ConfigurationAdmin.class);
        if (reference == null) {
            throw new AssertionError("no ConfigurationAdmin service");
        }
        this.configAdmin = context.getService(reference);
        this.port = freePort();
    }

    int port() {
        return port;
    }

    /** From now on, configures (and expects) the server on {@code newPort}. */
    void usePort(int newPort) {
        port = newPort;
    }

    ConfigurationAdmin configAdmin() {
        return configAdmin;
    }

    /** The server bundle, installed from this module's jar on first use. */
    Bundle bundle() throws BundleException {
        for (Bundle bundle : context.getBundles()) {
            if (SERVER.equals(bundle.getSymbolicName())) {
                return bundle;
            }
        }
        String location = ServerFramework.fileUrl(new File(ServerFramework.property(SERVER_JAR_PROPERTY)));
        return context.installBundle(location);
    }

    boolean isActive() throws BundleException {
        return bundle().getState() == Bundle.ACTIVE;
    }

    /** Replaces the server's configuration with {@code settings} plus this instance's host and port. */
    void configure(Map<String, Object> settings) throws IOException {
        Hashtable<String, Object> properties = new Hashtable<>(settings);
        properties.put("host", "127.0.0.1");
        properties.put("port", Integer.toString(port));
        configAdmin.getConfiguration(SERVER_PID, "?").update(properties);
    }

    /** Starts the server bundle and waits until it accepts connections. */
    void start() throws BundleException {
        bundle().start();
        Await.until("the server listens on port " + port, this::accepts);
    }

    /** Stops the server bundle; returns once it has stopped (its shutdown included). */
    void stop() throws BundleException {
        bundle().stop();
    }

    /** Whether a TCP connection to the port succeeds now. */
    boolean accepts() {
        return accepts(port);
    }

    /** Whether a TCP connection to {@code somePort} on the loopback interface succeeds now. */
    static boolean accepts(int somePort) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", somePort), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The {@code troupe.server.address} the server announces as a service, if any (the launcher waits for it). */
    Optional<String> announcedAddress() {
        try {
            ServiceReference<?>[] references = context.getServiceReferences((String) null, "(troupe.server.address=*)");
            return references == null || references.length == 0 ? Optional.empty()
                    : Optional.of(String.valueOf(references[0].getProperty("troupe.server.address")));
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Creates (or replaces) the tenant {@code id} as a factory configuration with the property
     * {@code tenant}, a random token and {@code keysAndValues}; returns the token.
     */
    String addTenant(String id, Object... keysAndValues) throws IOException {
        String token = HexFormat.of().formatHex(SecureRandom.getSeed(20)); // 40 characters: at least 32
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("tenant", id);
        properties.put("token", token);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        updateTenant(id, properties);
        return token;
    }

    /** Replaces the properties of the tenant configuration made for {@code id} (or makes one). */
    void updateTenant(String id, Dictionary<String, Object> properties) throws IOException {
        String pid = tenantPids.get(id);
        Configuration configuration = pid == null
                ? configAdmin.createFactoryConfiguration(TENANT_FACTORY_PID, "?")
                : configAdmin.getConfiguration(pid, "?");
        configuration.update(properties);
        tenantPids.put(id, configuration.getPid());
    }

    /** Deletes the tenant configuration made for {@code id}. */
    void deleteTenant(String id) throws IOException {
        String pid = tenantPids.remove(id);
        if (pid == null) {
            throw new AssertionError("no tenant configuration was made for " + id);
        }
        configAdmin.getConfiguration(pid, "?").delete();
    }

    /** Deletes every tenant configuration, whoever made it. */
    void deleteAllTenants() throws IOException {
        try {
            Configuration[] all = configAdmin.listConfigurations("(service.factoryPid=" + TENANT_FACTORY_PID + ")");
            if (all != null) {
                for (Configuration configuration : all) {
                    configuration.delete();
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        tenantPids.clear();
    }

    /** Waits until a client can authenticate as {@code tenant} with {@code token}. */
    void awaitTenant(String tenant, String token) {
        Await.until("tenant " + tenant + " is served", () -> welcomes(tenant, token));
    }

    /** Waits until authenticating as {@code tenant} with {@code token} fails. */
    void awaitNoTenant(String tenant, String token) {
        Await.until("tenant " + tenant + " with that token is refused", () -> !welcomes(tenant, token));
    }

    /**
     * Opens a session as soon as the server welcomes it, retrying while it does not (the tenant not
     * served yet, or at its connection limit until a closed connection is released).
     */
    TestClient openWhenServed(String tenant, String token) {
        AtomicReference<TestClient> opened = new AtomicReference<>();
        Await.until("a session of tenant " + tenant + " is welcomed", () -> {
            try {
                TestClient client = TestClient.connect(port);
                if (client.hello(1, tenant, token).type() == FrameType.WELCOME) {
                    opened.set(client);
                    return true;
                }
                client.close();
                return false;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        return opened.get();
    }

    /** Whether a HELLO as {@code tenant} with {@code token} is answered WELCOME now. */
    boolean welcomes(String tenant, String token) {
        try (TestClient client = TestClient.connect(port)) {
            return client.hello(1, tenant, token).type() == FrameType.WELCOME;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A loopback port free now, below the ephemeral range (see {@link FreePorts}). */
    static int freePort() {
        return FreePorts.one();
    }
}
