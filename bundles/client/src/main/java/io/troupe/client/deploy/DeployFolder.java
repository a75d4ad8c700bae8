package io.troupe.client.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The deploy folder, as a deploying tool changes it: the host watches it and installs, updates or
 * uninstalls the plugin bundles whose jars appear, change or disappear there, then writes its
 * outcome to {@code .status/<file>} ({@link DeployStatus}). This class only changes files and reads
 * the outcome; it never touches a bundle.
 *
 * <pre>
 *   deploy  PATH        PATH  --copy--&gt;  deploy/.name.jar.part  --rename (atomic)--&gt;  deploy/name.jar
 *   put     PATH        as deploy, and replaces deploy/name.jar when it holds the same bundle
 *   update  NAME PATH   PATH  --copy--&gt;  deploy/.NAME.jar.part  --rename (atomic)--&gt;  deploy/NAME.jar (replaced)
 *   remove  NAME        delete deploy/NAME.jar
 *   awaitOutcome        poll deploy/.status/NAME.jar until it judges the renamed bytes ({@link StatusPoller})
 * </pre>
 *
 * The copy goes to a hidden {@code .part} file in the folder itself, which the host ignores, is
 * digested (SHA-256) as it is written, and is flushed to disk before the rename, so the host only
 * ever sees a plugin jar whole: absent, the old one, or the new one. Both jars are checked first: the
 * new one must be a readable jar with a Bundle-SymbolicName; {@code deploy} refuses a name or a
 * bundle already in the folder, {@code put} a bundle already there under another name, and
 * {@code update} a jar of another bundle than the one it replaces.
 *
 * <p><b>Threading:</b> any thread. Changes are serialised on this instance, so two shell sessions
 * cannot interleave their copies to the same {@code .part} file; nothing guards against other
 * processes writing to the folder. Waiting for an outcome holds no lock.
 */
public final class DeployFolder {

    /** The extension of the files the host deploys. */
    public static final String JAR = ".jar";
    /** The extension of the hidden file a jar is copied to before it is renamed into place. */
    public static final String PART = ".part";

    /** A URI scheme of two characters or more, so that a Windows drive letter is not one. */
    private static final Pattern URL_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:.*");
    private static final String REFERENCE = "reference:";

    private final Path dir;
    private final StatusPoller poller;
    private final Object changes = new Object();

    /** @param dir the deploy folder; made absolute */
    public DeployFolder(Path dir) {
        this(dir, new StatusPoller());
    }

    /**
     * @param dir    the deploy folder; made absolute
     * @param poller gives the instant of each rename and waits for outcomes
     */
    public DeployFolder(Path dir, StatusPoller poller) {
        this.dir = dir.toAbsolutePath().normalize();
        this.poller = poller;
    }

    /** The folder, absolute and normalised. */
    public Path dir() {
        return dir;
    }

    /**
     * What {@link #deploy} or {@link #put} copied.
     *
     * @param replaced the jar {@link #put} replaced, when there was one and it could be read
     * @param sha256   the digest of the bytes renamed into place
     * @param since    the instant just before the rename
     */
    public record Deployed(Path target, PluginJar jar, Optional<PluginJar> replaced, String sha256, Instant since) {
    }

    /** What {@link #update} did; {@code previous} is null when the replaced jar could not be read. */
    public record Updated(Path target, PluginJar previous, PluginJar replacement, String sha256, Instant since) {
    }

    /** What {@link #remove} did; {@code removed} is null when the deleted jar could not be read. */
    public record Removed(Path target, PluginJar removed) {
    }

    /** The digest of a copy and the instant taken just before its rename. */
    private record Copy(String sha256, Instant since) {
    }

