package io.troupe.api.net;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A scheduled task that can be cancelled.
 *
 * <p><b>Threading:</b> any thread.
 */
@ProviderType
public interface Cancellable {

    /** Prevents the task from running if it has not started; returns whether it was still pending. */
    boolean cancel();
}
