package io.troupe.cluster.sync;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleService;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import io.troupe.cluster.sync.SyncLedger.Applied;
import io.troupe.cluster.sync.SyncedFolders.FileStamp;

/**
 * Cluster-wide deploy and tenant configuration: keeps {@code deploy/*.jar} and
 * {@code etc/io.troupe.tenant-*.cfg} the same on every node, through the replicated map {@value #FILES}
 * (key {@code deploy/<name>} or {@code etc/<name>}, value a versioned {@link FileRecord}).
 *
 * <pre>
 * FolderSync sync = new FolderSync(hazelcast, home, syncDeploy, syncTenants);   // home: the installation
 * sync.start();      // after Hazelcast started
 * sync.close();      // before hazelcast.shutdown()
 * </pre>
 *
 * <p><b>How.</b> One thread, {@value #THREAD}, scans the two folders every second (a file is read and hashed
 * only when its size or modification time changed, and acted on once it kept them for one scan, so a slow
 * copy is never published half-written) and applies the map's entry events, which Hazelcast's event threads
 * hand to it. A new or changed local file is published as the map's version + 1 by compare-and-set
 * ({@code putIfAbsent} / {@code replace(key, old, new)}); a deleted one as a tombstone. A newer version from
 * the map is written to the file atomically (a hidden temporary file in the same folder, renamed over it:
 * the host and FileInstall ignore hidden files) or deletes it. What this node applied or published of each
 * file (version, SHA-256) is kept in {@value #LEDGER} ({@link SyncLedger}), so the scan does not publish it
 * again and a restarted node knows what changed while it was away.
 *
 * <p><b>The rule for concurrent changes.</b> The change that commits the next version wins: when two nodes
 * publish from the same version, one compare-and-set succeeds and the other node applies the winner's
 * version, overwriting its own file (its change is dropped, and logged). Any later change, on any node, is
 * published over whatever the map holds then. So every node ends with the content of the last committed
 * version.
 *
 * <p>Besides the entry events, the thread looks at every key of the map at start and whenever the members change
 * (an event can be lost with a member that crashed; a healed split merges entries).
 *
 * <p><b>A node that joins late or restarts</b> applies every version newer than the one it applied; a file
 * it changed or deleted while away (its SHA-256 differs from the ledger's) is published as the next version
 * and so wins over what the others did meanwhile. A file it applied that the cluster has never seen (the node
 * served alone, in a split or with a wrong member list, or the whole cluster restarted and the map is new)
 * is published at start, as a version above the one it applied; when the map has the same version of a file
 * with another content, the map's wins. A file the node never had in its ledger (a new node, or a
 * lost ledger) yields to the map when the map has a live version of it, and is published when it has not.
 * A folder that is missing is not taken as empty: nothing is deleted because of it.
 *
 * <p><b>Failed plugin jars.</b> After applying or publishing a jar, the sync thread watches
 * {@code deploy/.status/<file>} for a status of that jar's SHA-256 whose time is not before the jar was put in
 * place here (its modification time; an older status of the same bytes is about an earlier file). An outcome
 * {@code failed} or
 * {@code rolled-back} is recorded in {@value #DEPLOYS} (key {@code <file>@<version>}, value
 * {@code <node>: <outcome>: <reason>}, the reports of several nodes joined by {@code "; "}), logged as an
 * ERROR naming the node, the file, the version and the reason, and rolled back everywhere: the node that saw
 * it publishes version + 1 with the previous content (each jar record carries it) or, for a jar that had none,
 * a tombstone. The compare-and-set from the failed version makes one node's rollback the only one; a
 * rollback that fails again is reported and not rolled back further.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #close} on the thread that activates and deactivates the
 * cluster component; the listener only queues keys from Hazelcast's event threads; everything else runs on
 * {@value #THREAD}, which owns the files, the ledger and the watches.
 */
public final class FolderSync implements AutoCloseable {

