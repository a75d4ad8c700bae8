package io.troupe.distribution.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the bundle of a misbehaving test plugin around {@link MisbehavingActivator} (an
 * {@link ActivatorBundle}, its manifest telling the activator how to misbehave) and drops it into a deploy
 * folder the way an operator's tool would: written beside, then renamed into place.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param symbolicName  the bundle's symbolic name
 * @param version       its version
 * @param misbehaviour  {@code block}, {@code spin}, {@code exit} or {@code none} (see {@link MisbehavingActivator})
 * @param leakedThread  the name of a thread its start leaves running, or {@code null} for none
 */
public record MisbehavingPlugin(String symbolicName, String version, String misbehaviour, String leakedThread) {

    /**
     * The activator, by name only: the tests' class path lacks the OSGi framework API it implements, so the
     * class is never loaded here, only copied.
     */
    private static final String ACTIVATOR = "io.troupe.distribution.plugins.MisbehavingActivator";

    /** The bundle's bytes. */
    public byte[] jar() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Misbehaviour", misbehaviour);
        if (leakedThread != null) {
            headers.put("Leaked-Thread", leakedThread);
        }
        return ActivatorBundle.jar(ACTIVATOR, symbolicName, version, headers);
    }

    /** Writes the bundle as {@code deploy/file}: beside it first, then renamed into place. */
    public Path deployTo(Path deploy, String file) throws IOException {
        return ActivatorBundle.deployTo(deploy, file, jar());
    }
}
