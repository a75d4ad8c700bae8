package io.troupe.benchmarks.net;

/**
 * The command lines of the suites: {@code --quick} alone, every other option followed by its value. Walks them
 * one option at a time, so each suite's parser only says what its options mean:
 *
 * <pre>
 *   OptionArgs options = new OptionArgs(args);
 *   while (options.next()) {
 *       switch (options.name()) {
 *           case "--distribution" -&gt; distribution = options.value();
 *           default -&gt; throw options.unknown();
 *       }
 *   }
 *   boolean quick = options.quick();
 * </pre>
 *
 * <p><b>Threading:</b> one thread (the suite's main), once.
 */
public final class OptionArgs {

    private static final String QUICK = "--quick";

    private final String[] args;
    private int next;
    private boolean quick;
    private String name;
    private String value;

    public OptionArgs(String[] args) {
        this.args = args.clone();
    }

    /**
     * Moves to the next option with a value, taking {@code --quick} on the way.
     *
     * @return false once every argument was read
     * @throws IllegalArgumentException for an option without its value
     */
    public boolean next() {
        while (next < args.length && args[next].equals(QUICK)) {
            quick = true;
            next++;
        }
        if (next == args.length) {
            return false;
        }
        name = args[next++];
        if (next == args.length) {
            throw new IllegalArgumentException("unknown option or missing value: " + name);
        }
        value = args[next++];
        return true;
    }

    /** The option {@link #next} moved to, for example {@code --distribution}. */
    public String name() {
        return name;
    }

    /** Its value. */
    public String value() {
        return value;
    }

    /** The error for an option the suite does not know, to throw. */
    public IllegalArgumentException unknown() {
        return new IllegalArgumentException("unknown option " + name);
    }

    /** Whether {@code --quick} was among the arguments read so far. */
    public boolean quick() {
        return quick;
    }
}
