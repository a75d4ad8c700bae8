package io.troupe.distribution.history;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A history as text, one {@link Event} a line, its fields separated by tabs, so that a run's history can be
 * kept beside its report, read by a person, and checked again ({@link #replay}):
 *
 * <pre>
 *   seq TAB nanos TAB type TAB process TAB op TAB f TAB key TAB value
 *   1   TAB 8812... TAB INVOKE TAB 0 TAB 1 TAB counter.add TAB alpha TAB 1
 * </pre>
 *
 * In {@code f}, {@code key} and {@code value} a backslash, a tab, a line feed and a carriage return are
 * written {@code \\}, {@code \t}, {@code \n} and {@code \r}. Lines starting with {@code #} and blank lines are
 * comments.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class HistoryFile {

    private static final int FIELDS = 8;

    private HistoryFile() {
    }

    /** The line of {@code event}, without its line feed. */
    public static String line(Event event) {
        return event.seq() + "\t" + event.nanos() + "\t" + event.type() + "\t" + event.process() + "\t" + event.op()
                + "\t" + escape(event.f()) + "\t" + escape(event.key()) + "\t" + escape(event.value());
    }

    /**
     * The events of the file at {@code path}, in file order.
     *
     * @throws IOException              when it cannot be read
     * @throws IllegalArgumentException naming the file, the line and what is wrong with it
     */
    public static List<Event> read(Path path) throws IOException {
        List<Event> events = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                events.add(parse(line, path, number));
            }
        }
        return events;
    }

    /**
     * Gives every event of the file to {@code checkers}, in order, and returns their verdicts.
     *
     * @throws IllegalArgumentException when the file is malformed, or its seqs do not increase
     */
    public static List<CheckReport> replay(Path path, List<? extends HistoryChecker> checkers) throws IOException {
        long last = 0;
        for (Event event : read(path)) {
            if (event.seq() <= last) {
                throw new IllegalArgumentException(path + ": entry #" + event.seq() + " follows #" + last
                        + "; a history's seqs must increase");
            }
            last = event.seq();
            checkers.forEach(checker -> checker.accept(event));
        }
        return checkers.stream().map(HistoryChecker::finish).toList();
    }

    private static Event parse(String line, Path path, int number) {
        String[] fields = line.split("\t", -1);
        if (fields.length != FIELDS) {
            throw malformed(path, number, "it has " + fields.length + " tab-separated fields, not " + FIELDS
                    + " (seq, nanos, type, process, op, f, key, value)");
        }
        Event.Type type;
        try {
            type = Event.Type.valueOf(fields[2]);
        } catch (IllegalArgumentException e) {
            throw malformed(path, number, "the type '" + fields[2] + "' is none of INVOKE, OK, FAIL, INFO, OBSERVE,"
                    + " FAULT");
        }
        try {
            return new Event(number(fields[0], "seq", path, number), number(fields[1], "nanos", path, number), type,
                    (int) number(fields[3], "process", path, number), number(fields[4], "op", path, number),
                    unescape(fields[5], path, number), unescape(fields[6], path, number),
                    unescape(fields[7], path, number));
        } catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith(path.toString())) {
                throw e;
            }
            throw malformed(path, number, e.getMessage());
        }
    }

    private static long number(String text, String field, Path path, int line) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw malformed(path, line, "the " + field + " '" + text + "' is not a whole number");
        }
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static String unescape(String text, Path path, int line) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i == text.length()) {
                throw malformed(path, line, "a field ends with a lone backslash");
            }
            switch (text.charAt(i)) {
                case '\\' -> out.append('\\');
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                default -> throw malformed(path, line, "'\\" + text.charAt(i) + "' is not an escape (\\\\, \\t, \\n,"
                        + " \\r)");
            }
        }
        return out.toString();
    }

    private static IllegalArgumentException malformed(Path path, int line, String why) {
        return new IllegalArgumentException(path + ", line " + line + ": " + why);
    }
}
