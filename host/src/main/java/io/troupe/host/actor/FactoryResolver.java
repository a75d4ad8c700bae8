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

    /**
     * The source registered under {@code factoryName} for an actor of {@code tenant} (empty for none):
     * a resolver may hide factories from some tenants. By default the same as {@link #resolve(String)}.
     */
    default Optional<FactorySource> resolve(String factoryName, String tenant) {
        return resolve(factoryName);
    }

    /** A resolver that knows no names. */
    static FactoryResolver none() {
        return name -> Optional.empty();
    }
}
