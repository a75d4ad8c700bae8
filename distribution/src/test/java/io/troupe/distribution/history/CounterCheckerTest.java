package io.troupe.distribution.history;

import static io.troupe.distribution.history.CounterChecker.ADD;
import static io.troupe.distribution.history.CounterChecker.GET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The counter checker on histories written by hand: valid ones pass, and each kind of violation is found. */
class CounterCheckerTest {

    private static final String T = "alpha";

    @Test
    void acknowledgedAddsUnknownOutcomesAndAKillWithNothingLostAreValid() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1").call(2, ADD, T, "1", "2");
        long unknown = script.invoke(1, ADD, T, "1");
        long concurrent = script.invoke(2, ADD, T, "1");
        script.ok(concurrent, "4").info(unknown, "connection lost").fault(Faults.KILL);
        script.call(3, GET, T, "", "4").call(1, ADD, T, "1", "5");
        long failed = script.invoke(2, ADD, T, "1");
        script.fail(failed, "ERROR state.unavailable").call(3, GET, T, "", "5");

        CheckReport report = script.check(new CounterChecker(DurabilityPromise.everyTurn()));

        assertTrue(report.valid(), report::toString);
        assertTrue(report.summary().get(1).contains("adds invoked 6, acknowledged 4, failed 1, outcome unknown 1"),
                report::toString);
    }

    @Test
    void anAcknowledgedAddMissingAfterAKillIsFound() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1").call(1, ADD, T, "1", "2").call(1, ADD, T, "1", "3").fault(Faults.KILL);
        script.call(2, GET, T, "", "2");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "too-low");
    }

    @Test
    void aValueNobodyAddedIsFound() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1").call(2, GET, T, "", "5");
        script.call(1, ADD, "beta", "1", "1");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "phantom");
    }

    @Test
    void aFailedAddThatTookEffectIsFound() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1");
        script.fail(script.invoke(1, ADD, T, "1"), "ERROR handler.failed");
        script.call(2, GET, T, "", "2");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "phantom");
    }

    @Test
    void twoConcurrentAddsToldTheSameTotalAreFound() {
        Script script = new Script();
        long first = script.invoke(1, ADD, T, "1");
        long second = script.invoke(2, ADD, T, "1");
        script.ok(first, "1").ok(second, "1");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "duplicate-total");
    }

    @Test
    void aReadThatGoesBackAfterAKillIsFoundThoughNoAddWasLost() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1");
        long lost = script.invoke(1, ADD, T, "1");
        script.call(2, GET, T, "", "2").info(lost, "connection lost").fault(Faults.KILL);
        script.call(2, GET, T, "", "1");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "too-low");
    }

    @Test
    void aLossWindowLetsACrashLoseOnlyWhatWasToldWithinIt() {
        Script recent = new Script();
        recent.call(1, ADD, T, "1", "1").after(Duration.ofSeconds(1)).call(1, ADD, T, "1", "2").fault(Faults.KILL);
        recent.call(2, GET, T, "", "1").call(1, ADD, T, "1", "2");
        DurabilityPromise window = DurabilityPromise.lossWindow(Duration.ofMillis(100));
        CheckReport withinWindow = recent.check(new CounterChecker(window));
        assertTrue(withinWindow.valid(), withinWindow::toString);

        Script old = new Script();
        old.call(1, ADD, T, "1", "1").after(Duration.ofSeconds(1)).call(1, ADD, T, "1", "2");
        old.after(Duration.ofSeconds(1)).fault(Faults.KILL).call(2, GET, T, "", "1");
        assertKinds(old.check(new CounterChecker(window)), "too-low");
    }

    @Test
    void stateThatIsNotDurableMayStartAgainAtZeroAfterACrash() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1").call(1, ADD, T, "1", "2").fault(Faults.KILL);
        script.call(2, GET, T, "", "0").call(1, ADD, T, "1", "1");

        CheckReport report = script.check(new CounterChecker(DurabilityPromise.none()));

        assertTrue(report.valid(), report::toString);
    }

    @Test
    void aHotSwapIsNotACrashSoNothingMayBeLostAcrossIt() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "1").fault(Faults.SWAP).fault(Faults.SWAPPED).call(2, GET, T, "", "0");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.none())), "too-low");
    }

    @Test
    void aReplyThatIsNotANumberIsFound() {
        Script script = new Script();
        script.call(1, ADD, T, "1", "one");

        assertKinds(script.check(new CounterChecker(DurabilityPromise.everyTurn())), "unreadable");
    }

    static void assertKinds(CheckReport report, String... kinds) {
        assertEquals(List.of(kinds), report.violations().stream().map(Violation::kind).distinct().toList(),
                report::toString);
        assertEquals(report.violations().size(), report.count(), report::toString);
    }
}
