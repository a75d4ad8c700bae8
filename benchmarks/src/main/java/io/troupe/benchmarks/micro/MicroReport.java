package io.troupe.benchmarks.micro;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.util.Statistics;

import io.troupe.benchmarks.LineCount;

/**
 * The markdown of {@link MicroSuite}: a table each for the mailbox, the frame codec and the logger
 * (Troupe beside Log4j2 and Logback, with the lines counted in each file, since a result that lost
 * records is not a result), then JMH's own result table. Tables leave out what was not run.
 *
 * <p>Threading: confined to the thread that made it.
 */
final class MicroReport {

    private static final String[] IMPLS = {"troupe", "log4j2", "logback"};
    private static final String LOGGER_CLASS = "io.troupe.benchmarks.LoggerBenchmark.";
    private static final int[] LOGGER_THREADS = {1, 2, 4};

    private final MicroSettings settings;
    private final Collection<RunResult> results;
    private final List<LineCount> counts;

    MicroReport(MicroSettings settings, Collection<RunResult> results, List<LineCount> counts) {
        this.settings = settings;
        this.results = results;
        this.counts = counts;
    }

    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(settings.describe()).append("; ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(".\n\n");
        mailbox(out);
        codec(out);
        logger(out);
        out.append("JMH's own table:\n\n```\n").append(jmhTable()).append("```\n");
        return out.toString();
    }

    private void mailbox(StringBuilder out) {
        String bench = MailboxBenchmark.class.getName() + ".";
        Optional<RunResult> alone = find(bench + "offerPoll", null, null);
        Optional<RunResult> one = find(bench + "oneProducer", null, null);
        Optional<RunResult> four = find(bench + "fourProducers", null, null);
        if (alone.isEmpty() && one.isEmpty() && four.isEmpty()) {
            return;
        }
        out.append("### Mailbox: `io.troupe.host.mailbox.Mailbox`, capacity ")
                .append(String.format(Locale.ROOT, "%,d", MailboxBenchmark.CAPACITY)).append("\n\n");
        out.append("| benchmark | threads | offers/s | polls/s |\n|---|---:|---:|---:|\n");
        alone.ifPresent(r -> out.append("| offer + poll, one thread (pairs/s) | 1 | ")
                .append(number(r.getPrimaryResult().getScore())).append(" | ")
                .append(number(r.getPrimaryResult().getScore())).append(" |\n"));
        one.ifPresent(r -> groupRow(out, "one producer, one consumer", "1 + 1", r, "oneProducer"));
        four.ifPresent(r -> groupRow(out, "four producers, one consumer", "4 + 1", r, "fourProducers"));
        out.append('\n');
    }

    private static void groupRow(StringBuilder out, String label, String threads, RunResult result, String group) {
        out.append("| ").append(label).append(" | ").append(threads).append(" | ")
                .append(secondary(result, group + "Offer")).append(" | ")
                .append(secondary(result, group + "Poll")).append(" |\n");
    }

