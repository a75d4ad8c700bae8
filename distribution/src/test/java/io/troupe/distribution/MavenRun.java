package io.troupe.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of Maven as a separate process, the way a user types {@code mvn} in a shell: the same Maven
 * installation and local repository as the build running the test (system properties {@code maven.home}
 * and {@code maven.repo.local}, else {@code mvn} on the PATH and its default repository), batch mode, a
 * bounded time, and its whole output kept for the failure message. It is not offline: it resolves what the
 * local repository lacks, and asks the network for nothing the repository holds (every plugin and version
 * it runs is named in full).
 *
 * <p><b>Threading:</b> the test thread; the output goes to a file, so no reader thread is needed.
 */
final class MavenRun {

    private MavenRun() {
    }

    /**
     * What one run printed and returned.
     *
     * @param command what was run
     * @param exit    its exit status
     * @param output  standard output and error, interleaved
     */
    record Result(List<String> command, int exit, String output) {

        /** Fails, with the command and its whole output, unless Maven exited 0. */
        Result assertSucceeded() {
            if (exit != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + exit + ":\n" + output);
            }
            return this;
        }
    }

    /**
     * Runs {@code mvn -B <arguments>} in {@code dir} and waits up to {@code timeout} for it.
     *
     * @throws AssertionError if it does not finish in time: it is killed and its output so far is shown
     */
    static Result run(Path dir, Duration timeout, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.add("-B");
        String repository = System.getProperty("maven.repo.local", "");
        if (!repository.isBlank()) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        command.addAll(List.of(arguments));
        Path log = Files.createTempFile(dir, "mvn", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("MAVEN_OPTS");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout.toSeconds()
                    + " s:\n" + new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
        }
        return new Result(command, process.exitValue(), new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
    }

    /** {@code <maven.home>/bin/mvn} of the running build, else {@code mvn} from the PATH. */
    private static String executable() {
        String home = System.getProperty("maven.home", "");
        if (!home.isBlank()) {
            Path mvn = Path.of(home, "bin", "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return "mvn";
    }
}