    /** The replicated map of the synchronised files. */
    public static final String FILES = "troupe.files";
    /** The replicated map of failed plugin deploys: {@code <file>@<version>} to the nodes' reports. */
    public static final String DEPLOYS = "troupe.deploys";
    /** Where a node keeps what it applied, relative to the installation. */
    public static final String LEDGER = "data/cluster-sync.properties";
    /** The name of the sync thread. */
    public static final String THREAD = "troupe-cluster-sync";
    /** How often the folders are scanned by default. */
    public static final Duration SCAN_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(FolderSync.class);
    private static final int ATTEMPTS = 16;
    /** Queued instead of a key when every key is to be looked at again (no key is empty). */
    private static final String EVERY_KEY = "";

    /** The stamps of one local file. Confined to the sync thread. */
    private static final class Local {
        /** The file as this node last applied or published it (or found it holding what it applied). */
        FileStamp applied;
        /** The file at the last scan, for the one-scan stability rule. */
        FileStamp seen;
    }

    /** A jar whose outcome on this node is awaited. Confined to the sync thread. */
    private static final class Watch {
        final long version;
        final String sha;
        final boolean rollback;
        /** When the jar was put in place here (its modification time): older statuses are not about it. */
        final long placedMillis;
        FileStamp status;

        Watch(long version, String sha, boolean rollback, long placedMillis) {
            this.version = version;
            this.sha = sha;
            this.rollback = rollback;
            this.placedMillis = placedMillis;
        }
    }

    private final HazelcastInstance hazelcast;
    private final IMap<String, byte[]> files;
    private final boolean syncsTenants;
    private final IMap<String, String> deploys;
    private final SyncedFolders folders;
    private final SyncLedger ledger;
    private final Path deployFolder;
    private final Duration interval;
    private final boolean enabled;
    private final String node;
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final Map<String, Local> locals = new HashMap<>();
    private final Map<String, Watch> watches = new HashMap<>();
    private final Set<String> retries = new LinkedHashSet<>();
    private final Thread thread;
    private volatile boolean running;
    private UUID listener;
    private UUID membershipListener;
    private boolean unreadable;

    /** A sync scanning every second; see {@link #FolderSync(HazelcastInstance, Path, boolean, boolean, Duration)}. */
    public FolderSync(HazelcastInstance hazelcast, Path home, boolean syncDeploy, boolean syncTenants) {
        this(hazelcast, home, syncDeploy, syncTenants, SCAN_INTERVAL);
    }

    /**
     * A sync of the installation in {@code home} ({@code home/deploy}, {@code home/etc}, and its ledger in
     * {@code home/}{@value #LEDGER}) on {@code hazelcast}, a started member.
     *
     * @param syncDeploy   whether plugin jars are synchronised
     * @param syncTenants  whether tenant files are synchronised
     * @param scanInterval how often the folders are scanned, at least 10 ms
     */
    public FolderSync(HazelcastInstance hazelcast, Path home, boolean syncDeploy, boolean syncTenants,
                      Duration scanInterval) {
        Objects.requireNonNull(hazelcast, "hazelcast");
        Objects.requireNonNull(home, "home");
        if (scanInterval.toMillis() < 10) {
            throw new IllegalArgumentException("the scan interval must be at least 10 ms, was " + scanInterval);
        }
        this.hazelcast = hazelcast;
        this.files = hazelcast.getMap(FILES);
        this.deploys = hazelcast.getMap(DEPLOYS);
        this.folders = new SyncedFolders(home.toAbsolutePath(), syncDeploy, syncTenants);
        this.ledger = new SyncLedger(home.toAbsolutePath().resolve(LEDGER));
        this.deployFolder = home.toAbsolutePath().resolve(SyncedFolders.DEPLOY);
        this.interval = scanInterval;
        this.enabled = syncDeploy || syncTenants;
        this.syncsTenants = syncTenants;
        Address address = hazelcast.getCluster().getLocalMember().getAddress();
        this.node = address.getHost() + ":" + address.getPort();
        this.thread = new Thread(this::run, THREAD);
        thread.setDaemon(true);
    }

    /** This node's name in the records and reports: its cluster address {@code host:port}. */
    public String node() {
        return node;
    }