    private void codec(StringBuilder out) {
        String bench = CodecBenchmark.class.getName() + ".";
        List<String> rows = new ArrayList<>();
        for (String op : List.of("encode", "decode", "decodeDirect")) {
            for (String size : List.of("64", "4096")) {
                find(bench + op, "payloadBytes", size).ifPresent(r -> {
                    double frames = r.getPrimaryResult().getScore();
                    int frameBytes = CodecBenchmark.frameBytes(Integer.parseInt(size));
                    String label = op.equals("decodeDirect") ? "decode (from a direct buffer)" : op;
                    rows.add("| " + label + " | " + size + " | " + frameBytes + " | " + number(frames) + " | "
                            + number(frames * frameBytes / 1e6) + " |");
                });
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append("### Frame codec: `FrameEncoder` / `FrameDecoder`, CRC-32C included\n\n");
        out.append("| operation | payload (B) | frame (B) | frames/s | MB/s |\n|---|---:|---:|---:|---:|\n");
        rows.forEach(row -> out.append(row).append('\n'));
        out.append("\nMB = 10^6 bytes of whole frames (length field, header, name, payload, CRC).\n\n");
    }

    private void logger(StringBuilder out) {
        List<String[]> rows = new ArrayList<>();
        for (int threads : LOGGER_THREADS) {
            loggerRow(rows, "records/s, " + threads(threads), "throughput" + method(threads), true);
        }
        for (int threads : LOGGER_THREADS) {
            for (double p : new double[] {50, 99, 99.9}) {
                sampledRow(rows, threads, p);
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        out.append("### Logger: 100-byte INFO records to a file, Troupe vs Log4j2 (all async) vs Logback (AsyncAppender)\n\n");
        out.append("| benchmark | Troupe | Log4j2 | Logback | Troupe vs Log4j2 | Troupe vs Logback |\n"
                + "|---|---:|---:|---:|---:|---:|\n");
        for (String[] row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        out.append("\nRatios above 1.0 favour Troupe (for times, the other's time over Troupe's). The targets: records/s"
                + " at least Log4j2's at every thread count, p99 no worse than Logback's. A cell marked "
                + "*lost* comes from a fork that neither wrote nor counted some of its records: not a valid result. "
                + "*dropped* is the share of calls the logger dropped at its buffer cap after waiting, and counted "
                + "(Troupe's policy at the cap; Log4j2 and Logback make callers wait instead). The files were "
                + "written under `" + MicroSuite.loggerFolder() + "` (`/dev/shm` unless `-Dbench.dir` says otherwise: "
                + "on a disk, the kernel's writeback of dirty pages takes the benchmark's cores in the middle of the "
                + "forks that wrote the most).\n\n");
        if (!counts.isEmpty()) {
            out.append("Records counted in each fork's file:\n\n");
            out.append("| benchmark | impl | calls | lines | dropped (counted) | lost |\n|---|---|---:|---:|---:|---:|\n");
            for (LineCount c : counts) {
                out.append("| ").append(shortName(c.benchmark())).append(" | ").append(c.impl()).append(" | ")
                        .append(count(c.calls())).append(" | ").append(count(c.lines())).append(" | ")
                        .append(count(c.dropped())).append(" | ").append(count(c.lost()))
                        .append(c.lost() != 0 ? String.format(Locale.ROOT, " (%.0f %%)", 100 * c.lostShare()) : "")
                        .append(" |\n");
            }
            out.append('\n');
        }
    }

    /** One row of the logger table; {@code higherIsBetter} for rates, not for times. */
    private void loggerRow(List<String[]> rows, String label, String method, boolean higherIsBetter) {
        double[] scores = new double[IMPLS.length];
        String[] row = new String[IMPLS.length + 3];
        row[0] = label;
        boolean any = false;
        for (int i = 0; i < IMPLS.length; i++) {
            Optional<RunResult> result = find(LOGGER_CLASS + method, "impl", IMPLS[i]);
            if (result.isPresent()) {
                any = true;
                scores[i] = result.get().getPrimaryResult().getScore();
                row[i + 1] = number(scores[i]) + lostMark(method, IMPLS[i]);
            } else {
                row[i + 1] = "";
            }
        }
        if (!any) {
            return;
        }
        row[IMPLS.length + 1] = ratio(higherIsBetter ? scores[0] : scores[1], higherIsBetter ? scores[1] : scores[0]);
        row[IMPLS.length + 2] = ratio(higherIsBetter ? scores[0] : scores[2], higherIsBetter ? scores[2] : scores[0]);
        rows.add(row);
    }

    private void sampledRow(List<String[]> rows, int threads, double percentile) {
        String method = "sampled" + method(threads);
        double[] scores = new double[IMPLS.length];
        String[] row = new String[IMPLS.length + 3];
        row[0] = "ns per call, " + threads(threads) + ", p" + (percentile == Math.rint(percentile)
                ? Integer.toString((int) percentile) : Double.toString(percentile));
        boolean any = false;
        for (int i = 0; i < IMPLS.length; i++) {
            Optional<RunResult> result = find(LOGGER_CLASS + method, "impl", IMPLS[i]);
            if (result.isPresent()) {
                any = true;
                Statistics statistics = result.get().getPrimaryResult().getStatistics();
                scores[i] = statistics.getPercentile(percentile);
                row[i + 1] = number(scores[i]) + lostMark(method, IMPLS[i]);
            } else {
                row[i + 1] = "";
            }
        }
        if (any) {
            row[IMPLS.length + 1] = ratio(scores[1], scores[0]);
            row[IMPLS.length + 2] = ratio(scores[2], scores[0]);
            rows.add(row);
        }
    }

    /** "1Thread", "2Threads": how the benchmark methods are named. */
    private static String method(int threads) {
        return threads == 1 ? "1Thread" : threads + "Threads";
    }

    private static String threads(int threads) {
        return threads == 1 ? "1 thread" : threads + " threads";
    }

    /**
     * " *lost N %*" if the fork of {@code method} with {@code impl} lost records, else " (dropped N %)"
     * if the logger counted drops at its cap, else nothing.
     */
    private String lostMark(String method, String impl) {
        for (LineCount c : counts) {
            if (c.impl().equals(impl) && c.benchmark().endsWith("." + method)) {
                if (c.lost() != 0) {
                    return String.format(Locale.ROOT, " *lost %.0f %%*", 100 * c.lostShare());
                }
                if (c.dropped() != 0) {
                    return String.format(Locale.ROOT, " (dropped %.1f %%)", 100.0 * c.dropped() / c.calls());
                }
            }
        }
        return "";
    }

    private Optional<RunResult> find(String benchmark, String param, String value) {
        for (RunResult result : results) {
            if (result.getParams().getBenchmark().equals(benchmark)
                    && (param == null || value.equals(result.getParams().getParam(param)))) {
                return Optional.of(result);
            }
        }
        return Optional.empty();
    }

    private static String secondary(RunResult result, String label) {
        Result<?> r = result.getSecondaryResults().get(label);
        return r == null ? "" : number(r.getScore());
    }

    private String jmhTable() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.TEXT, print).writeOut(results);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String shortName(String benchmark) {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    private static String ratio(double numerator, double denominator) {
        if (numerator <= 0 || denominator <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2f×", numerator / denominator);
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String number(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
