package io.troupe.distribution.history;

/**
 * What a workload's requests came to: how many were acknowledged, certainly failed, or ended of unknown
 * outcome, and the first that did not succeed.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param acknowledged requests answered
 * @param failed       requests that certainly did not take effect
 * @param unknown      requests of unknown outcome
 * @param firstProblem the first failed or unknown one, or "none"
 */
public record Tally(long acknowledged, long failed, long unknown, String firstProblem) {

    /** Failed or of unknown outcome. */
    public long problems() {
        return failed + unknown;
    }

    /** What happened between {@code earlier} and this one. */
    public Tally since(Tally earlier) {
        return new Tally(acknowledged - earlier.acknowledged, failed - earlier.failed, unknown - earlier.unknown,
                firstProblem);
    }

    @Override
    public String toString() {
        return "acknowledged " + acknowledged + ", failed " + failed + ", unknown " + unknown
                + (problems() == 0 ? "" : " (first problem of the run: " + firstProblem + ")");
    }
}
