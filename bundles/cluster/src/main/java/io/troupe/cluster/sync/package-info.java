/**
 * Cluster-wide deploy and tenant configuration: the plugin jars of {@code deploy/} and the tenant files of
 * {@code etc/} kept the same on every node through a replicated map of versioned records.
 *
 * <pre>
 *  deploy/*.jar, etc/io.troupe.tenant-*.cfg ──scan every 1 s (size+mtime, then sha-256)──┐
 *                                                                                       ▼
 *  FolderSync (thread troupe-cluster-sync) ◄── entry events ── IMap "troupe.files": key ──► FileRecord
 *     │  publish: version+1 by compare-and-set          (version, origin, deleted, sha-256, content, previous)
 *     │  apply: hidden temp file + ATOMIC_MOVE, or delete
 *     │  SyncLedger: data/cluster-sync.properties (applied version + sha per file)
 *     └─ deploy/.status/&lt;file&gt; failed | rolled-back
 *           ──► IMap "troupe.deploys": "&lt;file&gt;@&lt;version&gt;" -&gt; the nodes' reports
 *           ──► version+1 with the previous content (or a tombstone)
 * </pre>
 *
 * <p><b>Threading:</b> one thread per node does the work; see {@link io.troupe.cluster.sync.FolderSync}.
 */
package io.troupe.cluster.sync;
