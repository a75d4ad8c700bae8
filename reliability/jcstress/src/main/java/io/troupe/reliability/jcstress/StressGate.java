package io.troupe.reliability.jcstress;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs jcstress (its {@code Main}, with the arguments given) and fails, with exit code 1, on what jcstress itself
 * lets pass: a run in which no test ran (a filter that matches nothing), a test skipped because it has more
 * actors than the machine has CPUs (jcstress says so in one line and goes on), a test skipped because its sanity
 * check threw (a class missing from the class path: a "soft error"), planned results that never came, or
 * failed and erred results it reports without throwing. A FORBIDDEN outcome or an error also makes jcstress
 * throw (its report printer), which ends this program with a non-zero exit as well. jcstress' output is passed
 * through as it comes.
 *
 * <p><b>Threading:</b> a command-line program: its main thread waits for jcstress, which forks the test VMs.
 */
public final class StressGate {

    /** jcstress' progress line; the last one is the final count. */
    private static final Pattern RESULTS = Pattern.compile(
            "Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs");
    private static final String UNSCHEDULABLE = "these tests would not run";
    private static final String NO_FAILED_TESTS = "Failed tests: No matches.";
    private static final String NO_ERROR_TESTS = "Error tests: No matches.";

    private StressGate() {
    }

    public static void main(String[] args) throws Exception {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(new Tee(original, copy), true, StandardCharsets.UTF_8));
        try {
            org.openjdk.jcstress.Main.main(args);
        } finally {
            System.out.flush();
            System.setOut(original);
        }
        List<String> problems = verdict(copy.toString(StandardCharsets.UTF_8));
        if (!problems.isEmpty()) {
            System.err.println("jcstress FAILED: " + String.join("; ", problems)
                    + " (the report is in results/index.html)");
            System.exit(1);
        }
        System.out.println("jcstress passed: every planned test ran and no outcome was forbidden");
        System.exit(0);
    }

    /** What is wrong with a jcstress run whose output is {@code output}; empty when it passed. */
    static List<String> verdict(String output) {
        List<String> problems = new ArrayList<>();
        Matcher results = RESULTS.matcher(output);
        long[] last = null;
        while (results.find()) {
            last = new long[5];
            for (int i = 0; i < 5; i++) {
                last[i] = Long.parseLong(results.group(i + 1));
            }
        }
        if (last == null || last[0] == 0) {
            problems.add("no test ran (check the -t filter, and that the tests were compiled)");
            return problems;
        }
        if (last[2] > 0) {
            problems.add(last[2] + " test result(s) failed: a FORBIDDEN outcome was seen");
        }
        if (last[3] > 0) {
            problems.add(last[3] + " test result(s) skipped or unsure (a soft error: e.g. the test's sanity check"
                    + " threw, so it never ran)");
        }
        if (last[4] > 0) {
            problems.add(last[4] + " test result(s) erred (an exception or a crashed VM)");
        }
        if (last[1] + last[2] + last[3] + last[4] < last[0]) {
            long came = last[1] + last[2] + last[3] + last[4];
            problems.add("only " + came + " of " + last[0] + " planned results came");
        }
        if (output.contains(UNSCHEDULABLE)) {
            problems.add("some tests have more actors than this machine has CPUs and were skipped");
        }
        if (!output.contains(NO_FAILED_TESTS)) {
            problems.add("jcstress lists failed tests");
        }
        if (!output.contains(NO_ERROR_TESTS)) {
            problems.add("jcstress lists tests in error");
        }
        return problems;
    }

    /** Writes jcstress' output through to the console and into a copy for the verdict. */
    private static final class Tee extends OutputStream {
        private final PrintStream console;
        private final ByteArrayOutputStream copy;

        Tee(PrintStream console, ByteArrayOutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            console.write(bytes, offset, length);
            copy.write(bytes, offset, length);
        }

        @Override
        public void flush() {
            console.flush();
        }
    }
}
