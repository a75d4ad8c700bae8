package io.troupe.host.actor;

import java.util.Optional;

/**
 * Finds factories registered under a name by any bundle.
 *
 * <p><b>Threading:</b> called on actor turns and other threads concurrently; implementations must be
 * thread-safe and must not block.
 */
@FunctionalInterface
public interface FactoryResolver {

    /** The source registered under {@code factoryName}, if any. */
    Optional<FactorySource> resolve(String factoryName);

    /** A resolver that knows no names. */
    static FactoryResolver none() {
        return name -> Optional.empty();
    }
}
