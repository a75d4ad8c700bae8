package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

import io.troupe.protocol.Frame;
import io.troupe.testsupport.Await;

/**
 * The bundle as built (classes and the manifest bnd wrote) in a real Felix with the protocol bundle
 * and nothing else: it resolves without HdrHistogram, and a client loaded from it talks to a server.
 */
class OsgiBundleTest {

    @TempDir
    Path storage;

    private Framework framework;
    private TestServer server;

    @BeforeEach
    void startFramework() throws Exception {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).findFirst().orElseThrow();
        framework = factory.newFramework(Map.of(
                Constants.FRAMEWORK_STORAGE, storage.toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT));
        framework.start();
        server = TestServer.start("s3cret");
    }

    @AfterEach
    void stopFramework() throws Exception {
        framework.stop();
        framework.waitForStop(10_000);
        server.close();
    }

    @Test
    void theBundleResolvesWithTheProtocolAloneAndItsClientWorks() throws Exception {
        Bundle protocol = install("protocol", bundleBytes(codeLocation(Frame.class)));
        Bundle client = install("client", bundleBytes(Path.of("target/classes")));

        boolean resolved = framework.adapt(FrameworkWiring.class).resolveBundles(List.of(client, protocol));

        assertTrue(resolved, "the client bundle did not resolve");
        assertEquals(Bundle.RESOLVED, client.getState());
        List<BundleWire> imports = client.adapt(BundleWiring.class).getRequiredWires("osgi.wiring.package");
        List<String> wired = imports.stream()
                .map(wire -> (String) wire.getCapability().getAttributes().get("osgi.wiring.package")).toList();
        assertTrue(wired.contains("io.troupe.protocol"), wired.toString());
        assertTrue(wired.stream().noneMatch(name -> name.startsWith("org.HdrHistogram")), wired.toString());

        Class<?> clientClass = client.loadClass("io.troupe.client.TroupeClient");
        assertTrue(clientClass.getClassLoader() != TroupeClient.class.getClassLoader(), "loaded from the bundle");
        Object builder = clientClass.getMethod("builder").invoke(null);
        Class<?> builderClass = builder.getClass();
        builderClass.getMethod("port", int.class).invoke(builder, server.port());
        builderClass.getMethod("tenant", String.class).invoke(builder, "acme");
        builderClass.getMethod("token", String.class).invoke(builder, "s3cret");
        Object troupeClient = builderClass.getMethod("build").invoke(builder);
        try {
            Method connect = clientClass.getMethod("connect");
            assertEquals("session-1", Await.result((CompletableFuture<?>) connect.invoke(troupeClient)));
            Method request = clientClass.getMethod("request", String.class, byte[].class);
            byte[] reply = (byte[]) Await.result((CompletableFuture<?>) request.invoke(troupeClient, "echo",
                    new byte[] {4, 2}));
            assertEquals(2, reply.length);
        } finally {
            clientClass.getMethod("close").invoke(troupeClient);
        }
    }

    private Bundle install(String location, byte[] jar) throws Exception {
        try (InputStream in = new ByteArrayInputStream(jar)) {
            Bundle bundle = framework.getBundleContext().installBundle(location, in);
            assertNotNull(bundle);
            return bundle;
        }
    }

    private static Path codeLocation(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The jar itself, or a jar of a class directory (a reactor build) with its manifest first. */
    private static byte[] bundleBytes(Path location) throws IOException {
        if (Files.isRegularFile(location)) {
            return Files.readAllBytes(location);
        }
        Manifest manifest;
        try (InputStream in = Files.newInputStream(location.resolve("META-INF/MANIFEST.MF"))) {
            manifest = new Manifest(in);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest); Stream<Path> files = Files.walk(location)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = location.relativize(file).toString().replace('\\', '/');
                if (!name.equals("META-INF/MANIFEST.MF")) {
                    jar.putNextEntry(new JarEntry(name));
                    jar.write(Files.readAllBytes(file));
                    jar.closeEntry();
                }
            }
        }
        return bytes.toByteArray();
    }
}
