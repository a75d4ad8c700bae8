/**
 * Logging helpers for plugins. Plugins log with plain SLF4J; the runtime is the SLF4J provider of
 * every bundle and writes their records to {@code log/troupe.log} from its own thread. This package
 * adds {@link io.troupe.api.log.Fatal}, for the one record that must be on disk before the call
 * returns.
 *
 * <h2>Compatibility</h2>
 * Imports {@code org.slf4j}, which the runtime exports.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package io.troupe.api.log;
