package io.troupe.server.tenant;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.security.auth.x500.X500Principal;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;
import io.troupe.server.credential.TenantFile;
import io.troupe.server.credential.TenantToken;
import io.troupe.server.credential.TokenHash;

/**
 * One tenant's validated configuration: a factory configuration of {@value #FACTORY_PID}, usually
 * made by FileInstall from {@code etc/io.troupe.tenant-<id>.cfg}.
 *
 * <p>The keys, their types, defaults and bounds are those of {@link TenantConfiguration}: the credentials
 * {@code tokenHash} (a {@link TokenHash}), {@code token} (plaintext, at least {@value TenantToken#MIN_LENGTH}
 * characters: hashed here, and {@link #hadPlaintextToken() marked} for the directory to migrate) and
 * {@code certificateSubject} (an X.500 name, kept in canonical form), at least one of them;
 * {@code maxConnections} (1000), {@code maxRequestsPerSecond} (0 = unlimited,
 * at most 1 000 000), {@code maxBytesPerSecond} (0 = unlimited), {@code maxFrameBytes} (0 = the
 * server's, else at least 1024), {@code weight} (1), {@code maxActors} and {@code maxQueuedMessages}
 * (0 = unlimited), {@code maxPendingOutputBytes} (64 MiB, 0 = unlimited), {@code handlers}
 * (comma-separated names, empty = all) and {@code tenant}; the
 * limits are kept as {@link TenantLimits}. A configuration with any bad value is refused whole, with
 * every problem named; the tenant keeps the configuration it had.
 *
 * <p>The tenant id is, in this order: the {@code tenant} property; the alias in the file name that
 * FileInstall records in {@value #FILE_PROPERTY} ({@code io.troupe.tenant-<id>.cfg}); the name of a
 * named factory configuration ({@code io.troupe.tenant~<id>}). When both the property and the file
 * name give one, they must agree. Ids match {@code [A-Za-z0-9._-]{1,64}}.
 *
 * <p>Only the token's {@link TokenHash} is kept; a plaintext token costs one PBKDF2 hash here (on the
 * configuration thread), and a configuration with another bad value is refused before that cost.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class TenantConfig {

    /** The factory PID of tenant configurations. */
    public static final String FACTORY_PID = "io.troupe.tenant";
    /** Where FileInstall records the file a configuration came from (a {@code file:} URL). */
    public static final String FILE_PROPERTY = ConfigurationSource.FILE_PROPERTY;
    /** The file name of tenant {@code <id>}: this prefix, the id, {@code .cfg}. */
    public static final String FILE_PREFIX = FACTORY_PID + "-";

    static final String TENANT = "tenant";
    static final String TOKEN = TenantFile.TOKEN;
    static final String TOKEN_HASH = TenantFile.TOKEN_HASH;
    static final String CERTIFICATE_SUBJECT = "certificateSubject";
    static final String MAX_CONNECTIONS = "maxConnections";
    static final String MAX_REQUESTS_PER_SECOND = "maxRequestsPerSecond";
    static final String MAX_FRAME_BYTES = "maxFrameBytes";
    static final String HANDLERS = "handlers";
    static final int DEFAULT_MAX_CONNECTIONS = 1000;

    private static final ConfigurationCheck<TenantConfiguration> CHECK =
            ConfigurationCheck.of(TenantConfiguration.class);

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern FILE_NAME = Pattern.compile(Pattern.quote(FILE_PREFIX) + "(.*)\\.(cfg|config)");
    private static final String NAMED_PID_PREFIX = FACTORY_PID + "~";
    private static final SecureRandom SALTS = new SecureRandom();

    private final String id;
    private final String pid;
    private final String source;
    private final String fileName;
    private final String path;
    private final Credentials credentials;
    private final TenantLimits limits;
    private final List<String> unknownKeys;

    /** What proves a session is the tenant's; {@code tokenHash} or {@code certificateSubject} may be null. */
    private record Credentials(TokenHash tokenHash, String certificateSubject, boolean plaintext) {
    }

    private TenantConfig(String id, String pid, String source, String fileName, String path,
            Credentials credentials, TenantLimits limits, List<String> unknownKeys) {
        this.id = id;
        this.pid = pid;
        this.source = source;
        this.fileName = fileName;
        this.path = path;
        this.credentials = credentials;
        this.limits = limits;
        this.unknownKeys = List.copyOf(unknownKeys);
    }

    /**
     * Validates the properties of the configuration {@code pid}.
     *
     * @param pid        the configuration's PID, or {@code null} for a tenant not (yet) in ConfigAdmin
     * @param properties its properties; values may be strings or numbers
     * @throws TenantConfigException naming the source and every problem found
     */
    public static TenantConfig from(String pid, Map<String, ?> properties) throws TenantConfigException {
        Objects.requireNonNull(properties, "properties");
        ConfigurationSource source = ConfigurationSource.of(pid, properties);
        CheckedConfiguration<TenantConfiguration> checked = CHECK.check(properties, Map.of(), source,
                ConfigurationCheck.Fallback.NONE);
        List<String> problems = new ArrayList<>();
        for (ConfigurationProblem problem : checked.problems()) {
            problems.add(problem.describe());
        }
        boolean tenantChecked = checked.problems().stream().noneMatch(problem -> TENANT.equals(problem.key()));
        String fileName = source.fileName();
        String id = tenantChecked ? tenantId(pid, checked.values().containsKey(TENANT) ? checked.typed().tenant()
                : null, fileName, problems) : null;
        if (!problems.isEmpty()) {
            throw new TenantConfigException(source.toString(), String.join("; ", problems));
        }
        TenantConfiguration config = checked.typed();
        checkFrameLimit(config.maxFrameBytes(), problems);
        Set<String> handlers = handlerNames(config.handlers(), problems);
        String token = config.token().strip();
        TokenHash tokenHash = token.isEmpty() ? parseTokenHash(config.tokenHash(), problems)
                : checkToken(token, problems);
        String subject = certificateSubject(config.certificateSubject(), problems);
        if (problems.isEmpty() && tokenHash == null && subject == null && token.isEmpty()) {
            problems.add("no credential: set " + TOKEN_HASH + " (troupe:tenant-add and troupe:tenant-rotate-token "
                    + "write it), or " + CERTIFICATE_SUBJECT + " for a tenant that proves itself with its TLS "
                    + "client certificate");
        }
        if (!problems.isEmpty()) {
            throw new TenantConfigException(source.toString(), String.join("; ", problems));
        }
        TenantLimits limits = new TenantLimits(config.maxConnections(), config.maxRequestsPerSecond(),
                config.maxBytesPerSecond(), config.maxFrameBytes(), config.weight(), config.maxActors(),
                config.maxQueuedMessages(), handlers, config.maxPendingOutputBytes());
        boolean plaintext = !token.isEmpty();
        if (plaintext) {
            tokenHash = TokenHash.of(token, SALTS); // last: the costly step, once everything else is valid
        }
        return new TenantConfig(id, pid, source.toString(), fileName, source.path(),
                new Credentials(tokenHash, subject, plaintext), limits, checked.unknown());
    }

    /** Checks a plaintext token's length (its hash is made once every other check passed); null. */
    private static TokenHash checkToken(String token, List<String> problems) {
        String problem = TenantToken.problemWith(token);
        if (problem != null) {
            problems.add(TOKEN + ": " + problem);
        }
        return null;
    }

    private static TokenHash parseTokenHash(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return TokenHash.parse(value);
        } catch (IllegalArgumentException e) {
            problems.add(TOKEN_HASH + ": not a token hash: " + e.getMessage());
            return null;
        }
    }

    /** The canonical form of an X.500 name, or null when blank or invalid (a problem then). */
    private static String certificateSubject(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return new X500Principal(value.strip()).getName(X500Principal.CANONICAL);
        } catch (IllegalArgumentException e) {
            problems.add(CERTIFICATE_SUBJECT + " = '" + value.strip() + "': not an X.500 name such as "
                    + "CN=client,O=Example (" + e.getMessage() + ")");
            return null;
        }
    }

    /** 0 (the server's limit) or at least {@value TenantLimits#MIN_FRAME_BYTES}; the bounds are the metatype's. */
    private static void checkFrameLimit(int maxFrameBytes, List<String> problems) {
        if (maxFrameBytes != 0 && maxFrameBytes < TenantLimits.MIN_FRAME_BYTES) {
            problems.add(MAX_FRAME_BYTES + " = '" + maxFrameBytes + "': either 0 (the server's limit) or at least "
                    + TenantLimits.MIN_FRAME_BYTES);
        }
    }

    /**
     * The names of a {@code handlers} value: comma-separated, blanks around each name ignored; an empty
     * value allows every handler. An empty name between commas, or a name with a blank or a control
     * character in it, is a problem.
     */
    static Set<String> handlerNames(String value, List<String> problems) {
        if (value == null || value.isBlank()) {
            return Set.of();
        }
        Set<String> names = new TreeSet<>();
        String[] parts = value.split(",", -1);
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i].strip();
            if (name.isEmpty()) {
                problems.add(HANDLERS + " = '" + value + "': name " + (i + 1) + " is empty (a comma too many?)");
            } else if (name.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                problems.add(HANDLERS + " = '" + value + "': '" + name + "' is not a handler name (it has a blank "
                        + "or a control character; separate names with commas)");
            } else {
                names.add(name);
            }
        }
        return names;
    }

    /** Whether {@code id} is a valid tenant id. */
    public static boolean isValidId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /**
     * The tenant id in a tenant file's name ({@code io.troupe.tenant-<id>.cfg}), whether valid or
     * not; empty for other names.
     */
    public static Optional<String> idOfFile(String fileName) {
        Matcher matcher = FILE_NAME.matcher(fileName);
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    public String id() {
        return id;
    }

    /** The PID of the configuration, or {@code null} when it did not come from ConfigAdmin. */
    public String pid() {
        return pid;
    }

    /** {@code file <path>} or {@code configuration <pid>}: where this came from, for log lines. */
    public String source() {
        return source;
    }

    /** The name of the file this came from, or {@code null}. */
    public String fileName() {
        return fileName;
    }

    /** The path of the file this came from, or {@code null}. */
    public String path() {
        return path;
    }

    /** The hash of the tenant's token, or {@code null} when the tenant proves itself by certificate only. */
    public TokenHash tokenHash() {
        return credentials.tokenHash();
    }

    /**
     * The subject its sessions' TLS client certificate must have, in canonical form
     * ({@link X500Principal#CANONICAL}), or {@code null} when the tenant is not bound to a certificate.
     */
    public String certificateSubject() {
        return credentials.certificateSubject();
    }

    /** Whether the configuration held a plaintext {@code token} (hashed into {@link #tokenHash()}). */
    public boolean hadPlaintextToken() {
        return credentials.plaintext();
    }

    public int maxConnections() {
        return limits.maxConnections();
    }

    /** 0 means unlimited. */
    public int maxRequestsPerSecond() {
        return limits.maxRequestsPerSecond();
    }

    /** Every limit of the tenant. */
    public TenantLimits limits() {
        return limits;
    }

    /** Keys of the configuration that no attribute of {@link TenantConfiguration} defines (typos), sorted. */
    public List<String> unknownKeys() {
        return unknownKeys;
    }

    /** A copy that came from the configuration {@code pid} (a bootstrap tenant taken over by ConfigAdmin). */
    TenantConfig withPid(String newPid) {
        return new TenantConfig(id, newPid, source, fileName, path, credentials, limits, unknownKeys);
    }

    /** Whether both configure the same credentials and limits (where they came from aside). */
    boolean sameSettingsAs(TenantConfig other) {
        return Objects.equals(tokenHash(), other.tokenHash())
                && Objects.equals(certificateSubject(), other.certificateSubject()) && limits.equals(other.limits);
    }

    /** The limits, for log lines (never the token). */
    String describeLimits() {
        return limits.describe();
    }

    @Override
    public String toString() {
        return "TenantConfig[" + id + " from " + source + ", " + describeLimits() + "]";
    }

    /** The last path segment of a {@value #FILE_PROPERTY} value, or {@code null}. */
    static String fileNameOf(Object property) {
        return ConfigurationSource.of(null, property == null ? Map.of() : Map.of(FILE_PROPERTY, property)).fileName();
    }

    private static String tenantId(String pid, String explicit, String fileName, List<String> problems) {
        String fromFile = null;
        if (fileName != null) {
            Optional<String> alias = idOfFile(fileName);
            if (alias.isEmpty()) {
                problems.add("the file name does not have the form " + FILE_PREFIX + "<id>.cfg");
                return null;
            }
            fromFile = alias.get();
        }
        String id;
        if (explicit != null) {
            id = explicit;
            if (fromFile != null && !fromFile.equals(id)) {
                problems.add(TENANT + "=" + id + " contradicts the tenant id '" + fromFile + "' of the file name");
                return null;
            }
        } else if (fromFile != null) {
            id = fromFile;
        } else if (pid != null && pid.startsWith(NAMED_PID_PREFIX)) {
            id = pid.substring(NAMED_PID_PREFIX.length());
        } else {
            problems.add("no tenant id: set " + TENANT + "=<id>, or name the file " + FILE_PREFIX + "<id>.cfg");
            return null;
        }
        if (!isValidId(id)) {
            problems.add("tenant id '" + id + "' is invalid (1 to 64 of A-Z a-z 0-9 . _ -)");
            return null;
        }
        return id;
    }
}
