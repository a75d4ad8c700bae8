package io.troupe.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the JDK's {@code keytool} (of the running Java) for tests that need real PKCS#12 stores, as an
 * operator makes them.
 *
 * <p><b>Threading:</b> stateless; each call runs one process, for at most 60 s.
 */
public final class KeyTool {

    private KeyTool() {
    }

    /**
     * Runs {@code keytool arguments...}.
     *
     * @throws IOException with keytool's output when it fails or takes longer than 60 s
     */
    public static void run(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("keytool " + arguments + " failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }
}
