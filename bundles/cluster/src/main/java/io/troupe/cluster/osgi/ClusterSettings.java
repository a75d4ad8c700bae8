package io.troupe.cluster.osgi;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import io.troupe.cluster.engine.MemberAddress;
import io.troupe.cluster.engine.NodeOptions;
import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;
import io.troupe.config.TypedConfiguration;

/**
 * The cluster's validated settings: the configuration {@value ClusterConfiguration#PID}
 * ({@code etc/io.troupe.cluster.cfg}), checked against the typed model {@link ClusterConfiguration} and
 * against the rules a metatype cannot express:
 * <ul>
 * <li>{@code members}: comma-separated {@code host[:port]}, a missing port being this node's {@code port};</li>
 * <li>{@code bindAddress}: an IP literal; {@code publicAddress}: {@code host[:port]};
 *     {@code clientAddress}: {@code host:port};</li>
 * <li>the shared secret is required: {@code secret}, or the first line of {@code secretFile} (relative: to
 *     the installation), never both, at least {@value #SECRET_MIN_LENGTH} characters. A secret file that its
 *     group or others may read is accepted with a warning.</li>
 * </ul>
 * Every key is read when the node joins, so a bad value refuses the whole configuration
 * ({@link InvalidClusterConfigurationException}, one problem per key): a cluster member half configured
 * would join the wrong cluster or none.
 *
 * <p><b>Threading:</b> immutable; any thread. {@link #toString()} never shows the secret.
 *
 * @param clusterName     the configured cluster name
 * @param members         the members to join
 * @param port            this node's cluster port
 * @param bindAddress     the IP literal the cluster port listens on
 * @param publicAddress   where the other members reach this node, when configured
 * @param clientAddress   where clients are sent for this node, {@code host:port}, or {@code ""} (derived)
 * @param secret          the shared secret
 * @param backupCount     synchronous backups of the replicated maps
 * @param minimumMembers  fewer members than this: no tenant served
 * @param handoverTimeout bound of a release and of a claim waiting for one
 * @param syncDeploy      whether deploy/*.jar is replicated
 * @param syncTenants     whether tenant cfgs are replicated
 * @param source          where the configuration came from
 * @param values          the accepted values by key, to tell which keys a later configuration changes
 */
