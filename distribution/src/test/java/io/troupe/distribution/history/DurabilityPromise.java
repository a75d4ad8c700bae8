package io.troupe.distribution.history;

import java.time.Duration;

/**
 * What a durability mode promises a client about a crash ({@link Faults#isCrash}), in the terms a history can
 * check: which of the values clients were told before a crash the state must still hold after it.
 *
 * <table>
 * <caption>The modes of {@code io.troupe.api.state.Durability} and their promise</caption>
 * <tr><th>mode</th><th>promise</th><th>here</th></tr>
 * <tr><td>{@code everyTurn()}</td><td>nothing a client was told is lost: a reply leaves once the turn's state is
 *     on disk</td><td>{@link #everyTurn()}</td></tr>
 * <tr><td>{@code atMostEvery(d)}</td><td>what clients were told up to {@code d} (plus one sync) before the
 *     crash may be lost; anything older survives</td><td>{@link #lossWindow(Duration)} with {@code d} plus the
 *     sync time the test allows</td></tr>
 * <tr><td>not durable</td><td>a crash loses everything</td><td>{@link #none()}</td></tr>
 * </table>
 * {@code onRequest()} depends on when the actor saves, which a client cannot see: it is not modelled.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class DurabilityPromise {

    private final String name;
    private final boolean durable;
    private final long lossWindowNanos;

    private DurabilityPromise(String name, boolean durable, long lossWindowNanos) {
        this.name = name;
        this.durable = durable;
        this.lossWindowNanos = lossWindowNanos;
    }

    /** {@code Durability.everyTurn()}: nothing told is ever lost. */
    public static DurabilityPromise everyTurn() {
        return new DurabilityPromise("every turn", true, 0);
    }

    /**
     * What clients were told within {@code window} before a crash may be lost; anything told earlier survives.
     *
     * @throws IllegalArgumentException when {@code window} is negative
     */
    public static DurabilityPromise lossWindow(Duration window) {
        if (window.isNegative()) {
            throw new IllegalArgumentException("a loss window cannot be negative: " + window);
        }
        return new DurabilityPromise("loss window " + window.toMillis() + " ms", true, window.toNanos());
    }

    /** State kept in memory only: a crash loses all of it. */
    public static DurabilityPromise none() {
        return new DurabilityPromise("not durable", false, 0);
    }

    /** Whether anything survives a crash. */
    boolean durable() {
        return durable;
    }

    /** How long before a crash a value told may still be lost (0: nothing told is lost). */
    long lossWindowNanos() {
        return lossWindowNanos;
    }

    @Override
    public String toString() {
        return name;
    }
}
