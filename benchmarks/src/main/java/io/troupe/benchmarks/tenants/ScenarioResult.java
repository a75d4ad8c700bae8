package io.troupe.benchmarks.tenants;

import java.util.ArrayList;
import java.util.List;

/**
 * One scenario's measurements: B alone, A alone, and both together, on one server.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param scenario the scenario
 * @param shape    A's load in it
 * @param bAlone   B with the server to itself
 * @param bBesideHog B with the server to itself while a {@link CpuHog} spins on every core
 * @param aAlone   A with the server to itself
 * @param bBeside  B while A's load runs
 * @param aBeside  A while B's loop runs
 * @param notes    what the report should say about this scenario (features the server lacks, ...)
 * @param failure  why the scenario could not be measured, or null; the measurements are then null
 */
record ScenarioResult(Scenario scenario, LoadShape shape, VictimResult bAlone, VictimResult bBesideHog,
        LoadResult aAlone, VictimResult bBeside, LoadResult aBeside, List<String> notes, String failure) {

    ScenarioResult {
        notes = List.copyOf(notes);
    }

    static ScenarioResult failed(Scenario scenario, LoadShape shape, List<String> notes, String failure) {
        return new ScenarioResult(scenario, shape, null, null, null, null, null, notes, failure);
    }

    boolean measured() {
        return failure == null;
    }

    /** B's p99 beside A over B's p99 alone. */
    double victimRatio() {
        return (double) bBeside.p99() / bAlone.p99();
    }

    /**
     * B's p99 beside A over B's p99 beside the hog: how much worse than the operating system's floor
     * on this machine B fares beside A (1 or less: no worse than beside any program taking every core).
     */
    double floorRatio() {
        return (double) bBeside.p99() / bBesideHog.p99();
    }

    /** A's throughput beside B over A's throughput alone. */
    double loadRatio() {
        return aBeside.requestsPerSecond() / aAlone.requestsPerSecond();
    }

    /** Why these numbers are not a valid measurement, or null when they are. */
    String problem() {
        if (failure != null) {
            return failure;
        }
        List<String> problems = new ArrayList<>();
        victimProblem("B alone", bAlone, problems);
        victimProblem("B beside the hog", bBesideHog, problems);
        victimProblem("B beside A", bBeside, problems);
        if (aAlone.replies() == 0) {
            problems.add("A alone got no replies" + why(aAlone.firstFailure()));
        }
        if (aBeside.replies() == 0) {
            problems.add("A beside B got no replies" + why(aBeside.firstFailure()));
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private static void victimProblem(String phase, VictimResult result, List<String> problems) {
        if (result.failure() != null) {
            problems.add(phase + " stopped: " + result.failure());
        } else if (result.requests() == 0) {
            problems.add(phase + " measured no request");
        }
        if (result.errors() > 0) {
            problems.add(phase + ": " + result.errors() + " bad answers, the first: " + result.firstError());
        }
    }

    private static String why(String failure) {
        return failure == null ? "" : " (" + failure + ")";
    }
}
