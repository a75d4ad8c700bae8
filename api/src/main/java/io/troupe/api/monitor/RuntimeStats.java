package io.troupe.api.monitor;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The runtime's measurements, registered by the host bundle as an OSGi service.
 *
 * <p><b>Threading:</b> {@link #snapshot()} from any thread; it never blocks on a runtime thread.
 */
@ProviderType
public interface RuntimeStats {

    /**
     * The current state of the runtime. Busy ratios cover the last complete sampling window (about a
     * second); counts and depths are read now.
     */
    RuntimeSnapshot snapshot();
}
