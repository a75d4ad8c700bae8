package io.troupe.launcher;

import java.io.PrintStream;
import java.lang.ref.Reference;
import java.nio.file.Path;

/**
 * The launcher's entry point, started by {@code bin/troupe}:
 * {@code java -Dtroupe.home=<dir> -Dtroupe.console=tty|script -jar lib/troupe-launcher.jar}.
 * It takes no arguments. See the {@linkplain io.troupe.launcher package documentation} for the
 * sequence and the exit statuses.
 *
 * <p><b>Threading:</b> runs on the JVM's main thread, which it ends with {@link System#exit}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        FatalErrorExit.install(System.err); // first: a fatal error on any thread ends the process (status 70)
        PrintStream out = System.out;
        LauncherLog log = new LauncherLog(System.err);
        System.exit(run(args, log, out));
    }

    static int run(String[] args, LauncherLog log, PrintStream out) {
        try {
            if (args.length > 0) {
                throw new LauncherException("unexpected arguments: " + String.join(" ", args)
                        + "\nusage: troupe   (configuration: etc/config.properties)", LauncherException.USAGE);
            }
            Path home = InstallLayout.locateHome(System.getProperty(InstallLayout.HOME_PROPERTY));
            InstallLayout layout = InstallLayout.open(home);
            InstanceLock lock = InstanceLock.acquire(layout);
            try {
                // the host's logger finds log/ through this system property
                System.setProperty(InstallLayout.HOME_PROPERTY, layout.home().toString());
                ConsoleMode mode = ConsoleMode.of(System.getProperty(ConsoleMode.PROPERTY), System.console() != null);
                FrameworkConfig config = FrameworkConfig.load(layout, mode, System::getProperty);
                return new Launcher(layout, mode, config, log, out).run();
            } finally {
                // an unreachable channel may be cleaned, which would release the lock while Troupe runs
                Reference.reachabilityFence(lock);
            }
        } catch (LauncherException e) {
            log.error(e.getMessage());
            return e.exitStatus();
        } catch (LinkageError e) {
            log.error("cannot load the OSGi framework classes (" + LauncherException.describe(e)
                    + "): is lib/ complete?");
            return LauncherException.STARTUP_FAILED;
        }
    }
}
