package io.troupe.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;

import org.osgi.framework.Constants;

/**
 * The framework properties: {@code etc/config.properties} (UTF-8, {@link Properties} syntax) with
 * {@code ${name}} references replaced, plus the properties the launcher owns. A reference names
 * another property of the file, {@code troupe.home}, or a Java system property; {@code $$} is a
 * literal {@code $}.
 *
 * <p>The launcher always sets {@value Constants#FRAMEWORK_STORAGE} (to {@code data/cache}),
 * {@value InstallLayout#HOME_PROPERTY}, {@value InstallLayout#DEPLOY_DIR_PROPERTY} (to the absolute path
 * of {@code deploy/}), {@value ConsoleMode#PROPERTY} and {@value #HTTP_REQUIRE_CONFIG} = {@code true}; it defaults
 * {@value Constants#FRAMEWORK_BEGINNING_STARTLEVEL} to {@value #BEGINNING_START_LEVEL} and requires it
 * to reach every start level it uses.
 *
 * <p><b>Threading:</b> immutable once loaded; any thread.
 */
final class FrameworkConfig {

    /** The beginning start level when the file sets none. */
    static final int BEGINNING_START_LEVEL = 100;
    /** The framework property telling the bundles that this node belongs to a cluster. */
    static final String CLUSTER_PROPERTY = "troupe.cluster";
    /** The cluster's configuration file, in etc/. */
    static final String CLUSTER_FILE = "io.troupe.cluster.cfg";

    /**
     * Felix HTTP Jetty's switch that keeps Jetty from starting until ConfigAdmin hands it a configuration of
     * PID {@code org.apache.felix.http}. Without it, Jetty would listen on its defaults (port 8080, every
     * interface) from the moment its bundle starts. With it, nothing listens until the ops bundle has read
     * {@code etc/io.troupe.http.cfg}, checked it (loopback, or allowPlaintext) and written that PID; when the
     * ops bundle deletes the PID (endpoint disabled or refused, or the bundle stops), Jetty stops listening.
     * Set by the launcher whatever etc/config.properties says, like the other properties it owns.
     */
    static final String HTTP_REQUIRE_CONFIG = "org.apache.felix.http.require.config";

    private static final int MAX_NESTING = 16;

    private final Map<String, String> properties;

    private FrameworkConfig(Map<String, String> properties) {
        this.properties = Collections.unmodifiableMap(properties);
    }

    /** Reads the configuration of {@code layout} for a framework started in {@code mode}. */
    static FrameworkConfig load(InstallLayout layout, ConsoleMode mode, UnaryOperator<String> systemProperties)
            throws LauncherException {
        Map<String, String> raw = read(layout.configFile(), layout);
        Map<String, String> resolved = new LinkedHashMap<>();
        String home = layout.home().toString();
        UnaryOperator<String> lookup = name -> {
            if (name.equals(InstallLayout.HOME_PROPERTY)) {
                return home;
            }
            return raw.containsKey(name) ? raw.get(name) : systemProperties.apply(name);
        };
        for (Map.Entry<String, String> entry : raw.entrySet()) {
            resolved.put(entry.getKey(), substitute(entry.getKey(), entry.getValue(), lookup, layout, 0));
        }
        resolved.put(Constants.FRAMEWORK_STORAGE, layout.cache().toString());
        resolved.put(InstallLayout.HOME_PROPERTY, home);
        resolved.put(InstallLayout.DEPLOY_DIR_PROPERTY, layout.deploy().toString());
        resolved.put(ConsoleMode.PROPERTY, mode.value());
        resolved.put(HTTP_REQUIRE_CONFIG, "true");
        // The cluster is decided at start: with etc/io.troupe.cluster.cfg, the server welcomes a client only
        // once the cluster has placed its tenant here.
        resolved.put(CLUSTER_PROPERTY, Boolean.toString(Files.isRegularFile(layout.etc().resolve(CLUSTER_FILE))));
        resolved.putIfAbsent(Constants.FRAMEWORK_BEGINNING_STARTLEVEL, Integer.toString(BEGINNING_START_LEVEL));
        return new FrameworkConfig(resolved);
    }

    /** Whether this node is to join a cluster (etc/io.troupe.cluster.cfg exists). */
    boolean clustered() {
        return Boolean.parseBoolean(properties.get(CLUSTER_PROPERTY));
    }

    /** All framework properties. */
    Map<String, String> properties() {
        return properties;
    }

    /** The start level the framework reaches when it starts. */
    int beginningStartLevel() throws LauncherException {
        String value = properties.get(Constants.FRAMEWORK_BEGINNING_STARTLEVEL);
        try {
            int level = Integer.parseInt(value.strip());
            if (level >= 1) {
                return level;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new LauncherException(Constants.FRAMEWORK_BEGINNING_STARTLEVEL + " in etc/config.properties must be"
                + " a positive whole number, was '" + value + "'");
    }

    /** Fails unless the beginning start level reaches {@code highest}. */
    void requireBeginningStartLevelAtLeast(int highest) throws LauncherException {
        int beginning = beginningStartLevel();
        if (beginning < highest) {
            throw new LauncherException(Constants.FRAMEWORK_BEGINNING_STARTLEVEL + "=" + beginning
                    + " in etc/config.properties is too low: Troupe starts bundles up to level " + highest);
        }
    }

    private static Map<String, String> read(Path file, InstallLayout layout) throws LauncherException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new LauncherException("missing configuration file " + file + ": the installation is incomplete");
        } catch (CharacterCodingException e) {
            throw new LauncherException("cannot read " + file + ": it is not valid UTF-8");
        } catch (IOException e) {
            throw new LauncherException("cannot read " + file + ": " + LauncherException.describe(e), e);
        } catch (IllegalArgumentException e) {
            throw new LauncherException("malformed " + layout.display(file) + ": " + e.getMessage());
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name).strip());
        }
        return map;
    }

    private static String substitute(String key, String value, UnaryOperator<String> lookup,
                                     InstallLayout layout, int depth) throws LauncherException {
        if (depth > MAX_NESTING) {
            throw new LauncherException("property " + key + " in " + layout.display(layout.configFile())
                    + " refers to itself through ${...}");
        }
        StringBuilder result = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c == '$' && value.startsWith("$$", i)) {
                result.append('$');
                i += 2;
            } else if (c == '$' && value.startsWith("${", i)) {
                int end = value.indexOf('}', i + 2);
                if (end < 0) {
                    throw new LauncherException("property " + key + " in " + layout.display(layout.configFile())
                            + " has an unclosed ${ in '" + value + "'");
                }
                String name = value.substring(i + 2, end);
                String replacement = lookup.apply(name);
                if (replacement == null) {
                    throw new LauncherException("property " + key + " in " + layout.display(layout.configFile())
                            + " refers to ${" + name + "}, which is not defined");
                }
                result.append(substitute(key, replacement, lookup, layout, depth + 1));
                i = end + 1;
            } else {
                result.append(c);
                i++;
            }
        }
        return result.toString();
    }
}
