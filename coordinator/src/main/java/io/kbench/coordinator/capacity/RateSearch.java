package io.kbench.coordinator.capacity;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * The search of {@code kbench run --find-max-rate}: which target rate to try next, given which passed and which
 * failed. From a start rate it brackets — multiplying by {@code growth} while trials pass, halving while they
 * fail — and then bisects between the highest rate that passed and the lowest that failed above it, until the
 * two are within {@code precision} of each other, the trials run out, or no rate down to {@code minRate}
 * passes.
 *
 * <p>Trials are noisy (a GC pause or a neighbour's burst can saturate one interval of a healthy rate), so no
 * single trial decides: a rate that fails is run again at once (phase {@code retry}) and is ruled out only when
 * that fails too; and once converged, the rate found is run again (phase {@code confirm}) unless it passed twice
 * already. A rate with one pass and one failure gets a third trial at once: every rate is decided best of
 * three, and one that fails twice becomes the upper end, the bisection going on below it. The rate reported
 * ({@link #answer}) passed more trials than it failed: 2 of 2, or 2 of 3, once {@link #settled}; {@link #tally}
 * gives the counts for the confidence the search reports. The search assumes that a cluster that sustains a rate sustains every lower one. Pure.
 *
 * <p>Not thread-safe; one search per instance.
 */
public final class RateSearch {
    /** How a rate was chosen. */
    public enum Phase { bracket, bisect, retry, confirm }

    /** The next trial: its rate and why. */
    public record Step(long rate, Phase phase) { }

    private final long start;
    private final long minRate;
    private final long maxRate;
    private final double precision;
    private final int maxTrials;
    private final double growth;
    private int trials;
    private final java.util.TreeSet<Long> passes = new java.util.TreeSet<>(); // rates that passed, below failed
    private final java.util.Map<Long, int[]> history = new java.util.HashMap<>(); // rate -> {passes, failures}
    private long retry; // a rate that failed once, to run again; 0: none
    private long failed = Long.MAX_VALUE; // lowest rate that failed; MAX: none
    private Phase phase = Phase.bracket;
    private String stopped;

    /**
     * @param start     the first rate to try (msg/s)
     * @param minRate   the lowest rate worth trying (every producer needs 1 msg/s)
     * @param maxRate   the highest rate a workload may ask for
     * @param precision stop when the bracket is narrower than this fraction of its upper end (0.02: 2%)
     * @param maxTrials trials this search may run (those already run by the caller, such as a probe, subtracted)
     * @param growth    factor above the highest passing rate while no rate has failed (more than 1)
     */
    public RateSearch(long start, long minRate, long maxRate, double precision, int maxTrials, double growth) {
        if (minRate < 1 || maxRate < minRate || precision <= 0 || precision >= 1 || growth <= 1) {
            throw new IllegalArgumentException("bad search bounds");
        }
        this.start = Math.max(minRate, Math.min(maxRate, start));
        this.minRate = minRate;
        this.maxRate = maxRate;
        this.precision = precision;
        this.maxTrials = maxTrials;
        this.growth = growth;
    }

    /** The next rate to try, or empty once the search is over ({@link #outcome} says why). */
    public java.util.Optional<Step> next() {
        if (stopped != null) {
            return java.util.Optional.empty();
        }
        if (trials < maxTrials && maxTrials - trials <= 2 && best() > 0 && !confirmed()) {
            // the last two trials decide the rate found rather than narrow the bracket: a pass and a failure
            // answer nothing (a retry of a higher rate waits; the bracket stays as wide as it is)
            return java.util.Optional.of(new Step(best(), Phase.confirm));
        }
        OptionalLong rate = retry != 0 ? OptionalLong.of(retry) : choose();
        if (rate.isEmpty()) {
            return java.util.Optional.empty();
        }
        if (trials >= maxTrials) {
            long answer = answer();
            String undecided = "";
            if (best() != answer) {
                int[] h = history.get(best());
                undecided = String.format(Locale.ROOT, ": %,d msg/s undecided (passed %d of %d trial(s))", best(), h[0],
                        h[0] + h[1]);
            }
            stopped = String.format(Locale.ROOT, "stopped after %d trial(s) (--max-trials)%s%s", trials, undecided,
                    answer > 0 && failed != Long.MAX_VALUE ? String.format(Locale.ROOT,
                            "%s the maximum lies between %,d and %,d msg/s", undecided.isEmpty() ? ":" : ";", answer,
                            failed) : "");
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Step(rate.getAsLong(), retry != 0 ? Phase.retry : phase));
    }

    private OptionalLong choose() {
        long passed = best();
        if (passed == 0 || failed == Long.MAX_VALUE) {
            phase = Phase.bracket;
        }
        if (passed == 0 && failed == Long.MAX_VALUE) {
            return OptionalLong.of(start);
        }
        if (failed == Long.MAX_VALUE) {
            if (passed >= maxRate) {
                stopped = String.format(Locale.ROOT, "%,d msg/s, the highest rate a workload may ask for, passed", maxRate);
                return OptionalLong.empty();
            }
            return OptionalLong.of(Math.min(maxRate, Math.max(passed + 1, (long) Math.floor(passed * growth))));
        }
        if (passed == 0) {
            if (failed <= minRate) {
                stopped = String.format(Locale.ROOT, "no rate passed, down to %,d msg/s (1 msg/s per producer)", failed);
                return OptionalLong.empty();
            }
            return OptionalLong.of(Math.max(minRate, failed / 2));
        }
        if (converged()) {
            if (!confirmed()) {
                phase = Phase.confirm;
                return OptionalLong.of(passed);
            }
            stopped = String.format(Locale.ROOT, "converged: %,d msg/s passed, %,d msg/s failed (%.1f%% apart)", passed,
                    failed, 100.0 * (failed - passed) / failed);
            return OptionalLong.empty();
        }
        phase = Phase.bisect;
        return OptionalLong.of(passed + (failed - passed) / 2);
    }

    /** Records a trial's verdict at {@code rate} (the rate {@link #next} gave). */
    public void record(long rate, boolean pass) {
        trials++;
        retry = 0;
        int[] h = history.computeIfAbsent(rate, r -> new int[2]);
        h[pass ? 0 : 1]++;
        if (h[1] >= 2) {
            // failed twice (of two or three): this is the upper end now, and any pass above it was luck
            passes.tailSet(rate, true).clear();
            failed = Math.min(failed, rate);
        } else if (h[0] == 1 && h[1] == 1) {
            retry = rate; // one pass and one failure: a third trial decides
        } else if (!pass) {
            retry = rate; // one failure decides nothing
        } else if (rate < failed) {
            passes.add(rate);
        }
    }

    /** The highest rate that passed (and did not fail when run again), or 0 when none did. */
    public long best() {
        return passes.isEmpty() ? 0 : passes.last();
    }

    /**
     * The rate the search answers: the highest that passed more trials than it failed, or 0 when none did. It is
     * {@link #best} except when the trials ran out while {@code best} was undecided (one pass and one failure, its
     * third trial not run): the search then answers the highest rate below it that passed.
     */
    public long answer() {
        for (long rate : passes.descendingSet()) {
            int[] h = history.get(rate);
            if (h[0] > h[1]) {
                return rate;
            }
        }
        return 0;
    }

    /** True when the search converged: {@link #converged} and the rate found {@link #confirmed}. */
    public boolean settled() {
        return converged() && confirmed();
    }

    /** True when a failing rate lies within the precision above {@link #best}. */
    public boolean converged() {
        long passed = best();
        return passed > 0 && failed != Long.MAX_VALUE
                && (failed - passed <= precision * failed || failed - passed <= 1);
    }

    /** True when {@link #best} passed two trials. */
    public boolean confirmed() {
        int[] h = history.get(best());
        return h != null && h[0] >= 2;
    }

    /** The lowest rate ruled out (it failed twice, or failed its confirmation), or 0 when none was. */
    public long failedRate() {
        return failed == Long.MAX_VALUE ? 0 : failed;
    }

    /** How often {@code rate} passed and failed: {passes, failures}. */
    public int[] tally(long rate) {
        int[] h = history.get(rate);
        return h == null ? new int[2] : h.clone();
    }

    /** Why the search stopped (null while it goes on). */
    public String outcome() {
        return stopped;
    }

    /** Trials recorded. */
    public int trials() {
        return trials;
    }
}
