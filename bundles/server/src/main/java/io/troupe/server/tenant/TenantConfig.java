package io.troupe.server.tenant;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.troupe.server.config.ConfigInteger;

/**
 * One tenant's validated configuration: a factory configuration of {@value #FACTORY_PID}, usually
 * made by FileInstall from {@code etc/io.troupe.tenant-<id>.cfg}.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>meaning</th><th>default</th></tr>
 * <tr><td>{@code token}</td><td>the secret clients send in HELLO; required, not blank (surrounding
 *     whitespace is ignored)</td><td>none</td></tr>
 * <tr><td>{@code maxConnections}</td><td>open sessions at once, 0 or more</td><td>1000</td></tr>
 * <tr><td>{@code maxRequestsPerSecond}</td><td>REQUEST and SEND frames per second over all the
 *     tenant's connections, 0 = unlimited, at most 1 000 000</td><td>0</td></tr>
 * <tr><td>{@code tenant}</td><td>the tenant id, for configurations made without a file</td><td>see
 *     below</td></tr>
 * </table>
 *
 * <p>The tenant id is, in this order: the {@code tenant} property; the alias in the file name that
 * FileInstall records in {@value #FILE_PROPERTY} ({@code io.troupe.tenant-<id>.cfg}); the name of a
 * named factory configuration ({@code io.troupe.tenant~<id>}). When both the property and the file
 * name give one, they must agree. Ids match {@code [A-Za-z0-9._-]{1,64}}.
 *
 * <p>Only a SHA-256 digest of the token is kept, so that tokens of different lengths compare in the
 * same time.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class TenantConfig {

    /** The factory PID of tenant configurations. */
    public static final String FACTORY_PID = "io.troupe.tenant";
    /** Where FileInstall records the file a configuration came from (a {@code file:} URL). */
    public static final String FILE_PROPERTY = "felix.fileinstall.filename";
    /** The file name of tenant {@code <id>}: this prefix, the id, {@code .cfg}. */
    public static final String FILE_PREFIX = FACTORY_PID + "-";

    static final String TENANT = "tenant";
    static final String TOKEN = "token";
    static final String MAX_CONNECTIONS = "maxConnections";
    static final String MAX_REQUESTS_PER_SECOND = "maxRequestsPerSecond";
    static final int DEFAULT_MAX_CONNECTIONS = 1000;

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern FILE_NAME = Pattern.compile(Pattern.quote(FILE_PREFIX) + "(.*)\\.(cfg|config)");
    private static final String NAMED_PID_PREFIX = FACTORY_PID + "~";

    private final String id;
    private final String pid;
    private final String source;
    private final String fileName;
    private final byte[] tokenDigest;
    private final int maxConnections;
    private final int maxRequestsPerSecond;

    private TenantConfig(String id, String pid, String source, String fileName, byte[] tokenDigest,
            int maxConnections, int maxRequestsPerSecond) {
        this.id = id;
        this.pid = pid;
        this.source = source;
        this.fileName = fileName;
        this.tokenDigest = tokenDigest;
        this.maxConnections = maxConnections;
        this.maxRequestsPerSecond = maxRequestsPerSecond;
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
        Object file = properties.get(FILE_PROPERTY);
        String fileName = fileNameOf(file);
        String source = fileName != null ? "file " + pathOf(file) : "configuration " + pid;
        List<String> problems = new ArrayList<>();
        String id = tenantId(pid, properties.get(TENANT), fileName, problems);
        byte[] digest = token(properties.get(TOKEN), problems);
        int maxConnections = count(properties, MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS, Integer.MAX_VALUE, problems);
        int maxRequests = count(properties, MAX_REQUESTS_PER_SECOND, 0, RateLimiter.MAX_RATE, problems);
        if (!problems.isEmpty()) {
            throw new TenantConfigException(source, String.join("; ", problems));
        }
        return new TenantConfig(id, pid, source, fileName, digest, maxConnections, maxRequests);
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

    /** SHA-256 of {@code token}: what is stored and compared. */
    public static byte[] digest(byte[] token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
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

    public int maxConnections() {
        return maxConnections;
    }

    /** 0 means unlimited. */
    public int maxRequestsPerSecond() {
        return maxRequestsPerSecond;
    }

    /** A copy that came from the configuration {@code pid} (a bootstrap tenant taken over by ConfigAdmin). */
    TenantConfig withPid(String newPid) {
        return new TenantConfig(id, newPid, source, fileName, tokenDigest, maxConnections, maxRequestsPerSecond);
    }

    /** Whether {@code token} is this tenant's token; takes the same time whatever it is given. */
    boolean matches(byte[] candidateDigest) {
        return MessageDigest.isEqual(tokenDigest, candidateDigest);
    }

    /** Whether both configure the same token and limits (where they came from aside). */
    boolean sameSettingsAs(TenantConfig other) {
        return MessageDigest.isEqual(tokenDigest, other.tokenDigest) && maxConnections == other.maxConnections
                && maxRequestsPerSecond == other.maxRequestsPerSecond;
    }

    /** The limits, for log lines (never the token). */
    String describeLimits() {
        return "maxConnections=" + maxConnections + ", maxRequestsPerSecond="
                + (maxRequestsPerSecond == 0 ? "unlimited" : Integer.toString(maxRequestsPerSecond));
    }

    @Override
    public String toString() {
        return "TenantConfig[" + id + " from " + source + ", " + describeLimits() + "]";
    }

    /** The last path segment of a {@value #FILE_PROPERTY} value, or {@code null}. */
    static String fileNameOf(Object property) {
        String path = pathOf(property);
        if (path == null) {
            return null;
        }
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return path.substring(slash + 1);
    }

    /** The path in a {@value #FILE_PROPERTY} value (a {@code file:} URL, or a plain path), or {@code null}. */
    private static String pathOf(Object property) {
        if (!(property instanceof String url) || url.isBlank()) {
            return null;
        }
        try {
            String path = URI.create(url.trim()).getPath();
            if (path != null) {
                return path;
            }
        } catch (IllegalArgumentException e) {
            // not a URL: a path as it is
        }
        return url.trim();
    }

    private static String tenantId(String pid, Object explicit, String fileName, List<String> problems) {
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
            if (!(explicit instanceof String text)) {
                problems.add(TENANT + " is not a string");
                return null;
            }
            id = text.trim();
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

    private static byte[] token(Object property, List<String> problems) {
        if (property == null) {
            problems.add(TOKEN + " is missing");
            return null;
        }
        if (!(property instanceof String text)) {
            problems.add(TOKEN + " is not a string");
            return null;
        }
        String token = text.trim();
        if (token.isEmpty()) {
            problems.add(TOKEN + " is blank");
            return null;
        }
        return digest(token.getBytes(UTF_8));
    }

    private static int count(Map<String, ?> properties, String key, int defaultValue, int max, List<String> problems) {
        Object raw = properties.get(key);
        if (raw == null) {
            return defaultValue;
        }
        OptionalLong parsed = ConfigInteger.parse(raw);
        if (parsed.isEmpty()) {
            problems.add(key + "=" + raw + " is not an integer");
            return defaultValue;
        }
        long value = parsed.getAsLong();
        if (value < 0) {
            problems.add(key + "=" + raw + " is negative");
        } else if (value > max) {
            problems.add(key + "=" + raw + " is above " + max);
        }
        return (int) Math.max(0, Math.min(value, max));
    }
}
