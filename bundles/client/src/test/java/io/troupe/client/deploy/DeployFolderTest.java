package io.troupe.client.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.TestJars;

/**
 * The file operations behind {@code deploy}, {@code update}, {@code remove} and
 * {@code troupe-client deploy} ({@code put}), on a temporary deploy folder: what ends up in it, what
 * is refused and why, that no copy in progress is ever left, and what a copy reports for the wait.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class DeployFolderTest {

    private static final String COUNTER = "io.troupe.sample.counter";

    @TempDir
    Path temp;

    private Path deploy;
    private Path samples;
    private DeployFolder folder;

    @BeforeEach
    void createFolders() throws IOException {
        deploy = Files.createDirectory(temp.resolve("deploy"));
        samples = Files.createDirectory(temp.resolve("samples"));
        folder = new DeployFolder(deploy);
    }

    @Test
    void deployCopiesTheJarUnderItsOwnNameAndLeavesNoPartFile() throws Exception {
        Path jar = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER + ";singleton:=true", "2.0.0");

        DeployFolder.Deployed done = folder.deploy(jar);

        assertEquals(deploy.resolve("counter-2.0.0.jar"), done.target());
        assertEquals(COUNTER, done.jar().symbolicName());
        assertEquals("2.0.0", done.jar().version());
        assertEquals(List.of("counter-2.0.0.jar"), files());
        assertEquals(Files.readAllBytes(jar).length, Files.size(done.target()));
        assertEquals(HostStatus.sha256(jar), done.sha256());
        assertTrue(Files.exists(jar), "the source stays");
    }

    @Test
    void theInstantOfACopyIsTakenFromThePollersClockBeforeTheRename() throws Exception {
        Instant renamedAt = Instant.parse("2026-12-01T21:00:00.123456Z");
        DeployFolder clocked = new DeployFolder(deploy, new StatusPoller(Clock.fixed(renamedAt, ZoneOffset.UTC),
                duration -> { }));
        Path jar = TestJars.bundle(samples.resolve("counter.jar"), COUNTER, "1.0.0");

        assertEquals(renamedAt, clocked.deploy(jar).since());
    }

    @Test
    void putAddsAJarOrReplacesTheJarOfThatNameWhenItHoldsTheSameBundle() throws Exception {
        Path v1 = TestJars.bundle(samples.resolve("v1/counter.jar"), COUNTER, "1.0.0", "v1");
        Path v2 = TestJars.bundle(samples.resolve("v2/counter.jar"), COUNTER, "2.0.0", "v2");

        DeployFolder.Deployed added = folder.put(v1);
        DeployFolder.Deployed replaced = folder.put(v2);

        assertEquals(Optional.empty(), added.replaced());
        assertEquals(Optional.of(new PluginJar(COUNTER, "1.0.0")), replaced.replaced());
        assertEquals(HostStatus.sha256(v2), replaced.sha256());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void putRefusesAnotherBundleUnderTheNameOrTheSameBundleUnderAnotherName() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path chat = TestJars.bundle(samples.resolve("counter.jar"), "io.troupe.sample.chat", "1.0.0");
        Path renamed = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0");

        assertRefused(DeployException.SYMBOLIC_NAME_MISMATCH, "but deploy/counter.jar is " + COUNTER
                + ": a deploy replaces a jar only by another version of the same bundle", () -> folder.put(chat));
        assertRefused(DeployException.PLUGIN_EXISTS, COUNTER + " is already deployed as deploy/counter.jar;"
                + " name the new jar counter.jar to replace it", () -> folder.put(renamed));
        assertEquals("v1", TestJars.content(deploy.resolve("counter.jar")));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void anOutcomeIsAwaitedForTheBytesCopied() throws Exception {
        Path jar = TestJars.bundle(samples.resolve("counter.jar"), COUNTER, "1.0.0");
        DeployFolder.Deployed done = folder.deploy(jar);
        HostStatus.judge(deploy, "counter.jar", "running", COUNTER, "1.0.0", "1.0.0", null, done.since());

        DeployStatus status = folder.awaitOutcome(done.target(), done.sha256(), done.since(), Duration.ofSeconds(5));

        assertEquals(DeployStatus.Outcome.RUNNING, status.outcome());
        assertEquals(Optional.of(status), folder.status("counter.jar"));
    }

    @Test
    void deployRefusesAFileThatIsNotAPluginBundle() throws Exception {
        Files.writeString(samples.resolve("text.jar"), "not a jar", StandardCharsets.UTF_8);
        TestJars.withoutManifest(samples.resolve("plain.jar"));
        TestJars.bundle(samples.resolve("nameless.jar"), null, "1.0.0");
        TestJars.bundle(samples.resolve("badversion.jar"), "x.y", "one");
        Files.createDirectory(samples.resolve("folder.jar"));

        assertRefused(DeployException.NOT_A_BUNDLE, "text.jar is not a plugin bundle: it is not a readable jar",
                () -> folder.deploy(samples.resolve("text.jar")));
        assertRefused(DeployException.NOT_A_BUNDLE, "the jar has no META-INF/MANIFEST.MF",
                () -> folder.deploy(samples.resolve("plain.jar")));
        assertRefused(DeployException.NOT_A_BUNDLE, "its manifest has no Bundle-SymbolicName",
                () -> folder.deploy(samples.resolve("nameless.jar")));
        assertRefused(DeployException.NOT_A_BUNDLE, "its Bundle-Version 'one' is not an OSGi version",
                () -> folder.deploy(samples.resolve("badversion.jar")));
        assertRefused(DeployException.NOT_A_BUNDLE, "it is not a regular file",
                () -> folder.deploy(samples.resolve("folder.jar")));
        assertRefused(DeployException.NOT_A_BUNDLE, "missing.jar is not a plugin bundle: it does not exist",
                () -> folder.deploy(samples.resolve("missing.jar")));
        assertEquals(List.of(), files());
    }

    @Test
    void deployRefusesAFileNotNamedJarOrHidden() throws Exception {
        Path zip = TestJars.bundle(samples.resolve("counter.zip"), COUNTER, "1.0.0");
        Path hidden = TestJars.bundle(samples.resolve(".counter.jar"), COUNTER, "1.0.0");

        assertRefused(DeployException.BAD_REQUEST, "is not named *.jar", () -> folder.deploy(zip));
        assertRefused(DeployException.BAD_REQUEST, "is a hidden file", () -> folder.deploy(hidden));
        assertEquals(List.of(), files());
    }

    @Test
    void deployRefusesAFileNameAlreadyDeployedAndSaysToUseUpdate() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "old");
        Path other = TestJars.bundle(samples.resolve("counter.jar"), COUNTER, "2.0.0", "new");

        assertRefused(DeployException.PLUGIN_EXISTS, "deploy/counter.jar already exists; use update counter PATH",
                () -> folder.deploy(other));
        assertEquals("old", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void deployRefusesABundleAlreadyDeployedUnderAnotherName() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0");
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0");

        assertRefused(DeployException.PLUGIN_EXISTS,
                COUNTER + " is already deployed as deploy/counter.jar; use update counter " + v2,
                () -> folder.deploy(v2));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void updateReplacesTheJarWithOrWithoutTheJarExtensionInTheName() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");
        Path v1 = TestJars.bundle(samples.resolve("counter-1.0.0.jar"), COUNTER, "1.0.0", "v1 again");

        DeployFolder.Updated up = folder.update("counter", v2, Optional.empty());
        assertEquals(deploy.resolve("counter.jar"), up.target());
        assertEquals("1.0.0", up.previous().version());
        assertEquals("2.0.0", up.replacement().version());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));

        folder.update(" counter.jar ", v1, Optional.empty());
        assertEquals("v1 again", TestJars.content(deploy.resolve("counter.jar")));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void updateRefusesAPluginThatIsNotDeployedAndSaysToUseDeploy() throws Exception {
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0");

        assertRefused(DeployException.NO_PLUGIN, "there is no deploy/counter.jar (plugins lists the deployed ones);"
                + " use deploy PATH to add a plugin", () -> folder.update("counter", v2, Optional.empty()));
        assertEquals(List.of(), files());
    }

    @Test
    void updateRefusesAnotherBundleThanTheDeployedOne() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path chat = TestJars.bundle(samples.resolve("chat-1.0.0.jar"), "io.troupe.sample.chat", "1.0.0");

        assertRefused(DeployException.SYMBOLIC_NAME_MISMATCH, chat + " is io.troupe.sample.chat, but deploy/counter.jar is "
                + COUNTER + ": update replaces a plugin by another version of the same bundle",
                () -> folder.update("counter", chat, Optional.empty()));
        assertEquals("v1", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void updateComparesWithTheInstalledBundleWhenThereIsOne() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0");

        assertRefused(DeployException.SYMBOLIC_NAME_MISMATCH, "but deploy/counter.jar is io.troupe.sample.other",
                () -> folder.update("counter", v2, Optional.of("io.troupe.sample.other")));
        assertEquals("v1", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void updateMayReplaceAnUnreadableJarThatNothingWasInstalledFrom() throws Exception {
        Files.writeString(deploy.resolve("counter.jar"), "broken", StandardCharsets.UTF_8);
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");

        DeployFolder.Updated up = folder.update("counter", v2, Optional.empty());

        assertNull(up.previous());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void updateRefusesANewJarThatIsNotAPluginBundleAndKeepsTheOldOne() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path text = Files.writeString(samples.resolve("counter-2.0.0.jar"), "not a jar", StandardCharsets.UTF_8);

        assertRefused(DeployException.NOT_A_BUNDLE, "is not a plugin bundle",
                () -> folder.update("counter", text, Optional.empty()));
        assertEquals("v1", TestJars.content(deploy.resolve("counter.jar")));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void updateRefusesTheDeployedFileItself() throws Exception {
        Path deployed = TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0");

        assertRefused(DeployException.BAD_REQUEST, "is the deployed deploy/counter.jar itself",
                () -> folder.update("counter", deployed, Optional.empty()));
    }

    @Test
    void aPartFileLeftByAnInterruptedCopyIsReplacedAndRemoved() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Files.writeString(deploy.resolve(".counter.jar.part"), "half a jar", StandardCharsets.UTF_8);
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");

        folder.update("counter", v2, Optional.empty());

        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
        assertEquals(List.of("counter.jar"), files());
    }

    @Test
    void aFailedCopyLeavesNeitherAPartFileNorAChange() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0", "v1");
        Path v2 = TestJars.bundle(samples.resolve("counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");
        // a directory where the part file goes makes the copy fail
        Files.createDirectory(deploy.resolve(".counter.jar.part"));
        Files.writeString(deploy.resolve(".counter.jar.part/keep"), "", StandardCharsets.UTF_8);

        assertRefused(DeployException.IO_ERROR, "cannot copy " + v2 + " to deploy/counter.jar",
                () -> folder.update("counter", v2, Optional.empty()));
        assertEquals("v1", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void removeDeletesTheJarWithOrWithoutTheJarExtensionInTheName() throws Exception {
        TestJars.bundle(deploy.resolve("counter.jar"), COUNTER, "1.0.0");
        TestJars.bundle(deploy.resolve("chat.jar"), "io.troupe.sample.chat", "1.0.0");

        DeployFolder.Removed removed = folder.remove("counter");
        folder.remove("chat.jar");

        assertEquals(deploy.resolve("counter.jar"), removed.target());
        assertEquals(COUNTER + " 1.0.0", removed.removed().toString());
        assertEquals(List.of(), files());
    }

    @Test
    void removeRefusesAPluginThatIsNotDeployed() {
        assertRefused(DeployException.NO_PLUGIN, "there is no deploy/counter.jar", () -> folder.remove("counter"));
    }

    @Test
    void aPluginIsNamedByAPlainFileNameNeverByAPath() throws Exception {
        assertEquals("counter.jar", DeployFolder.fileName("counter"));
        assertEquals("counter.jar", DeployFolder.fileName("counter.jar"));
        assertEquals("counter-2.0.0.jar", DeployFolder.fileName(" counter-2.0.0 "));

        assertRefused(DeployException.BAD_REQUEST, "a plugin name is required", () -> DeployFolder.fileName(" "));
        assertRefused(DeployException.BAD_REQUEST, "is a path", () -> DeployFolder.fileName("../etc/config"));
        assertRefused(DeployException.BAD_REQUEST, "is a path", () -> DeployFolder.fileName("sub\\counter"));
        assertRefused(DeployException.BAD_REQUEST, "is a path", () -> folder.remove("/etc/passwd"));
        assertRefused(DeployException.BAD_REQUEST, "hidden files are not plugins",
                () -> DeployFolder.fileName(".counter.jar.part"));
        assertRefused(DeployException.BAD_REQUEST, "is a path", () -> DeployFolder.fileName(".."));
    }

    @Test
    void withoutTheFolderEveryChangeSaysItIsMissing() throws Exception {
        DeployFolder gone = new DeployFolder(temp.resolve("no-such-folder"));
        Path jar = TestJars.bundle(samples.resolve("counter.jar"), COUNTER, "1.0.0");

        assertRefused(DeployException.DEPLOY_UNAVAILABLE, "no-such-folder does not exist", () -> gone.deploy(jar));
        assertRefused(DeployException.DEPLOY_UNAVAILABLE, "does not exist", () -> gone.update("counter", jar, Optional.empty()));
        assertRefused(DeployException.DEPLOY_UNAVAILABLE, "does not exist", () -> gone.remove("counter"));
        assertRefused(DeployException.DEPLOY_UNAVAILABLE, "does not exist", gone::jars);
    }

    @Test
    void jarsAreTheVisibleJarFilesByName() throws Exception {
        TestJars.bundle(deploy.resolve("wordcount.jar"), "w", "1");
        TestJars.bundle(deploy.resolve("chat.jar"), "c", "1");
        Files.writeString(deploy.resolve(".chat.jar.part"), "", StandardCharsets.UTF_8);
        Files.writeString(deploy.resolve("README.txt"), "", StandardCharsets.UTF_8);
        Files.createDirectory(deploy.resolve("old.jar"));

        assertEquals(List.of(deploy.resolve("chat.jar"), deploy.resolve("wordcount.jar")), folder.jars());
    }

    @Test
    void aLocationIsInTheFolderAsAFileUrlOrAnAbsolutePath() {
        Path counter = deploy.resolve("counter.jar");
        Path expected = Path.of("counter.jar");

        assertEquals(Optional.of(expected), folder.fileOf(counter.toUri().toString()));
        assertEquals(Optional.of(expected), folder.fileOf("file:" + counter));
        assertEquals(Optional.of(expected), folder.fileOf("reference:" + counter.toUri()));
        assertEquals(Optional.of(expected), folder.fileOf(counter.toString()));
        assertEquals(Optional.of(expected), folder.fileOf(deploy.resolve("../deploy/counter.jar").toString()));
        assertEquals(Optional.of(Path.of("sub", "x.jar")), folder.fileOf(deploy.resolve("sub/x.jar").toUri().toString()));
    }

    @Test
    void aLocationElsewhereOrNotAFileIsNotInTheFolder() {
        assertEquals(Optional.empty(), folder.fileOf(samples.resolve("counter.jar").toUri().toString()));
        assertEquals(Optional.empty(), folder.fileOf(deploy.toUri().toString()));
        assertEquals(Optional.empty(), folder.fileOf(temp.resolve("deploy-old/counter.jar").toUri().toString()));
        assertEquals(Optional.empty(), folder.fileOf("System Bundle"));
        assertEquals(Optional.empty(), folder.fileOf("mvn:io.troupe/troupe-host/0.1.0"));
        assertEquals(Optional.empty(), folder.fileOf("counter.jar"));
        assertEquals(Optional.empty(), folder.fileOf("file:counter.jar"));
        assertEquals(Optional.empty(), folder.fileOf("file:/%zz"));
        assertEquals(Optional.empty(), folder.fileOf(null));
    }

    @Test
    void aFolderWithSpacesInItsPathMatchesItsEncodedFileUrl() throws Exception {
        Path spaced = Files.createDirectory(temp.resolve("my deploy"));
        DeployFolder withSpaces = new DeployFolder(spaced);
        String location = spaced.resolve("counter.jar").toUri().toString();

        assertTrue(location.contains("%20"), location);
        assertEquals(Optional.of(Path.of("counter.jar")), withSpaces.fileOf(location));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> entries = Files.list(deploy)) {
            return entries.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static void assertRefused(String code, String detail, Executable call) {
        DeployException e = assertThrows(DeployException.class, call);
        assertEquals(code, e.code(), e.getMessage());
        assertTrue(e.detail().contains(detail), e.detail());
        assertFalse(e.detail().isBlank());
    }
}
