package io.troupe.host.deploy;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * How long the deployer waits for a plugin's own code: framework properties (etc/config.properties), read
 * once when the host starts, checked by the typed model (a bad value is reported with the key and the
 * reason, and the default applies).
 *
 * <ul>
 * <li>{@code troupe.deploy.startTimeoutSeconds}: a plugin's start (its activator, its Declarative Services
 *     components activated on the starting thread) that has not returned after this long is reported once,
 *     with its stack, and left to finish in its own thread; the deployer, the server's start and Troupe's
 *     stop do not wait for it any longer. The launcher reads the same key: it opens the server's port at
 *     the latest this long (plus a margin) after the plugins of deploy/ began to start.</li>
 * <li>{@code troupe.deploy.stopTimeoutSeconds}: a plugin's stop, uninstall or update that has not returned
 *     after this long is interrupted, then stopped ({@link BundleAction#release}); with the release's own
 *     waits, an uninstall ends within this plus 2 s.</li>
 * </ul>
 * {@link DeployTimeouts} reads them.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe deploy: plugin timeouts",
        description = "Framework properties read once when the host starts; a change needs a restart.")
public @interface DeploySettings {

    /** The framework property the launcher reads too. */
    String START_TIMEOUT_KEY = "troupe.deploy.startTimeoutSeconds";

    @AttributeDefinition(name = "Plugin start timeout", min = "1", max = "3600",
            description = "Seconds a plugin's start may take before it is reported and no longer waited for.")
    int troupe_deploy_startTimeoutSeconds() default 10;

    @AttributeDefinition(name = "Plugin stop timeout", min = "1", max = "3600",
            description = "Seconds a plugin's stop, update or uninstall may take before its thread is interrupted,"
                    + " then stopped.")
    int troupe_deploy_stopTimeoutSeconds() default 2;
}
