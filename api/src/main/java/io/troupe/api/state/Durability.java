package io.troupe.api.state;

import java.time.Duration;
import java.util.Objects;

/**
 * When a {@link Durable} actor's state is written, and so what a crash can lose.
 *
 * <table>
 *   <caption>The modes and their guarantees</caption>
 *   <tr><th>mode</th><th>written</th><th>what a crash (kill -9, power loss) can lose</th></tr>
 *   <tr><td>{@link #everyTurn()}</td><td>after every turn that changed the state, before anything the
 *       turn sent leaves the actor: replies, asks' answers and messages to other actors are held until
 *       the snapshot is durable (the store batches the turns of many actors into one sync)</td>
 *       <td>nothing a client or another actor was told: a turn whose effects were seen is on disk</td></tr>
 *   <tr><td>{@link #atMostEvery(Duration)}</td><td>at most once per interval, when the state changed;
 *       replies leave at once</td><td>up to the interval (plus one sync) of changes, even ones already
 *       acknowledged</td></tr>
 *   <tr><td>{@link #onRequest()}</td><td>when the actor calls {@link io.troupe.api.ActorContext#saveState()}
 *       </td><td>everything since the last completed save</td></tr>
 * </table>
 *
 * In every mode the state is written once more when the actor stops normally (and when the runtime
 * shuts down cleanly), so a clean restart loses nothing.
 *
 * <pre>
 * public Durability durability() {
 *     return Durability.atMostEvery(Duration.ofMillis(10));
 * }
 * </pre>
 *
 * <p><b>Threading:</b> immutable.
 */
public final class Durability {

    /** The modes of {@link Durability}. */
    public enum Mode {
        /** After every turn that changed the state, before the turn's messages leave. */
        EVERY_TURN,
        /** At most once per interval. */
        PERIODIC,
        /** When the actor asks. */
        ON_REQUEST
    }

    private static final Durability EVERY_TURN = new Durability(Mode.EVERY_TURN, Duration.ZERO);
    private static final Durability ON_REQUEST = new Durability(Mode.ON_REQUEST, Duration.ZERO);

    private final Mode mode;
    private final Duration interval;

    private Durability(Mode mode, Duration interval) {
        this.mode = mode;
        this.interval = interval;
    }

    /** After every turn that changed the state; replies wait for the write. */
    public static Durability everyTurn() {
        return EVERY_TURN;
    }

    /**
     * At most once per {@code interval} (at least 1 ms), when the state changed; replies do not wait.
     *
     * @throws IllegalArgumentException when the interval is shorter than 1 ms
     */
    public static Durability atMostEvery(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("the interval must be at least 1 ms, was " + interval);
        }
        return new Durability(Mode.PERIODIC, interval);
    }

    /** Only when the actor calls {@link io.troupe.api.ActorContext#saveState()} (and when it stops). */
    public static Durability onRequest() {
        return ON_REQUEST;
    }

    public Mode mode() {
        return mode;
    }

    /** The interval of {@link Mode#PERIODIC}; zero for the other modes. */
    public Duration interval() {
        return interval;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Durability that && that.mode == mode && that.interval.equals(interval);
    }

    @Override
    public int hashCode() {
        return mode.hashCode() * 31 + interval.hashCode();
    }

    @Override
    public String toString() {
        return mode == Mode.PERIODIC ? "every " + interval.toMillis() + " ms" : mode.name().toLowerCase();
    }
}
