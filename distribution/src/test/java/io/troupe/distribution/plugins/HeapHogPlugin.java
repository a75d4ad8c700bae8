package io.troupe.distribution.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the bundle of the heap-hog test plugin around {@link HeapHogActivator} (an {@link ActivatorBundle}) and
 * drops it into a deploy folder: written beside, then renamed into place.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class HeapHogPlugin {

    private static final String ACTIVATOR = "io.troupe.distribution.plugins.HeapHogActivator";

    private HeapHogPlugin() {
    }

    /** Writes the bundle as {@code deploy/file}. */
    public static Path deployTo(Path deploy, String file) throws IOException {
        return ActivatorBundle.deployTo(deploy, file, ActivatorBundle.jar(ACTIVATOR, "test.heap.hog", "1.0.0",
                Map.of()));
    }
}
