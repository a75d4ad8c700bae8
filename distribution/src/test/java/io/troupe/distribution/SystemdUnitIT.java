package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd unit shipped in the distribution ({@code systemd/troupe.service}): the commands and folders it
 * names are those of the built distribution ({@code target/troupe}) installed in {@code /opt/troupe}, and,
 * where {@code systemd-analyze} is installed, systemd itself accepts the unit with no warning (with
 * {@code /opt/troupe} replaced by the built distribution's folder, since it checks that the commands exist).
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class SystemdUnitIT {

    private static final Path BUILT = Path.of(System.getProperty("troupe.distribution", "target/troupe"))
            .toAbsolutePath().normalize();
    private static final Path UNIT = BUILT.resolve("systemd/troupe.service");
    private static final String INSTALLED = "/opt/troupe";

    @TempDir
    Path dir;

    @Test
    void theUnitRunsBinTroupeWithoutConsoleAndStopsItWithBinTroupeStop() throws IOException {
        Map<String, List<String>> service = section("Service");

        assertEquals(List.of("simple"), service.get("Type"), "bin/troupe does not notify systemd");
        assertEquals(List.of(INSTALLED + "/bin/troupe"), service.get("ExecStart"));
        assertEquals(List.of("null"), service.get("StandardInput"), "no terminal: bin/troupe runs as a server");
        assertEquals(List.of(INSTALLED + "/bin/troupe stop --timeout 80"), service.get("ExecStop"));
        assertTrue(Files.readString(BUILT.resolve("bin/troupe")).contains("if [ \"${1:-}\" = stop ]; then"),
                "bin/troupe has a stop command");
        assertTrue(Integer.parseInt(service.get("TimeoutStopSec").get(0)) > 80, "systemd waits longer than stop");
        assertEquals(List.of("on-failure"), service.get("Restart"));
        assertEquals(List.of("troupe"), service.get("User"));
        assertTrue(service.containsKey("LimitNOFILE"));
        for (String command : List.of("ExecStart", "ExecStop")) {
            String program = service.get(command).get(0).split(" ")[0];
            assertTrue(Files.isExecutable(BUILT.resolve(program.substring(INSTALLED.length() + 1))), program);
        }
    }

    @Test
    void theFileSystemIsReadOnlyButForTheFoldersTroupeWritesAndTheJvmKeepsItsJit() throws IOException {
        Map<String, List<String>> service = section("Service");

        assertEquals(List.of("strict"), service.get("ProtectSystem"));
        assertEquals(List.of("yes"), service.get("NoNewPrivileges"));
        assertEquals(List.of("yes"), service.get("PrivateTmp"));
        List<String> writable = Arrays.asList(service.get("ReadWritePaths").get(0).split(" "));
        assertEquals(List.of("data", "log", "deploy", "etc"),
                writable.stream().map(path -> path.substring(INSTALLED.length() + 1)).toList());
        for (String folder : List.of("data", "log", "deploy", "etc")) {
            assertTrue(Files.isDirectory(BUILT.resolve(folder)), folder + "/ is a folder of the distribution");
        }
        assertFalse(service.containsKey("MemoryDenyWriteExecute"), "the JIT writes executable memory");
    }

    @Test
    void systemdAcceptsTheUnitWithoutAWarning() throws Exception {
        Assumptions.assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed");
        Path unit = dir.resolve("troupe.service");
        Files.writeString(unit, Files.readString(UNIT).replace(INSTALLED, BUILT.toString()));

        Process verify = new ProcessBuilder("systemd-analyze", "verify", unit.toString())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        String output;
        try (InputStream out = verify.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS), "systemd-analyze verify ended");

        assertEquals(0, verify.exitValue(), output);
        assertEquals("", output, "no warning");
    }

    /** The keys of one section of the unit, each with its values in order; comments and blank lines skipped. */
    private static Map<String, List<String>> section(String name) throws IOException {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        String current = null;
        for (String line : Files.readAllLines(UNIT)) {
            String stripped = line.strip();
            if (stripped.isEmpty() || stripped.startsWith("#")) {
                continue;
            }
            if (stripped.startsWith("[")) {
                current = stripped.substring(1, stripped.length() - 1);
                continue;
            }
            int equals = stripped.indexOf('=');
            assertTrue(equals > 0, "not a key=value line: " + line);
            if (name.equals(current)) {
                keys.computeIfAbsent(stripped.substring(0, equals), key -> new ArrayList<>())
                        .add(stripped.substring(equals + 1));
            }
        }
        assertFalse(keys.isEmpty(), "no section [" + name + "] in " + UNIT);
        return keys;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && Arrays.stream(path.split(":"))
                .anyMatch(folder -> !folder.isEmpty() && Files.isExecutable(Path.of(folder, program)));
    }
}
