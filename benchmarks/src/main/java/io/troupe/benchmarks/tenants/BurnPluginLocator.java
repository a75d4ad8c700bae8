package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the jar of the {@code burn} sample plugin ({@code plugins-sample/burn}), which is not part of
 * the distribution: the file given on the command line, else the newest
 * {@code plugins-sample/burn/target/troupe-sample-burn-*.jar} looked for upwards from the working
 * directory and then from the location of the benchmark classes.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class BurnPluginLocator {

    static final String TARGET = "plugins-sample/burn/target";
    private static final String PREFIX = "troupe-sample-burn-";

    private BurnPluginLocator() {
    }

    /**
     * @param option the {@code --burn-plugin} value, or null
     * @return the jar, or empty when none is found
     * @throws IllegalArgumentException when {@code option} is not a file
     */
    static Optional<Path> locate(String option) throws IOException {
        if (option != null) {
            Path given = Path.of(option).toAbsolutePath().normalize();
            if (!Files.isRegularFile(given)) {
                throw new IllegalArgumentException("--burn-plugin " + given + ": no such file");
            }
            return Optional.of(given);
        }
        Optional<Path> found = searchUpwards(Path.of("").toAbsolutePath());
        if (found.isEmpty()) {
            Path code = codeLocation();
            if (code != null) {
                found = searchUpwards(code);
            }
        }
        return found;
    }

    private static Optional<Path> searchUpwards(Path start) throws IOException {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path target = dir.resolve(TARGET);
            if (Files.isDirectory(target)) {
                try (Stream<Path> files = Files.list(target)) {
                    Optional<Path> jar = files.filter(BurnPluginLocator::isPluginJar)
                            .max(Comparator.comparing(BurnPluginLocator::modified));
                    if (jar.isPresent()) {
                        return Optional.of(jar.get().normalize());
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isPluginJar(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(".jar") && !name.endsWith("-sources.jar")
                && !name.endsWith("-javadoc.jar") && !name.endsWith("-tests.jar") && Files.isRegularFile(file);
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static Path codeLocation() {
        try {
            CodeSource source = BurnPluginLocator.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
