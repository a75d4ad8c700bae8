package io.troupe.client.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.DeployStatus;

/**
 * {@code deploy JAR}: copies the jar into the deploy folder ({@link DeployFolder#put}: under its own
 * file name, through a hidden part file and an atomic rename), waits for the host's outcome and
 * prints it.
 *
 * <pre>
 *   running      stdout  deployed kv 6.0.0 as deploy/kv.jar: running                  exit 0
 *   refused      stderr  ERROR deploy.rejected: &lt;reason&gt;                               exit 4
 *                        running: kv 5.0.0        (or: running: nothing)
 *   not copied   stderr  ERROR &lt;code&gt;: &lt;detail&gt;  (not.a.bundle, plugin.exists, ...)   exit 4
 *   no outcome   stderr  ERROR deploy.timeout: the host reported no outcome ...         exit 5
 * </pre>
 *
 * A missing deploy folder exits 64 (configuration), an unreadable status or a failed copy 1.
 *
 * <p><b>Threading:</b> one run per instance, on the caller's thread, which it blocks while waiting.
 */
final class DeployCommand {

    private final DeployFolder folder;
    private final Duration timeout;
    private final PrintStream out;
    private final PrintStream err;

    DeployCommand(DeployFolder folder, Duration timeout, PrintStream out, PrintStream err) {
        this.folder = folder;
        this.timeout = timeout;
        this.out = out;
        this.err = err;
    }

    /** @return the exit status */
    int run(Path jar) throws InterruptedException {
        DeployFolder.Deployed done;
        DeployStatus status;
        try {
            done = folder.put(jar);
            status = folder.awaitOutcome(done.target(), done.sha256(), done.since(), timeout);
        } catch (DeployException e) {
            return failed(e);
        }
        if (status.outcome() == DeployStatus.Outcome.RUNNING) {
            out.println("deployed " + done.jar() + " as " + folder.shown(done.target()) + ": running");
            out.flush();
            return Main.EXIT_OK;
        }
        err.println(errorLine(DeployException.DEPLOY_REJECTED, status.reason().orElse("no reason given")));
        err.println("running: " + status.running());
        err.flush();
        return Main.EXIT_DEPLOY_REFUSED;
    }

    private int failed(DeployException e) {
        err.println(errorLine(e.code(), e.detail()));
        err.flush();
        return switch (e.code()) {
            case DeployException.DEPLOY_TIMEOUT -> Main.EXIT_NO_OUTCOME;
            case DeployException.DEPLOY_UNAVAILABLE -> Main.EXIT_USAGE;
            case DeployException.IO_ERROR, DeployException.BAD_STATUS -> Main.EXIT_FAILURE;
            default -> Main.EXIT_DEPLOY_REFUSED;
        };
    }

    /** {@code ERROR <code>: <detail>}, as the shell prints a refusal too. */
    private static String errorLine(String code, String detail) {
        return "ERROR " + code + ": " + detail;
    }
}
