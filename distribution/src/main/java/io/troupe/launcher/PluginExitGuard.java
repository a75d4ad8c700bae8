package io.troupe.launcher;

import java.security.Permission;
import java.util.Optional;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleReference;

/**
 * Refuses {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} called by a plugin of deploy/, when
 * etc/config.properties sets {@value #PROPERTY}{@code =true}: the JDK's only hook for that is a security manager
 * ({@link SecurityManager#checkExit}), deprecated for removal since JDK 17. This one checks nothing else: every
 * other permission is granted, as without a security manager.
 *
 * <p>A call is refused when the first class on the calling stack that is not the JDK's own (bootstrap classes:
 * {@code System}, {@code Runtime}, {@code Shutdown}) was loaded by a plugin bundle, one installed from deploy/
 * (its code or a library packed into its jar): the caller gets a {@link SecurityException} naming the plugin,
 * and standard error gets a line. A plugin that calls a library installed as a bundle of its own, which then
 * exits, is not recognised. Troupe's own exits (the launcher's, the fatal-error exit) are never refused.
 *
 * <p>Where it works: JDK 17 (the JVM prints its four-line deprecation warning on standard error when the guard
 * is installed); JDK 18 to 23 only with {@code -Djava.security.manager=allow} among the JVM options
 * ({@code JAVA_OPTS}); not from JDK 24 on, where no security manager can be installed. When it cannot be
 * installed, the launcher says so once and Troupe runs without it: a plugin's exit then ends Troupe as SIGTERM
 * would (the shutdown hook stops the framework, bounded), with the plugin's exit status.
 *
 * <p><b>Threading:</b> installed once by the launcher's main thread; {@link #checkExit} runs on whichever thread
 * exits and only reads immutable fields.
 */
@SuppressWarnings("removal")
final class PluginExitGuard extends SecurityManager {

    /** The framework property that turns the guard on. */
    static final String PROPERTY = "troupe.plugins.refuseExit";

    private final String deployLocation;
    private final LauncherLog log;
    private final StackWalker walker;

    private PluginExitGuard(String deployLocation, LauncherLog log) {
        this.deployLocation = deployLocation;
        this.log = log;
        this.walker = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    }

    /**
     * Installs the guard if {@code config} asks for it; says on {@code log} why when it cannot be.
     *
     * @param deployLocation the URI of deploy/, which every plugin bundle's location starts with
     */
    static void installIfAsked(FrameworkConfig config, String deployLocation, LauncherLog log) {
        if (!Boolean.parseBoolean(config.properties().getOrDefault(PROPERTY, "false").strip())) {
            return;
        }
        try {
            System.setSecurityManager(new PluginExitGuard(deployLocation, log));
        } catch (UnsupportedOperationException | SecurityException e) {
            log.warn(PROPERTY + "=true, but this Java (" + Runtime.version() + ") does not allow a security"
                    + " manager (" + e.getMessage() + "): a plugin calling System.exit ends Troupe. JDK 18 to 23 need"
                    + " -Djava.security.manager=allow in JAVA_OPTS; JDK 24 and later cannot refuse it");
        }
    }

    @Override
    public void checkExit(int status) {
        Optional<Bundle> plugin = callingPlugin();
        if (plugin.isPresent()) {
            Bundle bundle = plugin.get();
            String message = "Runtime.exit(" + status + ") called by plugin " + bundle.getSymbolicName() + " "
                    + bundle.getVersion() + " (" + bundle.getLocation() + ") refused: a plugin cannot end Troupe ("
                    + PROPERTY + "=true)";
            log.warn(message);
            throw new SecurityException(message);
        }
    }

    /** The plugin whose class called the exit, if the first non-JDK class on the stack is a plugin's. */
    Optional<Bundle> callingPlugin() {
        return walker.walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(type -> type != PluginExitGuard.class && type.getClassLoader() != null)
                .findFirst()
                .map(Class::getClassLoader)
                .filter(BundleReference.class::isInstance)
                .map(loader -> ((BundleReference) loader).getBundle())
                .filter(bundle -> bundle != null && bundle.getLocation().startsWith(deployLocation)));
    }

    @Override
    public void checkPermission(Permission permission) {
        // everything else is allowed, as without a security manager
    }

    @Override
    public void checkPermission(Permission permission, Object context) {
        // everything else is allowed, as without a security manager
    }
}
