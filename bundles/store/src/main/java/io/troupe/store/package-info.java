/**
 * The embedded default {@link io.troupe.api.state.StateStore}: snapshots of durable actors in an H2 MVStore
 * file. Nothing here is exported to other bundles; {@link io.troupe.store.MvStateStore} is public for
 * plain class paths (an embedded runtime, tests).
 *
 * <pre>
 *  MvStateStore (StateStore, AutoCloseable)         io.troupe.store.osgi.StoreComponent (DS)
 *    write/delete/purge ──► StoreWriter               opens ${troupe.home}/data/state.mv.db, registers
 *    read/list ──► StoreFile.map (lock-free reads)    the StateStore service, applies io.troupe.store
 *                                                     (StoreConfiguration, StoreSettings)
 *  StoreWriter: queue ─► troupe-store-writer: batch ─► map puts ─► commit ─► sync ─► complete in order
 *  StoreFile:   MVStore (auto-commit off) + map "troupe.state": StoreKeys ─► StoredValue
 *  LatencyWindow: p99 of the recent writes' latency
 * </pre>
 *
 * <p><b>Threading:</b> see each class; the store is used from any thread, and one thread writes.
 */
package io.troupe.store;
