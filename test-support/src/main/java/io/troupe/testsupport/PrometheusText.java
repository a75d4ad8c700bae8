package io.troupe.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of a Prometheus scrape, in the text format 0.0.4 or OpenMetrics 1.0 text, for tests that
 * check what {@code /metrics} serves. It refuses with the line and the reason whatever a Prometheus server
 * would refuse, and more: a sample without a {@code # TYPE}, a family's samples split apart, a series twice,
 * a malformed name, label or value, a counter below zero, a histogram whose buckets are not cumulative or whose
 * {@code +Inf} bucket is not its count; in OpenMetrics also a missing {@code # EOF} or a blank line.
 *
 * <pre>
 * PrometheusText.Scrape scrape = PrometheusText.parse(body, PrometheusText.Format.TEXT);
 * double requests = scrape.value("troupe_requests_total", "tenant", "acme");
 * assertEquals("counter", scrape.family("troupe_requests_total").type());
 * </pre>
 *
 * Not supported (refused as malformed): exemplars, timestamps on OpenMetrics samples that Troupe does not
 * write, and summaries' quantile checks (accepted as written).
 *
 * <p><b>Threading:</b> {@link #parse} is stateless; a {@link Scrape} is immutable.
 */
public final class PrometheusText {

    /** The two text formats. */
    public enum Format {
        /** {@code text/plain; version=0.0.4}: a counter family is named with its {@code _total}. */
        TEXT,
        /** {@code application/openmetrics-text; version=1.0.0}: a counter family is named without it. */
        OPENMETRICS
    }

    /** One sample line: a series (name and labels) and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        public Sample {
            labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        }
    }

    /** One metric family: its {@code # TYPE}, {@code # HELP}, {@code # UNIT} (OpenMetrics) and samples. */
    public record Family(String name, String type, String help, String unit, List<Sample> samples) {
        public Family {
            samples = List.copyOf(samples);
        }
    }

    /** A parsed scrape: its families by name, in the order written. */
    public record Scrape(Map<String, Family> families) {
        public Scrape {
            families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
        }

        /** The family named {@code name}; fails naming the families there are when it is absent. */
        public Family family(String name) {
            Family family = families.get(name);
            if (family == null) {
                throw new AssertionError("no family " + name + " in the scrape; there are " + families.keySet());
            }
            return family;
        }

        /** Every sample of every family. */
        public List<Sample> samples() {
            List<Sample> all = new ArrayList<>();
            families.values().forEach(family -> all.addAll(family.samples()));
            return all;
        }

        /** Whether a sample of this series exists. */
        public boolean has(String sampleName, String... labelPairs) {
            Map<String, String> labels = pairs(labelPairs);
            return samples().stream().anyMatch(s -> s.name().equals(sampleName) && s.labels().equals(labels));
        }

        /**
         * The value of the series {@code sampleName} with exactly the labels {@code labelPairs} (name, value,
         * name, value...); fails naming the series of that name there are when it is absent.
         */
        public double value(String sampleName, String... labelPairs) {
            Map<String, String> labels = pairs(labelPairs);
            List<Map<String, String>> seen = new ArrayList<>();
            for (Sample sample : samples()) {
                if (sample.name().equals(sampleName)) {
                    if (sample.labels().equals(labels)) {
                        return sample.value();
                    }
                    seen.add(sample.labels());
                }
            }
            throw new AssertionError("no sample " + sampleName + labels + "; with that name there are " + seen);
        }

        private static Map<String, String> pairs(String... labelPairs) {
            if (labelPairs.length % 2 != 0) {
                throw new IllegalArgumentException("label names and values come in pairs: "
                        + List.of(labelPairs));
            }
            Map<String, String> labels = new TreeMap<>();
            for (int i = 0; i < labelPairs.length; i += 2) {
                labels.put(labelPairs[i], labelPairs[i + 1]);
            }
            return labels;
        }
    }

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern FLOAT = Pattern.compile(
            "[+-]?(Inf|NaN|(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");
    private static final Set<String> TEXT_TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    private static final Set<String> OPENMETRICS_TYPES = Set.of("counter", "gauge", "histogram", "summary",
            "unknown", "info", "stateset", "gaugehistogram");

    private PrometheusText() {
    }

    /**
     * Parses {@code body} as {@code format}.
     *
     * @throws IllegalArgumentException naming the line and what is wrong with it
     */
    public static Scrape parse(String body, Format format) {
        return new Parser(body, format).parse();
    }

    /** The state of one parse. */
    private static final class Parser {

        private final String body;
        private final Format format;
        private final Map<String, String> types = new LinkedHashMap<>();
        private final Map<String, String> helps = new LinkedHashMap<>();
        private final Map<String, String> units = new LinkedHashMap<>();
        private final Map<String, List<Sample>> samples = new LinkedHashMap<>();
        private final Set<String> series = new HashSet<>();
        private final Set<String> closed = new HashSet<>();
        private String current;
        private int lineNumber;

        Parser(String body, Format format) {
            this.body = body;
            this.format = format;
        }

        Scrape parse() {
            if (body.isEmpty() && format == Format.TEXT) {
                return new Scrape(Map.of()); // no family at all
            }
            if (!body.endsWith("\n")) {
                throw new IllegalArgumentException("the scrape does not end with a line feed");
            }
            String[] lines = body.substring(0, body.length() - 1).split("\n", -1);
            boolean eof = false;
            for (String line : lines) {
                lineNumber++;
                if (eof) {
                    fail(line, "text after # EOF");
                }
                if (format == Format.OPENMETRICS && line.equals("# EOF")) {
                    eof = true;
                } else if (line.isEmpty()) {
                    if (format == Format.OPENMETRICS) {
                        fail(line, "a blank line in OpenMetrics");
                    }
                } else if (line.startsWith("#")) {
                    comment(line);
                } else {
                    sample(line);
                }
            }
            if (format == Format.OPENMETRICS && !eof) {
                throw new IllegalArgumentException("the OpenMetrics scrape does not end with # EOF");
            }
            Map<String, Family> families = new LinkedHashMap<>();
            for (Map.Entry<String, String> type : types.entrySet()) {
                String name = type.getKey();
                List<Sample> of = samples.getOrDefault(name, List.of());
                if (type.getValue().equals("histogram")) {
                    checkHistogram(name, of);
                }
                families.put(name, new Family(name, type.getValue(), helps.get(name), units.get(name), of));
            }
            return new Scrape(families);
        }

        private void comment(String line) {
            String[] parts = line.split(" ", 4);
            if (parts.length < 3 || !parts[0].equals("#")
                    || !(parts[1].equals("HELP") || parts[1].equals("TYPE") || parts[1].equals("UNIT"))) {
                if (format == Format.OPENMETRICS) {
                    fail(line, "OpenMetrics allows only # HELP, # TYPE, # UNIT and # EOF");
                }
                return; // a plain comment in the text format
            }
            String name = parts[2];
            String text = parts.length == 4 ? parts[3] : "";
            checkName(line, name);
            switch (parts[1]) {
                case "TYPE" -> {
                    Set<String> allowed = format == Format.TEXT ? TEXT_TYPES : OPENMETRICS_TYPES;
                    if (!allowed.contains(text)) {
                        fail(line, "unknown type '" + text + "'");
                    }
                    if (types.containsKey(name)) {
                        fail(line, "a second # TYPE for " + name);
                    }
                    if (samples.containsKey(name)) {
                        fail(line, "# TYPE of " + name + " after its samples");
                    }
                    startFamily(line, name);
                    types.put(name, text);
                }
                case "HELP" -> {
                    if (helps.put(name, unescape(line, text, false)) != null) {
                        fail(line, "a second # HELP for " + name);
                    }
                    startFamily(line, name);
                }
                default -> {
                    if (format == Format.TEXT) {
                        fail(line, "# UNIT is OpenMetrics only");
                    }
                    if (!name.endsWith("_" + text)) {
                        fail(line, "the unit " + text + " is not the suffix of " + name);
                    }
                    units.put(name, text);
                    startFamily(line, name);
                }
            }
        }

        private void startFamily(String line, String name) {
            if (!name.equals(current)) {
                if (closed.contains(name)) {
                    fail(line, "the metadata of " + name + " is split apart");
                }
                if (current != null) {
                    closed.add(current);
                }
                current = name;
            }
        }

        private void sample(String line) {
            int at = 0;
            while (at < line.length() && line.charAt(at) != '{' && line.charAt(at) != ' ') {
                at++;
            }
            String name = line.substring(0, at);
            checkName(line, name);
            Map<String, String> labels = new TreeMap<>();
            if (at < line.length() && line.charAt(at) == '{') {
                at = labels(line, at + 1, labels);
            }
            if (at >= line.length() || line.charAt(at) != ' ') {
                fail(line, "no space before the value");
            }
            String[] rest = line.substring(at + 1).split(" ", -1);
            if (rest.length > (format == Format.TEXT ? 2 : 1)) {
                fail(line, "more after the value than a timestamp");
            }
            double value = number(line, rest[0]);
            if (rest.length == 2 && !rest[1].matches("-?\\d+")) {
                fail(line, "the timestamp '" + rest[1] + "' is not an integer");
            }
            String family = familyOf(line, name);
            if (!family.equals(current)) {
                if (closed.contains(family)) {
                    fail(line, "the samples of " + family + " are split apart");
                }
                if (current != null) {
                    closed.add(current);
                }
                current = family;
            }
            if (!series.add(name + labels)) {
                fail(line, "the series " + name + labels + " twice");
            }
            String type = types.get(family);
            if (type.equals("counter") && !(value >= 0)) {
                fail(line, "a counter below zero or NaN");
            }
            if (type.equals("histogram") && name.endsWith("_bucket") && !labels.containsKey("le")) {
                fail(line, "a histogram bucket without le");
            }
            samples.computeIfAbsent(family, key -> new ArrayList<>()).add(new Sample(name, labels, value));
        }

        /** The family a sample belongs to, by the {@code # TYPE} lines seen so far. */
        private String familyOf(String line, String name) {
            if (types.containsKey(name)) {
                String type = types.get(name);
                boolean plain = switch (type) {
                    case "counter" -> format == Format.TEXT;
                    case "histogram", "gaugehistogram", "info" -> false;
                    default -> true;
                };
                if (plain) {
                    return name;
                }
            }
            for (String suffix : List.of("_total", "_created", "_bucket", "_sum", "_count", "_info", "_gcount",
                    "_gsum")) {
                if (name.endsWith(suffix)) {
                    String family = name.substring(0, name.length() - suffix.length());
                    String type = types.get(family);
                    if (type != null && suffixFits(type, suffix)) {
                        return family;
                    }
                }
            }
            fail(line, "the sample " + name + " belongs to no family declared by # TYPE");
            return null;
        }

        private boolean suffixFits(String type, String suffix) {
            return switch (type) {
                case "counter" -> format == Format.OPENMETRICS && (suffix.equals("_total")
                        || suffix.equals("_created"));
                case "histogram" -> suffix.equals("_bucket") || suffix.equals("_sum") || suffix.equals("_count")
                        || format == Format.OPENMETRICS && suffix.equals("_created");
                case "summary" -> suffix.equals("_sum") || suffix.equals("_count") || suffix.equals("_created");
                case "gaugehistogram" -> suffix.equals("_bucket") || suffix.equals("_gcount")
                        || suffix.equals("_gsum");
                case "info" -> suffix.equals("_info");
                default -> false;
            };
        }

        /** Reads {@code name="value",...}} from {@code at}; returns the index after the closing brace. */
        private int labels(String line, int at, Map<String, String> labels) {
            int i = at;
            while (true) {
                if (i < line.length() && line.charAt(i) == '}') {
                    return i + 1;
                }
                int equals = line.indexOf('=', i);
                if (equals < 0) {
                    fail(line, "a label without '='");
                }
                String name = line.substring(i, equals);
                if (!LABEL_NAME.matcher(name).matches()) {
                    fail(line, "the label name '" + name + "' is malformed");
                }
                if (equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
                    fail(line, "the value of label " + name + " is not quoted");
                }
                StringBuilder value = new StringBuilder();
                int j = equals + 2;
                while (true) {
                    if (j >= line.length()) {
                        fail(line, "the value of label " + name + " is not closed");
                    }
                    char c = line.charAt(j);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\') {
                        j++;
                        char escaped = j < line.length() ? line.charAt(j) : ' ';
                        switch (escaped) {
                            case '\\' -> value.append('\\');
                            case '"' -> value.append('"');
                            case 'n' -> value.append('\n');
                            default -> fail(line, "the escape \\" + escaped + " in label " + name);
                        }
                    } else {
                        value.append(c);
                    }
                    j++;
                }
                if (labels.put(name, value.toString()) != null) {
                    fail(line, "the label " + name + " twice");
                }
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') {
                    i++;
                    if (format == Format.OPENMETRICS && i < line.length() && line.charAt(i) == '}') {
                        fail(line, "a comma before '}' in OpenMetrics");
                    }
                } else if (i >= line.length() || line.charAt(i) != '}') {
                    fail(line, "labels not separated by ',' or closed by '}'");
                }
            }
        }

        private void checkHistogram(String family, List<Sample> of) {
            Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
            Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
            for (Sample sample : of) {
                if (sample.name().equals(family + "_bucket")) {
                    Map<String, String> series = new TreeMap<>(sample.labels());
                    series.remove("le");
                    buckets.computeIfAbsent(series, key -> new ArrayList<>()).add(sample);
                } else if (sample.name().equals(family + "_count")) {
                    counts.put(sample.labels(), sample.value());
                }
            }
            for (Map.Entry<Map<String, String>, List<Sample>> series : buckets.entrySet()) {
                double previousBound = Double.NEGATIVE_INFINITY;
                double previousCount = 0;
                for (Sample bucket : series.getValue()) {
                    double bound = number(family, bucket.labels().get("le"));
                    if (!(bound > previousBound)) {
                        throw new IllegalArgumentException(family + series.getKey() + ": le " + bound
                                + " does not follow " + previousBound);
                    }
                    if (bucket.value() < previousCount) {
                        throw new IllegalArgumentException(family + series.getKey() + ": bucket le=" + bound
                                + " holds " + bucket.value() + ", fewer than the one before (" + previousCount
                                + "): not cumulative");
                    }
                    previousBound = bound;
                    previousCount = bucket.value();
                }
                if (previousBound != Double.POSITIVE_INFINITY) {
                    throw new IllegalArgumentException(family + series.getKey() + ": no +Inf bucket");
                }
                Double count = counts.get(series.getKey());
                if (count == null || count != previousCount) {
                    throw new IllegalArgumentException(family + series.getKey() + ": _count " + count
                            + " is not the +Inf bucket's " + previousCount);
                }
            }
        }

        private void checkName(String line, String name) {
            if (!METRIC_NAME.matcher(name).matches()) {
                fail(line, "the metric name '" + name + "' is malformed");
            }
        }

        private double number(String line, String text) {
            if (text == null || !FLOAT.matcher(text).matches()) {
                fail(line, "'" + text + "' is not a number");
            }
            return switch (text) {
                case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN", "+NaN", "-NaN" -> Double.NaN;
                default -> Double.parseDouble(text);
            };
        }

        private String unescape(String line, String text, boolean quotes) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = ++i < text.length() ? text.charAt(i) : ' ';
                switch (escaped) {
                    case '\\' -> out.append('\\');
                    case 'n' -> out.append('\n');
                    case '"' -> {
                        if (!quotes && format == Format.TEXT) {
                            fail(line, "the escape \\\" in a # HELP of the text format");
                        }
                        out.append('"');
                    }
                    default -> fail(line, "the escape \\" + escaped);
                }
            }
            return out.toString();
        }

        private void fail(String line, String reason) {
            throw new IllegalArgumentException("line " + lineNumber + " '" + line + "': " + reason);
        }
    }
}
