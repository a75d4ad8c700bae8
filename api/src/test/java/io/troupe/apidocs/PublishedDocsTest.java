package io.troupe.apidocs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The javadoc published for {@code troupe-api} and {@code troupe-testkit} (the distribution's
 * {@code docs/api/} and {@code docs/testkit/}) says for every public top-level type which threads may
 * use it, and shows the types a plugin author writes code against in an example.
 *
 * <p>It reads the sources: this module's {@code src/main/java} and the test kit's, beside it in the
 * project. A broken reference in a comment fails the javadoc run itself, in {@code mvn package}.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class PublishedDocsTest {

    private static final Path API_SOURCES = module(".").resolve("src/main/java");
    private static final Path TESTKIT_SOURCES = module("../bundles/testkit").resolve("src/main/java");

    /** The word a type's javadoc states its threading contract under, as in {@code <b>Threading:</b>}. */
    private static final String THREADING = "Threading";
    /** How an example is set in javadoc. */
    private static final String EXAMPLE = "<pre>";

    /** The API types a plugin author writes code against. */
    private static final Set<String> API_ENTRY_POINTS = Set.of("Actor", "ActorContext", "ActorRef",
            "ActorFactory", "Handler", "Factory", "TroupeRuntime", "Receive", "AbstractActor");
    /** The test kit's entry points. */
    private static final Set<String> TESTKIT_ENTRY_POINTS = Set.of("ActorHarness", "TestActorContext",
            "TroupeExtension", "TestProbe");

    @Test
    void everyPublicApiTypeStatesItsThreadingContractAndTheEntryPointsShowAnExample() {
        assertDocumented(API_SOURCES, API_ENTRY_POINTS);
    }

    @Test
    void everyPublicTestkitTypeStatesItsThreadingContractAndTheEntryPointsShowAnExample() {
        assertDocumented(TESTKIT_SOURCES, TESTKIT_ENTRY_POINTS);
    }

    @Test
    void aTypeWithoutACommentOrWithTheCommentAboveItsImportsIsFoundUndocumented(@TempDir Path dir) throws Exception {
        Path bare = Files.writeString(dir.resolve("Bare.java"), "package p;\n/** Not the type's: imports follow. */\n"
                + "import java.util.List;\n@Deprecated\npublic final class Bare {\n}\n");
        Path annotated = Files.writeString(dir.resolve("Annotated.java"), "package p;\n/**\n * Says it.\n */\n"
                + "@Component(service = X.class)\n@Handler({\"a\", \"b\"})\npublic sealed interface Annotated {\n}\n");
        Files.writeString(dir.resolve("Hidden.java"), "package p;\n/** Package-private. */\nfinal class Hidden {\n}\n");

        assertEquals(List.of(new TypeDoc(annotated, "Annotated", Optional.of("\n * Says it.\n ")),
                new TypeDoc(bare, "Bare", Optional.empty())), TypeDoc.readAll(dir));
    }

    private static void assertDocumented(Path sources, Set<String> entryPoints) {
        List<TypeDoc> types = TypeDoc.readAll(sources);
        List<String> problems = new ArrayList<>();
        Set<String> missingEntryPoints = new TreeSet<>(entryPoints);
        for (TypeDoc type : types) {
            missingEntryPoints.remove(type.name());
            String javadoc = type.javadoc().orElse(null);
            if (javadoc == null) {
                problems.add(type.file() + ": public type " + type.name() + " has no javadoc");
                continue;
            }
            if (!javadoc.contains(THREADING)) {
                problems.add(type.file() + ": the javadoc of " + type.name() + " does not state its threading"
                        + " contract: add a paragraph <p><b>" + THREADING + ":</b> who may call it, from which"
                        + " thread, and what it publishes to whom");
            }
            if (entryPoints.contains(type.name()) && !javadoc.contains(EXAMPLE)) {
                problems.add(type.file() + ": the javadoc of " + type.name() + ", which plugin authors write"
                        + " code against, has no example: add one in " + EXAMPLE + "...</pre>");
            }
        }
        assertTrue(missingEntryPoints.isEmpty(), () -> "entry points " + missingEntryPoints
                + " are not public top-level types under " + sources + " any more: update this test's lists");
        assertTrue(problems.isEmpty(), () -> problems.size() + " javadoc problems:\n" + String.join("\n", problems));
    }

    /** A module's folder, relative to this module's ({@code basedir}, as Maven sets it, else the working directory). */
    private static Path module(String relative) {
        return Path.of(System.getProperty("basedir", ".")).resolve(relative).normalize();
    }
}
