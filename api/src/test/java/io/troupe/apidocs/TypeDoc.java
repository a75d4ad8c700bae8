package io.troupe.apidocs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The public top-level type of one source file and the javadoc comment written right above it, read from
 * the source text (the published docs are made from the same comments).
 *
 * <pre>
 * for (TypeDoc type : TypeDoc.readAll(Path.of("src/main/java"))) {
 *     assertTrue(type.javadoc().orElse("").contains("Threading"), type.file().toString());
 * }
 * </pre>
 *
 * <p><b>Threading:</b> immutable; any thread. {@link #readAll} reads files on the calling thread.
 *
 * @param file    the source file
 * @param name    the type's simple name
 * @param javadoc the text of the comment between {@code /**} and its end, or empty when the declaration
 *                has none (annotations may stand between the comment and the declaration)
 */
record TypeDoc(Path file, String name, Optional<String> javadoc) {

    /** A top-level declaration: at the start of a line, public, with any of the modifiers a top-level type may have. */
    private static final Pattern PUBLIC_TOP_LEVEL = Pattern.compile(
            "(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed|strictfp)\\s+)*"
                    + "(?:class|interface|enum|record|@interface)\\s+(\\w+)");
    /** An annotation, with its arguments when they hold no parentheses of their own. */
    private static final Pattern ANNOTATION = Pattern.compile("@[\\w.]+(?:\\s*\\([^()]*\\))?");

    /**
     * Every public top-level type under {@code sourceRoot}, in file order; {@code package-info.java} and
     * {@code module-info.java} declare none.
     *
     * @throws IllegalArgumentException if {@code sourceRoot} is not a folder
     */
    static List<TypeDoc> readAll(Path sourceRoot) {
        if (!Files.isDirectory(sourceRoot)) {
            throw new IllegalArgumentException("no source folder " + sourceRoot.toAbsolutePath());
        }
        List<TypeDoc> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String fileName = file.getFileName().toString();
                if (fileName.endsWith(".java") && !fileName.endsWith("-info.java")) {
                    read(file).ifPresent(types::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sources under " + sourceRoot, e);
        }
        return types;
    }

    /** The public top-level type of {@code file}, if it declares one. */
    static Optional<TypeDoc> read(Path file) throws IOException {
        String source = Files.readString(file);
        Matcher declaration = PUBLIC_TOP_LEVEL.matcher(source);
        if (!declaration.find()) {
            return Optional.empty();
        }
        return Optional.of(new TypeDoc(file, declaration.group(1), commentBefore(source, declaration.start())));
    }

    /** The javadoc comment that ends right before {@code position}, with only annotations in between. */
    private static Optional<String> commentBefore(String source, int position) {
        int end = source.lastIndexOf("*/", position);
        if (end < 0) {
            return Optional.empty();
        }
        String between = ANNOTATION.matcher(source.substring(end + 2, position)).replaceAll("");
        int start = source.lastIndexOf("/**", end);
        if (!between.isBlank() || start < 0) {
            return Optional.empty();
        }
        return Optional.of(source.substring(start + 3, end));
    }
}
