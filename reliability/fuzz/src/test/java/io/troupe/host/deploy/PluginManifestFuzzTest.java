package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.troupe.host.plugin.TenantScopeHeader;

/**
 * Fuzzes the manifest headers Troupe reads from a plugin jar: {@link PluginJar#read} (what the deploy watcher
 * reads of a jar before installing it: {@code Bundle-SymbolicName}, {@code Bundle-Version}) and the
 * {@code Troupe-Tenants} header ({@link TenantScopeHeader}). The manifest's bytes are the input, written into a
 * real jar file; the only acceptable outcomes are a {@link PluginJar} or an {@link IOException} for the log,
 * and any tenant scope.
 *
 * <p><b>Threading:</b> the fuzzing thread only; one jar file, rewritten for every input.
 */
class PluginManifestFuzzTest {

    private static final Path JAR = temporaryJar();

    @FuzzTest(maxDuration = "10s")
    void readsAPluginJarOrSaysWhyNot(FuzzedDataProvider data) throws IOException {
        String tenant = data.consumeString(16);
        byte[] manifest = data.consumeRemainingAsBytes();
        write(manifest);
        try {
            PluginJar jar = PluginJar.read(JAR);
            assertNotNull(jar.symbolicName());
            assertNotNull(jar.version());
        } catch (IOException e) {
            assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "a refusal says why");
        }
        String header = tenantsHeader(manifest);
        assertNotNull(TenantScopeHeader.describe(header));
        TenantScopeHeader.serves(header, tenant);
        assertTrue(TenantScopeHeader.serves(header, ""), "the runtime's own callers see every plugin");
    }

    /** The header as the framework would hand it over, or {@code null} when the manifest does not parse. */
    private static String tenantsHeader(byte[] manifest) {
        try {
            Manifest parsed = new Manifest(new ByteArrayInputStream(manifest));
            return parsed.getMainAttributes().getValue(TenantScopeHeader.NAME);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void write(byte[] manifest) throws IOException {
        try (OutputStream file = Files.newOutputStream(JAR); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
            zip.write(manifest);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("io/troupe/fuzz/Plugin.class"));
            zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            zip.closeEntry();
        }
    }

    private static Path temporaryJar() {
        try {
            Path directory = Files.createTempDirectory("troupe-fuzz-manifest");
            directory.toFile().deleteOnExit();
            Path jar = directory.resolve("plugin.jar");
            jar.toFile().deleteOnExit();
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
