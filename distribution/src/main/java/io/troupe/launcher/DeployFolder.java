package io.troupe.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.startlevel.BundleStartLevel;

/**
 * Installs and starts the plugin jars of {@code deploy/} once, at startup, in file name order, at
 * start level {@value #START_LEVEL}. A jar that cannot be read, installed or started is reported
 * with its file name and the reason, and the others are deployed all the same; a jar that installed
 * but did not start stays installed, so that the shell can show it.
 *
 * <p>Watching the folder for changes (hot deployment) is not done here; this class is the piece to
 * replace when it is.
 *
 * <p><b>Threading:</b> {@link #deployAll} must be called by the thread that owns the framework's
 * lifecycle, once the framework has started.
 */
final class DeployFolder {

    /** The start level of plugins. */
    static final int START_LEVEL = 80;

    private final InstallLayout layout;
    private final LauncherLog log;

    DeployFolder(InstallLayout layout, LauncherLog log) {
        this.layout = layout;
        this.log = log;
    }

    /** What {@link #deployAll} did: the bundles started and the jars that failed. Immutable. */
    record Outcome(List<Bundle> started, List<Path> failed) {
    }

    /** Installs and starts every plugin jar; never throws for a bad jar. */
    Outcome deployAll(BundleContext context) {
        List<Bundle> started = new ArrayList<>();
        List<Path> failed = new ArrayList<>();
        List<Path> jars;
        try {
            jars = SystemBundles.jars(layout.deploy());
        } catch (LauncherException e) {
            log.error("no plugins deployed: " + e.getMessage());
            return new Outcome(List.of(), List.of());
        }
        for (Path path : jars) {
            try {
                started.add(deploy(context, path));
            } catch (LauncherException e) {
                failed.add(path);
                log.error("plugin " + layout.display(path) + " was not started: " + e.getMessage());
            }
        }
        return new Outcome(List.copyOf(started), List.copyOf(failed));
    }

    private static Bundle deploy(BundleContext context, Path path) throws LauncherException {
        BundleJar jar = BundleJar.read(path);
        Bundle bundle;
        try {
            bundle = jar.installOrUpdate(context);
        } catch (BundleException | IOException e) {
            throw new LauncherException("cannot install it: " + LauncherException.describe(e), e);
        }
        try {
            BundleStartLevel startLevel = bundle.adapt(BundleStartLevel.class);
            if (startLevel.getStartLevel() != START_LEVEL) {
                startLevel.setStartLevel(START_LEVEL);
            }
            if (!jar.fragment()) {
                bundle.start();
            }
        } catch (BundleException | IllegalStateException e) {
            forgetStart(bundle);
            throw new LauncherException("installed as " + jar.symbolicName() + " " + jar.version()
                    + " but not started: " + LauncherException.describe(e), e);
        }
        return bundle;
    }

    /**
     * A failed {@code start()} still marks the bundle to be started; clear the mark so the framework
     * does not retry (and report the same failure again) behind the launcher's back.
     */
    private static void forgetStart(Bundle bundle) {
        try {
            bundle.stop();
        } catch (BundleException | IllegalStateException e) {
            // nothing more to undo: the failure itself is what gets reported
        }
    }
}
