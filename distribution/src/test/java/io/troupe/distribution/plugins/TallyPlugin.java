package io.troupe.distribution.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Builds the bundle of the tally test plugin ({@link TallyActivator} and {@link TallyActor}: a tally per tenant
 * that is not durable, slow to add) and drops it into a deploy folder: written beside, then renamed into place.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class TallyPlugin {

    /** The message that adds to the tally. */
    public static final String ADD = TallyActor.ADD;
    /** The message that adds to the tally without an answer, for one-way SENDs. */
    public static final String BUMP = TallyActor.BUMP;
    /** The message that answers the tally. */
    public static final String GET = TallyActor.GET;
    /** How long one add takes, in milliseconds of CPU. */
    public static final long ADD_MILLIS = TallyActor.ADD_MILLIS;

    private static final String ACTIVATOR = "io.troupe.distribution.plugins.TallyActivator";
    private static final String ACTOR = "io.troupe.distribution.plugins.TallyActor";

    private TallyPlugin() {
    }

    /** Writes the bundle as {@code deploy/file}. */
    public static Path deployTo(Path deploy, String file) throws IOException {
        return ActivatorBundle.deployTo(deploy, file, ActivatorBundle.jar(ACTIVATOR, List.of(ACTOR),
                "test.tally", "1.0.0", Map.of("Import-Package",
                        "org.osgi.framework,io.troupe.api;version=\"[1.0,2)\"")));
    }
}
