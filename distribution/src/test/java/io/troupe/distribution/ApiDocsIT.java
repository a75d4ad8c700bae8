package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The built distribution ships the API docs a plugin author needs, as the README says: the javadoc of
 * {@code troupe-api} in {@code docs/api/} and of the test kit in {@code docs/testkit/}, in the folder
 * and in the archive.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class ApiDocsIT {

    private static final Path BUILT = Path.of(System.getProperty("troupe.distribution", "target/troupe"));

    @Test
    void theInstallationHoldsTheApiAndTestkitDocsWithTheirThreadingContracts() throws IOException {
        assertPage("docs/api/index.html", "Troupe API ");
        assertPage("docs/api/io/troupe/api/ActorRef.html", "Threading");
        assertPage("docs/api/io/troupe/api/Actor.html", "<pre>");
        assertPage("docs/testkit/index.html", "Troupe Test Kit ");
        assertPage("docs/testkit/io/troupe/testkit/ActorHarness.html", "Threading");
        assertPage("docs/testkit/io/troupe/testkit/junit/TroupeExtension.html", "Threading");
        assertPage("docs/testkit/io/troupe/testkit/junit/TestProbe.html", "<pre>");
    }

    @Test
    void theArchiveHoldsTheSameDocs() throws Exception {
        Path archive;
        try (Stream<Path> files = Files.list(BUILT.toAbsolutePath().getParent())) {
            archive = files.filter(file -> file.getFileName().toString().matches("troupe-.+\\.tar\\.gz"))
                    .findFirst().orElseThrow(() -> new AssertionError("no troupe-*.tar.gz beside " + BUILT));
        }
        Process tar = new ProcessBuilder("tar", "tzf", archive.toString()).redirectErrorStream(true).start();
        List<String> entries = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0,
                "tar tzf " + archive + " failed: " + entries);
        for (String page : List.of("/docs/api/index.html", "/docs/testkit/index.html")) {
            assertTrue(entries.stream().anyMatch(entry -> entry.endsWith(page)), archive + " has no " + page);
        }
    }

    private static void assertPage(String relative, String expected) throws IOException {
        Path page = BUILT.resolve(relative);
        assertTrue(Files.isRegularFile(page), "the distribution has no " + relative + " (" + page + ")");
        String html = Files.readString(page);
        assertTrue(html.contains(expected), relative + " does not contain " + expected);
    }
}