public record ClusterSettings(String clusterName, List<MemberAddress> members, int port, String bindAddress,
        Optional<MemberAddress> publicAddress, String clientAddress, String secret, int backupCount,
        int minimumMembers, Duration handoverTimeout, boolean syncDeploy, boolean syncTenants,
        ConfigurationSource source, Map<String, Object> values) {

    /** The ConfigAdmin PID of these settings. */
    public static final String PID = ClusterConfiguration.PID;
    /** The shortest secret accepted. */
    public static final int SECRET_MIN_LENGTH = 16;

    static final String MEMBERS = "members";
    static final String BIND_ADDRESS = "bindAddress";
    static final String PUBLIC_ADDRESS = "publicAddress";
    static final String CLIENT_ADDRESS = "clientAddress";
    static final String SECRET = "secret";
    static final String SECRET_FILE = "secretFile";
    /** Stands for a value never shown. */
    static final String MASK = "***";

    private static final String OCTET = "(25[0-5]|2[0-4]\\d|1?\\d?\\d)";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    private static final ConfigurationCheck<ClusterConfiguration> CHECK =
            ConfigurationCheck.of(ClusterConfiguration.class);

    public ClusterSettings {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(publicAddress, "publicAddress");
        Objects.requireNonNull(clientAddress, "clientAddress");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(handoverTimeout, "handoverTimeout");
        Objects.requireNonNull(source, "source");
        members = List.copyOf(members);
        values = Map.copyOf(values);
    }

    /**
     * The settings described by {@code properties} (absent keys take their default).
     *
     * @param home     the installation ({@code troupe.home}) that a relative {@code secretFile} is resolved
     *                 against; null: the working directory
     * @param warnings receives what is accepted but unwise (a secret file others may read, unknown keys)
     * @throws InvalidClusterConfigurationException naming every bad key
     */
    public static ClusterSettings parse(Map<String, ?> properties, Path home, Consumer<String> warnings)
            throws InvalidClusterConfigurationException {
        ConfigurationSource source = ConfigurationSource.of(PID, properties);
        CheckedConfiguration<ClusterConfiguration> checked = CHECK.check(properties, Map.of(), source,
                ConfigurationCheck.Fallback.NONE);
        List<ConfigurationProblem> problems = new ArrayList<>(checked.problems());
        for (String key : checked.unknown()) {
            warnings.accept(source + ": unknown key '" + key + "' ignored");
        }
        ClusterConfiguration config = checked.typed();
        Problems found = new Problems(source, problems);
        int port = config.port();
        List<MemberAddress> members = found.members(config.members(), port);
        String bindAddress = found.bindAddress(config.bindAddress().strip());
        Optional<MemberAddress> publicAddress = found.publicAddress(config.publicAddress(), port);
        String clientAddress = found.clientAddress(config.clientAddress());
        String secret = found.secret(config.secret(), config.secretFile(), home, warnings);
        if (!problems.isEmpty()) {
            throw new InvalidClusterConfigurationException(problems);
        }
        return new ClusterSettings(config.clusterName(), members, port, bindAddress, publicAddress, clientAddress,
                secret, config.backupCount(), config.minimumMembers(),
                Duration.ofSeconds(config.handoverTimeoutSeconds()), config.syncDeploy(), config.syncTenants(),
                source, checked.values());
    }

    /**
     * The keys whose effective value (absent: the default) differs between these settings and
     * {@code properties}, or that {@code properties} gives a bad value, sorted.
     */
    public Set<String> changedKeys(Map<String, ?> properties) {
        CheckedConfiguration<ClusterConfiguration> checked = CHECK.check(properties, Map.of(),
                ConfigurationSource.of(PID, properties), ConfigurationCheck.Fallback.NONE);
        ClusterConfiguration before = TypedConfiguration.view(ClusterConfiguration.class, values);
        ClusterConfiguration after = checked.typed();
        Set<String> changed = new TreeSet<>();
        checked.problems().forEach(problem -> changed.add(problem.key()));
        for (Method method : ClusterConfiguration.class.getDeclaredMethods()) {
            if (method.getParameterCount() == 0 && !Objects.deepEquals(invoke(method, before), invoke(method, after))) {
                changed.add(TypedConfiguration.key(method.getName()));
            }
        }
        return changed;
    }

    private static Object invoke(Method method, ClusterConfiguration config) {
        try {
            return method.invoke(config);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + method.getName() + " of the cluster configuration", e);
        }
    }

    /** What {@link io.troupe.cluster.engine.ClusterNode} starts its member with. */
    public NodeOptions nodeOptions(ClassLoader classLoader, Map<String, String> engineProperties) {
        return new NodeOptions(clusterName, secret, members, port, bindAddress, publicAddress, backupCount,
                classLoader, engineProperties);
    }

    /**
     * Where clients are sent for this node: {@link #clientAddress} when configured, else
     * {@code serverAddress} (the server's bound {@code host:port}) with its host replaced by
     * {@link #publicAddress}'s host, or 127.0.0.1, when the server listens on every interface.
     */
    public String clientAddressFor(String serverAddress) {
        if (!clientAddress.isEmpty()) {
            return clientAddress;
        }
        MemberAddress server;
        try {
            server = MemberAddress.parse(serverAddress, 0);
        } catch (IllegalArgumentException e) {
            return serverAddress;
        }
        String host = server.host();
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0")) {
            host = publicAddress.map(MemberAddress::host).orElse("127.0.0.1");
        }
        return new MemberAddress(host, server.port()).toString();
    }

    /** The settings without the secret. */
    @Override
    public String toString() {
        return "ClusterSettings[clusterName=" + clusterName + ", members=" + members + ", port=" + port
                + ", bindAddress=" + bindAddress + ", publicAddress=" + publicAddress.map(Object::toString).orElse("")
                + ", clientAddress=" + clientAddress + ", secret=" + MASK + ", backupCount=" + backupCount
                + ", minimumMembers=" + minimumMembers + ", handoverTimeout=" + handoverTimeout
                + ", syncDeploy=" + syncDeploy + ", syncTenants=" + syncTenants + ", source=" + source + "]";
    }

    /** The rules beyond the metatype; each bad value adds a problem. */
    private record Problems(ConfigurationSource source, List<ConfigurationProblem> list) {

        void add(String key, String shown, String reason) {
            list.add(new ConfigurationProblem(source, key, shown, reason, null));
        }

        List<MemberAddress> members(String text, int port) {
            List<MemberAddress> members = new ArrayList<>();
            if (text.isBlank()) {
                return members;
            }
            for (String entry : text.split(",")) {
                try {
                    MemberAddress member = MemberAddress.parse(entry, port);
                    if (!members.contains(member)) {
                        members.add(member);
                    }
                } catch (IllegalArgumentException e) {
                    add(MEMBERS, text, "entry '" + entry.strip() + "': " + e.getMessage());
                }
            }
            return members;
        }

        String bindAddress(String text) {
            if (!IPV4.matcher(text).matches() && !IPV6.matcher(text).matches()) {
                add(BIND_ADDRESS, text, "not an IP address (an interface's address, or 0.0.0.0 for every one)");
            }
            return text;
        }

        Optional<MemberAddress> publicAddress(String text, int port) {
            if (text.isBlank()) {
                return Optional.empty();
            }
            try {
                return Optional.of(MemberAddress.parse(text, port));
            } catch (IllegalArgumentException e) {
                add(PUBLIC_ADDRESS, text, e.getMessage());
                return Optional.empty();
            }
        }

        String clientAddress(String text) {
            if (text.isBlank()) {
                return "";
            }
            try {
                MemberAddress address = MemberAddress.parse(text, 0);
                return address.toString();
            } catch (IllegalArgumentException e) {
                add(CLIENT_ADDRESS, text, e.getMessage().contains("port 0 ") ? "needs a port (host:port)"
                        : e.getMessage());
                return "";
            }
        }

        String secret(String secret, String secretFile, Path home, Consumer<String> warnings) {
            boolean inline = !secret.isEmpty();
            boolean file = !secretFile.isBlank();
            if (inline && file) {
                add(SECRET, MASK, "give secret or secretFile, not both");
                return "";
            }
            if (!inline && !file) {
                add(SECRET, null, "required: give secret (at least " + SECRET_MIN_LENGTH
                        + " characters) or secretFile (a file whose first line is the secret)");
                return "";
            }
            if (inline) {
                if (secret.length() < SECRET_MIN_LENGTH) {
                    add(SECRET, MASK, "shorter than " + SECRET_MIN_LENGTH + " characters");
                }
                return secret;
            }
            return secretFromFile(secretFile.strip(), home, warnings);
        }

        private String secretFromFile(String name, Path home, Consumer<String> warnings) {
            Path path;
            try {
                Path given = Path.of(name);
                path = given.isAbsolute() || home == null ? given.toAbsolutePath() : home.resolve(given);
            } catch (InvalidPathException e) {
                add(SECRET_FILE, name, "not a path: " + e.getReason());
                return "";
            }
            String line;
            try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                line = reader.readLine();
            } catch (IOException e) {
                add(SECRET_FILE, name, "cannot read " + path + " (" + e.getClass().getSimpleName() + ": "
                        + e.getMessage() + ")");
                return "";
            }
            String secret = line == null ? "" : line.strip();
            if (secret.length() < SECRET_MIN_LENGTH) {
                add(SECRET_FILE, name, "the first line of " + path + " is shorter than " + SECRET_MIN_LENGTH
                        + " characters");
                return "";
            }
            warnIfOthersMayRead(path, warnings);
            return secret;
        }

        private void warnIfOthersMayRead(Path path, Consumer<String> warnings) {
            PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
            if (view == null) {
                return;
            }
            Set<PosixFilePermission> permissions;
            try {
                permissions = view.readAttributes().permissions();
            } catch (IOException e) {
                return;
            }
            if (permissions.contains(PosixFilePermission.GROUP_READ)
                    || permissions.contains(PosixFilePermission.OTHERS_READ)) {
                warnings.accept(source + ": secretFile " + path + " may be read by its group or others ("
                        + PosixFilePermissions.toString(permissions) + "): make it readable by its owner only "
                        + "(chmod 600)");
            }
        }
    }
}
