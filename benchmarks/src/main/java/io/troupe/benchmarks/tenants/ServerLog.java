package io.troupe.benchmarks.tenants;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads what the server's log says about the suite's configuration files: every WARN or ERROR line
 * that names one of them, such as "unknown key(s) [weight] ignored" from a server that does not know
 * a key yet. The message is kept without its timestamp and thread, and with the temporary
 * installation's path cut down to {@code etc/...}, so that runs compare.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ServerLog {

    private static final Pattern LEVEL = Pattern.compile("\\s(WARN|ERROR)\\s");
    private static final Pattern ETC_PATH = Pattern.compile("\\S*/(etc/io\\.troupe\\.)");

    private ServerLog() {
    }

    /**
     * The WARN and ERROR messages of {@code log} that mention one of {@code fileNames}, in order;
     * empty when the log does not exist (yet).
     */
    static List<String> problemsWith(Path log, List<String> fileNames) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        for (String line : lines) {
            if (LEVEL.matcher(line).find() && fileNames.stream().anyMatch(line::contains)) {
                int message = line.indexOf(" - ");
                String text = message < 0 ? line : line.substring(message + 3);
                found.add(ETC_PATH.matcher(text).replaceAll("$1").strip());
            }
        }
        return found;
    }
}
