package io.troupe.distribution;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletionException;

import io.troupe.client.ConnectionLostException;
import io.troupe.client.TroupeClientException;

/**
 * What the clients of one tenant saw of its durable counter ({@code counter.add 1}, which answers the new
 * total) and of its echo requests, over a whole test: each total a client was told, so that a total told
 * twice (two nodes serving the tenant at once, or an acknowledged add lost) and a total never told (an add
 * lost, or one whose outcome the client could not know) show; and every failure, by kind.
 *
 * <p>The counter is every-turn durable: a total is stored before it is told. After a crash, the stored
 * total {@code F} must therefore hold every acknowledged add, and no more than those plus the adds whose
 * outcome the client could not know: {@code acked <= F <= acked + unknown}, every total told distinct and
 * at most {@code F}. Without a crash, nothing may be unknown and the totals told are exactly
 * {@code 1..F}.
 *
 * <p><b>Threading:</b> every method is synchronised; the clients' loop threads record, the test thread
 * reads.
 */
final class TenantLedger {

    /** How a request that did not get its answer ended. */
    enum Outcome {
        /** The client did not send it (not connected): it had no effect. */
        REFUSED,
        /** It was sent and the connection was lost before its answer; not idempotent, so not sent again. */
        UNKNOWN,
        /** Anything else: an ERROR, a timeout, a wrong answer. */
        FAILED
    }

    private static final int KEPT_FAILURES = 5;

    private final String tenant;
    private final BitSet told = new BitSet();
    private final List<String> toldTwice = new ArrayList<>();
    /** When each total was first told (epoch milliseconds, to compare with the nodes' logs), and by which node. */
    private long[] toldAt = new long[1024];
    private String[] toldBy = new String[1024];
    private final List<String> failures = new ArrayList<>();
    private long adds;
    private long acked;
    private long unknown;
    private long refused;
    private long failed;
    private long echoes;
    private long lastAnswer;
    private long longestGap;

    TenantLedger(String tenant) {
        this.tenant = tenant;
    }

    String tenant() {
        return tenant;
    }

    /** An add is about to be sent. */
    synchronized void adding() {
        adds++;
    }

    /** An add was answered with {@code total} by the node at {@code server} (as far as the client knows). */
    synchronized void added(long total, String server) {
        long now = System.currentTimeMillis();
        if (total <= 0 || total > Integer.MAX_VALUE / 2) {
            toldTwice.add(total + " (out of range) by " + server + " at " + Instant.ofEpochMilli(now));
        } else if (told.get((int) total)) {
            int index = (int) total;
            String before = index > 1 && told.get(index - 1) ? "; " + (index - 1) + " was told by " + toldBy[index - 1]
                    + " at " + Instant.ofEpochMilli(toldAt[index - 1]) : "";
            toldTwice.add(total + " by " + toldBy[index] + " at " + Instant.ofEpochMilli(toldAt[index]) + " and by "
                    + server + " at " + Instant.ofEpochMilli(now) + before);
        } else {
            int index = (int) total;
            if (index >= toldAt.length) {
                int size = Math.max(index + 1, toldAt.length * 2);
                toldAt = Arrays.copyOf(toldAt, size);
                toldBy = Arrays.copyOf(toldBy, size);
            }
            told.set(index);
            toldAt[index] = now;
            toldBy[index] = server;
        }
        acked++;
        answered();
    }

    /** An echo request was answered, with its own content or not. */
    synchronized void echoed(boolean right, String detail) {
        if (right) {
            echoes++;
            answered();
        } else {
            failed++;
            keep("echo answered wrongly: " + detail);
        }
    }

    /**
     * A request failed with {@code error}; an add may end in any {@link Outcome}, an idempotent echo only
     * in {@link Outcome#FAILED} (the client sends it again after a loss) or {@link Outcome#REFUSED}.
     *
     * @return how it ended
     */
    synchronized Outcome failed(String request, Throwable error, boolean idempotent) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        Outcome outcome;
        if (cause instanceof ConnectionLostException lost && lost.getMessage().startsWith("not connected to ")) {
            outcome = Outcome.REFUSED;
            refused++;
        } else if (!idempotent && cause instanceof ConnectionLostException lost
                && lost.getMessage().contains(" is unknown")) {
            outcome = Outcome.UNKNOWN;
            unknown++;
        } else {
            outcome = Outcome.FAILED;
            failed++;
        }
        if (outcome == Outcome.FAILED || (outcome == Outcome.UNKNOWN ? unknown : refused) == 1) {
            keep(outcome + " " + request + ": " + describe(cause)); // every failure, one example of the others
        }
        return outcome;
    }

    private void answered() {
        long now = System.nanoTime();
        if (lastAnswer != 0) {
            longestGap = Math.max(longestGap, now - lastAnswer);
        }
        lastAnswer = now;
    }

    private void keep(String failure) {
        if (failures.size() < KEPT_FAILURES) {
            failures.add(failure);
        }
    }

    /** Starts measuring the gaps between answers afresh (a new load). */
    synchronized void newLoad() {
        lastAnswer = 0;
        longestGap = 0;
    }

    synchronized long acked() {
        return acked;
    }

    synchronized long unknown() {
        return unknown;
    }

    synchronized long refused() {
        return refused;
    }

    synchronized long failedCount() {
        return failed;
    }

    /** The longest time between two answers since {@link #newLoad}, in milliseconds. */
    synchronized long longestGapMillis() {
        return longestGap / 1_000_000;
    }

    /**
     * Checks the ledger against the counter's stored total {@code stored}: no total told twice, none above
     * it, and {@code acked <= stored <= acked + unknown}; when {@code lossAllowed} is false, nothing refused,
     * unknown or failed, so that the totals told are exactly 1..stored.
     *
     * @throws AssertionError naming what is wrong
     */
    synchronized void check(long stored, boolean lossAllowed) {
        List<String> problems = new ArrayList<>();
        if (!toldTwice.isEmpty()) {
            problems.add("totals told twice (or out of range): " + toldTwice.subList(0, Math.min(5, toldTwice.size())));
        }
        if (stored < acked) {
            problems.add("the stored total " + stored + " lost acknowledged adds: " + acked + " were acknowledged");
        }
        if (stored > acked + unknown) {
            problems.add("the stored total " + stored + " holds adds nobody sent: acknowledged " + acked
                    + " + outcome unknown " + unknown);
        }
        int highest = told.length() - 1;
        if (highest > stored) {
            problems.add("a client was told " + highest + ", above the stored total " + stored);
        }
        if (failed > 0) {
            problems.add(failed + " requests failed");
        }
        if (!lossAllowed && (unknown > 0 || refused > 0)) {
            problems.add(unknown + " adds of unknown outcome and " + refused + " requests refused without a crash");
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("tenant " + tenant + ": " + String.join("; ", problems) + " (" + this + ")");
        }
    }

    @Override
    public synchronized String toString() {
        return tenant + ": adds sent " + adds + ", acknowledged " + acked + " (" + told.cardinality()
                + " distinct totals, highest " + (told.length() - 1) + "), outcome unknown " + unknown
                + ", refused " + refused + ", echoes " + echoes + ", failed " + failed + ", longest gap "
                + longestGap / 1_000_000 + " ms" + (failures.isEmpty() ? "" : "; first failures " + failures);
    }

    private static String describe(Throwable cause) {
        if (cause instanceof TroupeClientException error) {
            return "ERROR " + error.code() + ": " + error.detail();
        }
        return cause.toString();
    }
}
