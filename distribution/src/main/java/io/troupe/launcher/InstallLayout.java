package io.troupe.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * The directories of a Troupe installation:
 *
 * <pre>
 *   bin/      the troupe script
 *   lib/      this launcher and the Felix framework
 *   system/   runtime bundles (Felix services, Gogo, Troupe api, host, shell)
 *   deploy/   plugin bundles installed and started at startup
 *   etc/      config.properties
 *   log/      troupe.log, written by the host     (created when missing)
 *   data/     cache/: the framework cache          (created when missing; safe to delete while stopped)
 * </pre>
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class InstallLayout {

    /** The system property, and framework property, holding the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";
    /** The framework property holding the absolute path of {@link #deploy()}, the folder the host watches. */
    static final String DEPLOY_DIR_PROPERTY = "troupe.deploy.dir";

    private final Path home;

    private InstallLayout(Path home) {
        this.home = home;
    }

    /**
     * Checks that {@code home} holds a complete installation, and creates {@code log/} and
     * {@code data/} if they are missing.
     *
     * @throws LauncherException naming the first missing or unusable directory
     */
    static InstallLayout open(Path home) throws LauncherException {
        Path absolute = home.toAbsolutePath().normalize();
        requireDirectory(absolute, "installation directory");
        InstallLayout layout = new InstallLayout(absolute);
        requireDirectory(layout.system(), "system bundle directory");
        requireDirectory(layout.deploy(), "deploy directory");
        requireDirectory(layout.etc(), "configuration directory");
        createDirectory(layout.log());
        createDirectory(layout.data());
        return layout;
    }

    /**
     * The installation directory: the system property {@value #HOME_PROPERTY} if set, else the
     * parent of the {@code lib/} directory holding this launcher's jar.
     */
    static Path locateHome(String property) throws LauncherException {
        if (property != null && !property.isBlank()) {
            try {
                return Path.of(property);
            } catch (InvalidPathException e) {
                throw new LauncherException(HOME_PROPERTY + " is not a valid path: " + property);
            }
        }
        CodeSource source = InstallLayout.class.getProtectionDomain().getCodeSource();
        try {
            Path jar = source == null ? null : Path.of(source.getLocation().toURI());
            Path lib = jar == null ? null : jar.getParent();
            if (lib != null && lib.getParent() != null && lib.getFileName().toString().equals("lib")) {
                return lib.getParent();
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            // fall through to the message below
        }
        throw new LauncherException("cannot tell where Troupe is installed: start it with bin/troupe,"
                + " or pass -D" + HOME_PROPERTY + "=<installation directory>", LauncherException.USAGE);
    }

    Path home() {
        return home;
    }

    Path system() {
        return home.resolve("system");
    }

    Path deploy() {
        return home.resolve("deploy");
    }

    Path etc() {
        return home.resolve("etc");
    }

    Path log() {
        return home.resolve("log");
    }

    Path data() {
        return home.resolve("data");
    }

    /** The framework configuration file. */
    Path configFile() {
        return etc().resolve("config.properties");
    }

    /** The framework cache. */
    Path cache() {
        return data().resolve("cache");
    }

    /** The path relative to the installation directory when it is inside it, for messages. */
    String display(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return absolute.startsWith(home) ? home.relativize(absolute).toString() : absolute.toString();
    }

    private static void requireDirectory(Path dir, String what) throws LauncherException {
        if (!Files.isDirectory(dir)) {
            throw new LauncherException("missing " + what + " " + dir
                    + (Files.exists(dir) ? " (it is not a directory)" : "") + ": the installation is incomplete");
        }
        if (!Files.isReadable(dir)) {
            throw new LauncherException("cannot read " + what + " " + dir + ": permission denied");
        }
    }

    private static void createDirectory(Path dir) throws LauncherException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LauncherException("cannot create directory " + dir + ": " + LauncherException.describe(e), e);
        }
        if (!Files.isWritable(dir)) {
            throw new LauncherException("directory " + dir + " is not writable");
        }
    }
}