    /**
     * Reads the ledger, listens to the map and starts the sync thread, which first publishes what changed
     * here while the node was away and then applies what the cluster changed. Does nothing when both halves
     * are off.
     */
    public synchronized void start() {
        if (!enabled || running) {
            return;
        }
        ledger.load();
        listener = files.addEntryListener(new Listener(), false);
        membershipListener = hazelcast.getCluster().addMembershipListener(new Members());
        running = true;
        thread.start();
        LOG.info("Cluster sync of {} started on node {}", folders.describe(), node);
    }

    /**
     * The tenants the cluster has files of now ({@code etc/io.troupe.tenant-<id>.cfg}, deletions left out),
     * as the map says; empty when tenant files are not synchronised. Blocks on the network.
     */
    public Set<String> clusterTenants() {
        Set<String> tenants = new TreeSet<>();
        if (!syncsTenants) {
            return tenants;
        }
        for (Map.Entry<String, byte[]> entry : files.entrySet()) {
            String key = entry.getKey();
            if (key.startsWith(TENANT_KEY_PREFIX) && key.endsWith(TENANT_KEY_SUFFIX)) {
                FileRecord record = decodeOrNull(key, entry.getValue());
                if (record != null && !record.deleted()) {
                    tenants.add(key.substring(TENANT_KEY_PREFIX.length(), key.length() - TENANT_KEY_SUFFIX.length()));
                }
            }
        }
        return tenants;
    }

    private static final String TENANT_KEY_PREFIX = SyncedFolders.ETC + SyncedFolders.TENANT_PREFIX;
    private static final String TENANT_KEY_SUFFIX = ".cfg";