    /**
     * Copies the plugin jar {@code source} into the folder under its own file name.
     *
     * @throws DeployException if the file name is not {@code *.jar} or is hidden, if it is not a
     *                         plugin bundle, if a jar of that name or of that bundle is already
     *                         deployed, or if the copy fails
     */
    public Deployed deploy(Path source) throws DeployException {
        String name = requireJarName(source);
        PluginJar jar = PluginJar.read(source, source.toString());
        synchronized (changes) {
            requireFolder();
            Path target = dir.resolve(name);
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                throw alreadyDeployed(name);
            }
            Optional<Path> sameBundle = find(jar.symbolicName());
            if (sameBundle.isPresent()) {
                String plugin = pluginName(sameBundle.get().getFileName().toString());
                throw bundleAlreadyDeployed(jar, sameBundle.get(), "use update " + plugin + " " + source);
            }
            Copy copy = copyAtomically(source, target);
            return new Deployed(target, jar, Optional.empty(), copy.sha256(), copy.since());
        }
    }

    /**
     * Copies the plugin jar {@code source} into the folder under its own file name, replacing the jar
     * of that name if it holds the same bundle (or cannot be read): what {@code troupe-client deploy}
     * does, so that a script deploys each version of a plugin the same way.
     *
     * @throws DeployException as {@link #deploy}, but a jar of that name is replaced unless it holds
     *                         another bundle ({@link DeployException#SYMBOLIC_NAME_MISMATCH})
     */
    public Deployed put(Path source) throws DeployException {
        String name = requireJarName(source);
        PluginJar jar = PluginJar.read(source, source.toString());
        synchronized (changes) {
            requireFolder();
            Path target = dir.resolve(name);
            Optional<PluginJar> replaced = Optional.empty();
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                if (isSameFile(source, target)) {
                    throw badRequest(source + " is the deployed " + shown(target) + " itself; nothing to deploy");
                }
                replaced = Optional.ofNullable(readOrNull(target));
                if (replaced.isPresent() && !replaced.get().symbolicName().equals(jar.symbolicName())) {
                    throw otherBundle(source, jar, target, replaced.get().symbolicName(),
                            "a deploy replaces a jar only by another version of the same bundle");
                }
            } else {
                Optional<Path> sameBundle = find(jar.symbolicName());
                if (sameBundle.isPresent()) {
                    throw bundleAlreadyDeployed(jar, sameBundle.get(), "name the new jar "
                            + sameBundle.get().getFileName());
                }
            }
            Copy copy = copyAtomically(source, target);
            return new Deployed(target, jar, replaced, copy.sha256(), copy.since());
        }
    }

    /**
     * Replaces the deployed jar {@code name} ({@code .jar} optional) by {@code source}, which must be
     * the same bundle: the one installed from it when {@code installedSymbolicName} is given, else the
     * one in the jar being replaced (when that jar cannot be read, any bundle may replace it).
     *
     * @throws DeployException if {@code name} is not a deployed jar, if {@code source} is not a plugin
     *                         bundle or is another bundle, or if the copy fails
     */
    public Updated update(String name, Path source, Optional<String> installedSymbolicName) throws DeployException {
        String file = fileName(name);
        PluginJar replacement = PluginJar.read(source, source.toString());
        synchronized (changes) {
            requireFolder();
            Path target = dir.resolve(file);
            requireDeployed(target, "; use deploy PATH to add a plugin");
            if (isSameFile(source, target)) {
                throw badRequest(source + " is the deployed " + shown(target) + " itself; nothing to update");
            }
            PluginJar previous = readOrNull(target);
            Optional<String> expected = installedSymbolicName.or(
                    () -> Optional.ofNullable(previous).map(PluginJar::symbolicName));
            if (expected.isPresent() && !expected.get().equals(replacement.symbolicName())) {
                throw otherBundle(source, replacement, target, expected.get(),
                        "update replaces a plugin by another version of the same bundle;"
                        + " to replace it by another plugin, remove it and deploy the other");
            }
            Copy copy = copyAtomically(source, target);
            return new Updated(target, previous, replacement, copy.sha256(), copy.since());
        }
    }

    /**
     * Deletes the deployed jar {@code name} ({@code .jar} optional).
     *
     * @throws DeployException if it is not a deployed jar, or cannot be deleted
     */
    public Removed remove(String name) throws DeployException {
        String file = fileName(name);
        synchronized (changes) {
            requireFolder();
            Path target = dir.resolve(file);
            requireDeployed(target, "");
            PluginJar removed = readOrNull(target);
            try {
                Files.delete(target);
            } catch (IOException e) {
                throw ioError("cannot delete " + shown(target), e);
            }
            return new Removed(target, removed);
        }
    }

    /**
     * Waits for the host's judgement of the bytes {@code sha256} renamed to {@code target} at
     * {@code since} (see {@link StatusPoller}).
     *
     * @throws DeployException {@link DeployException#DEPLOY_TIMEOUT} when the host wrote none within
     *                         {@code timeout}, or when the status cannot be read
     */
    public DeployStatus awaitOutcome(Path target, String sha256, Instant since, Duration timeout)
            throws DeployException, InterruptedException {
        return poller.await(dir, target.getFileName().toString(), shown(target), sha256, since, timeout);
    }

    /**
     * The host's last outcome for the jar {@code file} of the folder, if it wrote one.
     *
     * @throws DeployException when the status file cannot be read or understood
     */
    public Optional<DeployStatus> status(String file) throws DeployException {
        return DeployStatus.read(DeployStatus.fileOf(dir, file));
    }

    /**
     * The host's refusal of the jar now at {@code file}: its last outcome, when that refused
     * ({@code rolled-back} or {@code failed}) the very bytes the file holds now. Empty when the host
     * runs them, has not judged them yet, or there is no such jar.
     *
     * @throws DeployException when the status file cannot be read or understood
     */
    public Optional<DeployStatus> refusal(String file) throws DeployException {
        Optional<DeployStatus> status = status(file);
        if (status.isEmpty() || status.get().outcome() == DeployStatus.Outcome.RUNNING) {
            return Optional.empty();
        }
        Path jar = dir.resolve(file);
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(jar), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw ioError("cannot read " + shown(jar), e);
        }
        return status.get().sha256().equals(HexFormat.of().formatHex(digest.digest())) ? status : Optional.empty();
    }

    /**
     * The plugin jars in the folder, ordered by file name: regular {@code *.jar} files not hidden
     * (which also leaves out the {@code .part} files of copies in progress).
     *
     * @throws DeployException if the folder cannot be listed
     */
    public List<Path> jars() throws DeployException {
        requireFolder();
        List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*" + JAR)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().startsWith(".") && Files.isRegularFile(entry)) {
                    jars.add(entry);
                }
            }
        } catch (IOException e) {
            throw ioError("cannot list " + dir, e);
        }
        jars.sort(Comparator.comparing(path -> path.getFileName().toString()));
        return jars;
    }

    /**
     * The file, relative to the folder, that a bundle location names when it is in the folder: a
     * {@code file:} URL (also behind {@code reference:}) or an absolute path. Paths are compared as
     * written, normalised, without resolving symbolic links.
     */
    public Optional<Path> fileOf(String location) {
        if (location == null) {
            return Optional.empty();
        }
        String rest = location.startsWith(REFERENCE) ? location.substring(REFERENCE.length()) : location;
        Path path;
        try {
            if (rest.regionMatches(true, 0, "file:", 0, 5)) {
                URI uri = new URI(rest);
                path = uri.isOpaque() ? Path.of(uri.getSchemeSpecificPart()) : Path.of(uri);
            } else if (URL_SCHEME.matcher(rest).matches()) {
                return Optional.empty();
            } else {
                path = Path.of(rest);
            }
        } catch (URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
            return Optional.empty(); // InvalidPathException is an IllegalArgumentException
        }
        if (!path.isAbsolute()) {
            return Optional.empty();
        }
        Path normal = path.normalize();
        return normal.startsWith(dir) && !normal.equals(dir) ? Optional.of(dir.relativize(normal)) : Optional.empty();
    }

    /**
     * The file name of the plugin {@code name}: {@code counter} and {@code counter.jar} both name
     * {@code counter.jar}.
     *
     * @throws DeployException with code {@link DeployException#BAD_REQUEST} unless {@code name} is a
     *                         plain, not hidden file name
     */
    public static String fileName(String name) throws DeployException {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty()) {
            throw badRequest("a plugin name is required, such as counter or counter.jar");
        }
        if (stripped.contains("/") || stripped.contains("\\") || stripped.equals("..")) {
            throw badRequest("'" + stripped + "' is a path; a plugin is named by its file name in the deploy folder,"
                    + " such as counter or counter.jar");
        }
        if (stripped.startsWith(".")) {
            throw badRequest("'" + stripped + "' starts with '.': hidden files are not plugins");
        }
        String file = stripped.endsWith(JAR) ? stripped : stripped + JAR;
        try {
            Path.of(file);
        } catch (InvalidPathException e) {
            throw badRequest("'" + stripped + "' is not a valid file name: " + e.getReason());
        }
        return file;
    }

    /** How messages show a path in the folder: {@code deploy/counter.jar}. */
    public String shown(Path path) {
        Path name = dir.getFileName();
        Path relative = dir.relativize(path);
        return name == null ? relative.toString() : name.resolve(relative).toString();
    }

    private static String requireJarName(Path source) throws DeployException {
        Path fileName = source.getFileName();
        String name = fileName == null ? "" : fileName.toString();
        if (!name.endsWith(JAR) || name.length() == JAR.length()) {
            throw badRequest(source + " is not named *" + JAR + ": the host deploys only " + JAR + " files");
        }
        if (name.startsWith(".")) {
            throw badRequest(source + " is a hidden file: the host would ignore it in the deploy folder;"
                    + " rename it first");
        }
        return name;
    }

    private void requireFolder() throws DeployException {
        if (!Files.isDirectory(dir)) {
            throw new DeployException(DeployException.DEPLOY_UNAVAILABLE, "the deploy folder " + dir
                    + (Files.exists(dir) ? " is not a directory" : " does not exist"));
        }
    }

    private void requireDeployed(Path target, String hint) throws DeployException {
        if (!Files.isRegularFile(target)) {
            throw new DeployException(DeployException.NO_PLUGIN, "there is no " + shown(target)
                    + " (plugins lists the deployed ones)" + hint);
        }
    }

    /** The deployed jar of the bundle {@code symbolicName}, if any; unreadable jars are skipped. */
    private Optional<Path> find(String symbolicName) throws DeployException {
        for (Path jar : jars()) {
            PluginJar deployed = readOrNull(jar);
            if (deployed != null && deployed.symbolicName().equals(symbolicName)) {
                return Optional.of(jar);
            }
        }
        return Optional.empty();
    }

    private static PluginJar readOrNull(Path jar) {
        try {
            return PluginJar.read(jar, jar.toString());
        } catch (DeployException e) {
            return null;
        }
    }

    /**
     * Copies {@code source} to a hidden {@code .part} file beside {@code target}, digesting the bytes
     * written, forces it to disk and renames it to {@code target} in one step, replacing any file
     * there. The part file never outlives a failure.
     */
    private Copy copyAtomically(Path source, Path target) throws DeployException {
        Path part = dir.resolve("." + target.getFileName() + PART);
        try {
            MessageDigest digest = sha256();
            try (InputStream in = new DigestInputStream(Files.newInputStream(source), digest)) {
                Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel channel = FileChannel.open(part, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Instant since = poller.now();
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
            return new Copy(HexFormat.of().formatHex(digest.digest()), since);
        } catch (AtomicMoveNotSupportedException e) {
            throw ioError("the file system of " + dir + " cannot rename " + part.getFileName() + " to "
                    + target.getFileName() + " atomically", e);
        } catch (NoSuchFileException e) {
            throw ioError("cannot copy " + source + " to " + shown(target) + ": " + e.getFile() + " disappeared", e);
        } catch (IOException e) {
            throw ioError("cannot copy " + source + " to " + shown(target), e);
        } finally {
            deletePart(part);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void deletePart(Path part) {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            // the host ignores hidden files, and the next copy to it replaces it
        }
    }

    private static boolean isSameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    private static String pluginName(String file) {
        return file.substring(0, file.length() - JAR.length());
    }

    private static DeployException badRequest(String detail) {
        return new DeployException(DeployException.BAD_REQUEST, detail);
    }

    private DeployException alreadyDeployed(String name) {
        return new DeployException(DeployException.PLUGIN_EXISTS, shown(dir.resolve(name)) + " already exists;"
                + " use update " + pluginName(name) + " PATH to replace it");
    }

    private DeployException bundleAlreadyDeployed(PluginJar jar, Path deployedAs, String hint) {
        return new DeployException(DeployException.PLUGIN_EXISTS, jar.symbolicName() + " is already deployed as "
                + shown(deployedAs) + "; " + hint + " to replace it");
    }

    private DeployException otherBundle(Path source, PluginJar replacement, Path target, String expected,
            String rule) {
        return new DeployException(DeployException.SYMBOLIC_NAME_MISMATCH, source + " is "
                + replacement.symbolicName() + ", but " + shown(target) + " is " + expected + ": " + rule);
    }

    private static DeployException ioError(String detail, IOException cause) {
        return new DeployException(DeployException.IO_ERROR, detail + " (" + describe(cause) + ")", cause);
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
