package io.troupe.benchmarks.net;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * Finds the built distribution ({@code distribution/target/troupe}): the directory given on the
 * command line, else the one under the repository root, looked for upwards from the working
 * directory and then from the location of the benchmark classes (the jar or the classes folder).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class DistributionLocator {

    static final String RELATIVE = "distribution/target/troupe";

    private DistributionLocator() {
    }

    /**
     * @param option the {@code --distribution} value, or null
     * @throws IllegalStateException when no distribution is found
     */
    public static Path locate(String option) {
        if (option != null) {
            Path given = Path.of(option).toAbsolutePath().normalize();
            if (!isDistribution(given)) {
                throw new IllegalStateException(given + " is not a Troupe distribution (no bin/troupe)");
            }
            return given;
        }
        Path found = searchUpwards(Path.of("").toAbsolutePath());
        if (found == null) {
            found = searchUpwards(codeLocation());
        }
        if (found == null) {
            throw new IllegalStateException("no " + RELATIVE + " found above the working directory or the "
                    + "benchmark jar: build it (mvn -B -DskipTests package) or pass --distribution DIR");
        }
        return found;
    }

    private static Path searchUpwards(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(RELATIVE);
            if (isDistribution(candidate)) {
                return candidate.normalize();
            }
        }
        return null;
    }

    private static Path codeLocation() {
        try {
            CodeSource source = DistributionLocator.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean isDistribution(Path dir) {
        return Files.isRegularFile(dir.resolve("bin/troupe")) && Files.isRegularFile(dir.resolve("bin/troupe-client"));
    }
}