    /** Stops the sync thread (waits for it, at most 10 s) and stops listening. Idempotent. */
    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            files.removeEntryListener(listener);
            hazelcast.getCluster().removeMembershipListener(membershipListener);
        } catch (RuntimeException e) {
            LOG.debug("The listeners of the cluster sync were not removed: {}", e.toString());
        }
    }

    private void run() {
        try {
            scan(true);
            everyKey();
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("The first cluster sync of node {} failed; it is retried when the members change", node, e);
            }
        }
        LifecycleService lifecycle = hazelcast.getLifecycleService();
        long next = System.nanoTime() + interval.toNanos();
        while (running) {
            try {
                long wait = next - System.nanoTime();
                String key = wait > 0 ? events.poll(wait, TimeUnit.NANOSECONDS) : null;
                if (key != null) {
                    Set<String> keys = new LinkedHashSet<>();
                    keys.add(key);
                    events.drainTo(keys);
                    if (keys.remove(EVERY_KEY)) {
                        everyKey();
                    }
                    for (String each : keys) {
                        remote(each);
                    }
                }
                if (System.nanoTime() - next >= 0) {
                    scan(false);
                    checkDeploys();
                    retry();
                    next = System.nanoTime() + interval.toNanos();
                }
            } catch (InterruptedException e) {
                // close() asks the loop to end; running says whether it did
            } catch (RuntimeException e) {
                if (running && !lifecycle.isRunning()) {
                    LOG.warn("The cluster member stopped under the cluster sync of node {}: the sync stops", node);
                    return;
                }
                if (running) {
                    LOG.error("Cluster sync on node {} failed; retrying at the next scan", node, e);
                }
            }
        }
    }

    /**
     * Applies every version of the map newer than the one applied here: at start, and when the members change
     * (an event may have been lost with a member that crashed, and a healed split merges entries).
     */
    private void everyKey() {
        for (String key : files.keySet()) {
            remote(key);
        }
    }

    /** Applies the map's version of {@code key} when it is newer than the one applied here. */
    private void remote(String key) {
        if (!folders.synced(key)) {
            return;
        }
        FileRecord record = current(key);
        if (record == null) {
            return;
        }
        Applied applied = ledger.get(key);
        if (applied == null || record.version() > applied.version()
                || (record.version() == applied.version() && !Objects.equals(record.sha(), applied.sha()))) {
            apply(key, record); // newer; or, at an equal version, another content: the cluster's wins
        }
    }

    /** Publishes what changed in the folders since the last scan. */
    private void scan(boolean initial) {
        List<String> present;
        try {
            present = folders.present();
            if (unreadable) {
                LOG.info("The synchronised folders of node {} are readable again", node);
                unreadable = false;
            }
        } catch (IOException e) {
            if (!unreadable) {
                LOG.error("Cannot list the synchronised folders of node {} ({}); nothing is published until they"
                        + " are back", node, e.toString());
                unreadable = true;
            }
            return;
        }
        for (String key : present) {
            changed(key, initial);
        }
        Set<String> here = new HashSet<>(present);
        for (Map.Entry<String, Applied> entry : new ArrayList<>(ledger.all().entrySet())) {
            String key = entry.getKey();
            if (entry.getValue().sha() != null && !here.contains(key) && folders.synced(key)
                    && folders.folderReadable(key)) {
                publishDeletion(key, entry.getValue());
            }
        }
    }

    private void changed(String key, boolean initial) {
        FileStamp stamp = FileStamp.of(folders.pathOf(key));
        if (stamp == null) {
            return;
        }
        Local local = locals.computeIfAbsent(key, k -> new Local());
        boolean stable = initial || stamp.equals(local.seen);
        local.seen = stamp;
        if (stamp.equals(local.applied) || !stable) {
            return;
        }
        byte[] content;
        try {
            content = folders.read(key);
        } catch (IOException e) {
            LOG.warn("Cannot read {} to publish it: {}; retried at the next scan", key, e.toString());
            local.seen = null;
            return;
        }
        if (content == null) {
            return;
        }
        String sha = FileRecord.sha(content);
        Applied applied = ledger.get(key);
        if (applied != null && sha.equals(applied.sha())) {
            local.applied = stamp; // touched, or as applied
            if (initial && clusterLacks(key, applied)) {
                // This node applied it in another cluster: it served alone (a split, a wrong member list) or the
                // whole cluster restarted. What it has, and this cluster has not seen, is published.
                publish(key, content, sha, stamp, applied.version());
            }
            return;
        }
        if (applied == null && initial) {
            FileRecord cluster = current(key);
            if (cluster != null && !cluster.deleted()) {
                return; // a file this node never synchronised yields to the cluster's version, applied next
            }
        }
        publish(key, content, sha, stamp, applied == null ? 0 : applied.version());
    }

    /**
     * Whether the cluster's map lacks what this node applied of {@code key}: no entry at all, or an older
     * version with other content (the map restarted, or this node comes from another cluster).
     */
    private boolean clusterLacks(String key, Applied applied) {
        FileRecord cluster = current(key);
        return cluster == null
                || (cluster.version() < applied.version() && !Objects.equals(cluster.sha(), applied.sha()));
    }

    /**
     * Publishes {@code content} of {@code key} as the next version (see the class comment for the rule): one
     * above the map's, and above {@code floor}, the version this node applied last, so that nodes that
     * applied that version too take it as newer.
     */
    private void publish(String key, byte[] content, String sha, FileStamp stamp, long floor) {
        boolean jar = SyncedFolders.isDeploy(key);
        for (int attempt = 0; attempt < ATTEMPTS && running; attempt++) {
            byte[] raw = files.get(key);
            FileRecord current = raw == null ? null : decodeOrNull(key, raw);
            if (current != null && !current.deleted() && current.sha().equals(sha)) {
                committed(key, current, stamp); // the cluster has it already
                return;
            }
            long version = Math.max(current == null ? 0 : current.version(), floor) + 1;
            byte[] previous = jar && current != null && !current.deleted() ? current.content() : null;
            FileRecord next = new FileRecord(version, node, false, false, sha, content, previous);
            if (commit(key, raw, next)) {
                LOG.info("Published {} {} to the cluster", key, next);
                committed(key, next, stamp);
                return;
            }
            if (lost(key, version, sha)) {
                return;
            }
        }
        LOG.warn("Could not publish {} after {} attempts; retried at the next change", key, ATTEMPTS);
    }

    /** Publishes the deletion of {@code key}, which this node had applied as {@code applied}. */
    private void publishDeletion(String key, Applied applied) {
        for (int attempt = 0; attempt < ATTEMPTS && running; attempt++) {
            byte[] raw = files.get(key);
            FileRecord current = raw == null ? null : decodeOrNull(key, raw);
            if (current == null || current.deleted()) {
                ledger.put(key, current == null ? applied.version() : current.version(), null);
                locals.remove(key);
                return;
            }
            long version = current.version() + 1;
            FileRecord tombstone = FileRecord.tombstone(version, node, false, null);
            if (commit(key, raw, tombstone)) {
                LOG.info("Published the deletion of {} to the cluster ({})", key, tombstone);
                committed(key, tombstone, null);
                return;
            }
            if (lost(key, version, null)) {
                return;
            }
        }
        LOG.warn("Could not publish the deletion of {} after {} attempts; retried at the next scan", key, ATTEMPTS);
    }

    /** Compare-and-set of {@code key} from {@code raw} (absent when null) to {@code next}. */
    private boolean commit(String key, byte[] raw, FileRecord next) {
        return raw == null ? files.putIfAbsent(key, next.encode()) == null : files.replace(key, raw, next.encode());
    }

    /**
     * After a failed compare-and-set for {@code version}: when another node committed that version with other
     * content, its change wins and is applied here (true); otherwise the caller tries again (false).
     */
    private boolean lost(String key, long version, String sha) {
        FileRecord winner = current(key);
        if (winner == null || winner.version() < version) {
            return false;
        }
        if (Objects.equals(winner.sha(), sha)) {
            committed(key, winner, sha == null ? null : FileStamp.of(folders.pathOf(key)));
            return true;
        }
        LOG.info("{}: node {} committed version {} first and wins; the change made here is replaced", key,
                winner.origin(), winner.version());
        apply(key, winner);
        return true;
    }

    /** Records that this node's file of {@code key} is {@code record} (its file stamp {@code stamp}). */
    private void committed(String key, FileRecord record, FileStamp stamp) {
        ledger.put(key, record.version(), record.sha());
        if (record.deleted()) {
            locals.remove(key);
        } else {
            Local local = locals.computeIfAbsent(key, k -> new Local());
            local.applied = stamp;
            local.seen = stamp;
        }
        watch(key, record, stamp);
    }

    /** Makes this node's file of {@code key} what {@code record} says. */
    private void apply(String key, FileRecord record) {
        try {
            if (record.deleted()) {
                if (folders.delete(key)) {
                    LOG.info("Deleted {}: {}", key, record);
                }
                committed(key, record, null);
            } else {
                byte[] content = folders.read(key);
                if (content == null || !FileRecord.sha(content).equals(record.sha())) {
                    folders.write(key, record.content());
                    LOG.info("Wrote {}: {}", key, record);
                }
                committed(key, record, FileStamp.of(folders.pathOf(key)));
            }
            retries.remove(key);
        } catch (IOException e) {
            LOG.error("Cannot apply {} {} on node {}: {}; retried at the next scan", key, record, node, e.toString());
            retries.add(key);
            return;
        }
        if (record.rollback()) {
            String file = key.substring(SyncedFolders.DEPLOY.length());
            LOG.warn("{} was rolled back to {} because version {} failed: {}", key,
                    record.deleted() ? "nothing" : "its previous content", record.version() - 1,
                    deploys.get(file + "@" + (record.version() - 1)));
        }
    }

    private void retry() {
        for (String key : new ArrayList<>(retries)) {
            remote(key);
        }
    }

    /** Awaits the host's outcome of a jar this node applied or published. */
    private void watch(String key, FileRecord record, FileStamp stamp) {
        if (!SyncedFolders.isDeploy(key)) {
            return;
        }
        String file = key.substring(SyncedFolders.DEPLOY.length());
        if (record.deleted()) {
            watches.remove(file);
        } else {
            watches.put(file, new Watch(record.version(), record.sha(), record.rollback(),
                    stamp == null ? 0 : stamp.modifiedMillis()));
        }
    }

    /** Reads the status files of the watched jars that changed since the last look. */
    private void checkDeploys() {
        for (Iterator<Map.Entry<String, Watch>> it = watches.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Watch> entry = it.next();
            Watch watch = entry.getValue();
            Path statusFile = DeployStatus.fileOf(deployFolder, entry.getKey());
            FileStamp stamp = FileStamp.of(statusFile);
            if (stamp == null || stamp.equals(watch.status)) {
                continue;
            }
            watch.status = stamp;
            DeployStatus status = DeployStatus.read(statusFile);
            if (status == null || !status.sha().equals(watch.sha) || !status.judgedSince(watch.placedMillis)) {
                continue;
            }
            it.remove();
            if (status.refused()) {
                failed(entry.getKey(), watch, status);
            }
        }
    }

    /** Reports a jar the host refused here and rolls it back on every node. */
    private void failed(String file, Watch watch, DeployStatus status) {
        report(file + "@" + watch.version, node + ": " + status.outcome() + ": " + status.reason());
        LOG.error("Plugin deploy/{} version {} failed on node {} ({}: {}); {}", file, watch.version, node,
                status.outcome(), status.reason(), watch.rollback
                        ? "it was itself a rollback, so it is not rolled back further"
                        : "rolling it back on every node");
        if (watch.rollback) {
            return;
        }
        String key = SyncedFolders.DEPLOY + file;
        byte[] raw = files.get(key);
        FileRecord current = raw == null ? null : decodeOrNull(key, raw);
        if (current == null || current.version() != watch.version) {
            return; // a newer version (another node's rollback, or a new jar) replaced it already
        }
        FileRecord back = current.previous() == null
                ? FileRecord.tombstone(watch.version + 1, node, true, null)
                : FileRecord.file(watch.version + 1, node, true, current.previous(), null);
        if (commit(key, raw, back)) {
            apply(key, back);
        } else {
            remote(key);
        }
    }

    /** Adds {@code report} to the failures of {@code id} in {@value #DEPLOYS}. */
    private void report(String id, String report) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            String reports = deploys.putIfAbsent(id, report);
            if (reports == null || reports.contains(report)
                    || deploys.replace(id, reports, reports + "; " + report)) {
                return;
            }
        }
    }

    /** The map's version of {@code key}, {@code null} when it has none (or an unreadable one). */
    private FileRecord current(String key) {
        byte[] raw = files.get(key);
        return raw == null ? null : decodeOrNull(key, raw);
    }

    private FileRecord decodeOrNull(String key, byte[] raw) {
        try {
            return FileRecord.decode(key, raw);
        } catch (IllegalArgumentException e) {
            LOG.warn("Ignoring {} in {}: {}", key, FILES, e.getMessage());
            return null;
        }
    }

    @Override
    public String toString() {
        return "FolderSync[" + node + ", " + folders.describe() + "]";
    }

    /** Hands the keys of the map's changes to the sync thread. Runs on Hazelcast's event threads. */
    private final class Listener implements EntryAddedListener<String, byte[]>, EntryUpdatedListener<String, byte[]>,
            EntryMergedListener<String, byte[]> {

        @Override
        public void entryMerged(EntryEvent<String, byte[]> event) {
            events.offer(event.getKey());
        }

        @Override
        public void entryAdded(EntryEvent<String, byte[]> event) {
            events.offer(event.getKey());
        }

        @Override
        public void entryUpdated(EntryEvent<String, byte[]> event) {
            events.offer(event.getKey());
        }
    }

    /** Asks the sync thread to look at every key when the members change. Runs on Hazelcast's event threads. */
    private final class Members implements MembershipListener {

        @Override
        public void memberAdded(MembershipEvent event) {
            events.offer(EVERY_KEY);
        }

        @Override
        public void memberRemoved(MembershipEvent event) {
            events.offer(EVERY_KEY);
        }
    }
}
