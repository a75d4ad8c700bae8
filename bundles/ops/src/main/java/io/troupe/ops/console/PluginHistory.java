package io.troupe.ops.console;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.troupe.client.deploy.DeployStatus;

/**
 * The swap history of the deploy folder's plugins, as the console saw it: the bundle events of plugins
 * (installed, updated from one version to another, uninstalled) and the host's outcomes for their jars
 * ({@code deploy/.status/<file>}: running, rolled-back or failed, with the host's reason), newest first,
 * the last {@value #CAPACITY} kept in memory.
 *
 * <pre>
 *   12:01:03.120  counter.jar  updated      io.troupe.sample.counter  1.0.0 -&gt; 2.0.0
 *   12:01:03.410  counter.jar  running      io.troupe.sample.counter  2.0.0
 *   12:04:10.002  counter.jar  updated      io.troupe.sample.counter  2.0.0 -&gt; 3.0.0
 *   12:04:25.310  counter.jar  updated      io.troupe.sample.counter  3.0.0 -&gt; 2.0.0
 *   12:04:25.390  counter.jar  rolled-back  io.troupe.sample.counter  3.0.0  "it did not register ..."
 *   12:06:00.000  counter.jar  rollback     io.troupe.sample.counter  2.0.0 -&gt; 1.0.0  "by an administrator ..."
 * </pre>
 *
 * The console's own actions (undeploy, rollback) are recorded too, with who asked.
 *
 * It also counts each plugin bundle's revisions: 1 when first seen, one more at each update.
 *
 * <p><b>Threading:</b> every method may be called from any thread (the framework's event thread, the
 * console's sampler, servlet threads); they synchronise on this object and never block otherwise.
 */
final class PluginHistory {

    /** Entries kept; the oldest go first. */
    static final int CAPACITY = 200;

    /** What happened. */
    enum Kind {
        INSTALLED("installed"), UPDATED("updated"), UNINSTALLED("uninstalled"), RUNNING("running"),
        ROLLED_BACK("rolled-back"), FAILED("failed"),
        /** An administrator undeployed the plugin from the console. */
        UNDEPLOY("undeploy"),
        /** An administrator rolled the plugin back from the console. */
        ROLLBACK("rollback");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One event.
     *
     * @param sequence     raised by one at each entry
     * @param from         the version before (an update), or null
     * @param to           the version after, or the judged version (an outcome), or null
     * @param reason       the host's reason of a refusal, or null
     */
    record Entry(long sequence, Instant time, String file, String symbolicName, Kind kind, String from, String to,
                 String reason) {
    }

    private final Clock clock;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final Map<Long, String> versions = new HashMap<>();
    private final Map<Long, Integer> revisions = new HashMap<>();
    /** Per jar file: the sha256 and time of the last outcome taken in, so that each is recorded once. */
    private final Map<String, String> judged = new HashMap<>();
    private long sequence;

    PluginHistory(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A plugin bundle that was there when the console started: counted as revision 1, not recorded. */
    synchronized void known(long bundleId, String version) {
        versions.put(bundleId, version);
        revisions.putIfAbsent(bundleId, 1);
    }

    synchronized void installed(long bundleId, String file, String symbolicName, String version) {
        versions.put(bundleId, version);
        revisions.put(bundleId, 1);
        add(file, symbolicName, Kind.INSTALLED, null, version, null);
    }

    /** An update to {@code version}; the version before is the last one seen for the bundle. */
    synchronized void updated(long bundleId, String file, String symbolicName, String version) {
        String before = versions.put(bundleId, version);
        revisions.merge(bundleId, 1, Integer::sum);
        add(file, symbolicName, Kind.UPDATED, before, version, null);
    }

    synchronized void uninstalled(long bundleId, String file, String symbolicName, String version) {
        versions.remove(bundleId);
        revisions.remove(bundleId);
        add(file, symbolicName, Kind.UNINSTALLED, version, null, null);
    }

    /**
     * The host's outcome for a jar, as its status file says now: recorded the first time these bytes and this
     * time are seen.
     *
     * @param record false to take it in without an entry (the outcomes standing when the console starts)
     * @return whether it was new
     */
    synchronized boolean outcome(DeployStatus status, boolean record) {
        String key = status.sha256() + "@" + status.time();
        if (key.equals(judged.put(status.file(), key))) {
            return false;
        }
        if (record) {
            Kind kind = switch (status.outcome()) {
                case RUNNING -> Kind.RUNNING;
                case ROLLED_BACK -> Kind.ROLLED_BACK;
                case FAILED -> Kind.FAILED;
            };
            add(status.file(), status.symbolicName().orElse(null), kind, null, status.version().orElse(null),
                    status.reason().orElse(null));
        }
        return true;
    }

    /**
     * An administrator's action on the jar {@code file} from the console ({@link Kind#UNDEPLOY} or
     * {@link Kind#ROLLBACK}), recorded before the host applies it; {@code who} goes to the entry's reason.
     */
    synchronized void action(Kind kind, String file, String symbolicName, String from, String to, String who) {
        add(file, symbolicName, kind, from, to, who);
    }

    /** The jar {@code file} is gone: its next outcome is new again. */
    synchronized void forgetOutcome(String file) {
        judged.remove(file);
    }

    /** The revision of the bundle: 1 when first seen, one more at each update; 1 for a bundle not seen. */
    synchronized int revision(long bundleId) {
        return revisions.getOrDefault(bundleId, 1);
    }

    /** The entries, newest first. */
    synchronized List<Entry> entries() {
        List<Entry> newestFirst = new ArrayList<>(entries.size());
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            newestFirst.add(it.next());
        }
        return newestFirst;
    }

    /** The sequence of the last entry, 0 before the first: a change of it means something happened. */
    synchronized long sequence() {
        return sequence;
    }

    private void add(String file, String symbolicName, Kind kind, String from, String to, String reason) {
        entries.addLast(new Entry(++sequence, clock.instant(), file, symbolicName, kind, from, to, reason));
        while (entries.size() > CAPACITY) {
            entries.removeFirst();
        }
    }
}
