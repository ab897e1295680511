package io.kbench.coordinator.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.capacity.MaxRateSearch;
import io.kbench.coordinator.capacity.Slo;
import io.kbench.coordinator.workload.Sweep;
import picocli.CommandLine.Option;

/** {@code kbench run}'s max-rate search: {@code --find-max-rate} and its objectives and bounds, a picocli mixin. */
public final class MaxRateSearchOptions {
    @Option(names = "--find-max-rate",
            description = "Find the highest rate the cluster sustains: fixed-rate trials of the workload (each with its warm-up, duration and fresh topics), bracketing then bisecting to --precision. A trial is judged on its measured window: it passes when the load generator sent its target (within 0.5%%) without falling further behind, the cluster acknowledged it, the consumers read what was acknowledged (at most one second of it left unread), nothing was lost and every --slo held; saturated intervals are noted, not failures. A failed rate is run again before it is ruled out; the answer says whether the cluster or the load generator was the limit (docs/capacity.md). Without a producerRate in the workload an unthrottled probe comes first. Writes each trial under the output directory and a result.json with 'rateSearch'; exit 0 when a rate passed.")
    boolean findMaxRate;

    @Option(names = "--slo", paramLabel = "METRIC.QUANTILE<=VALUE",
            description = {"With --find-max-rate, an objective every trial must meet, repeatable: publishResponse.p99<=50ms,",
                "endToEnd.p99.9<=200ms (or p999), publishLatency.max<=1s. Metrics: publishLatency, publishResponse, publishDelay, endToEnd, transactionCommit."})
    List<String> slos = new ArrayList<>();

    @Option(names = "--precision", paramLabel = "PERCENT", defaultValue = "2",
            description = "With --find-max-rate, stop when the highest passing and the lowest failing rate are this close, 0.1 to 50 (default: ${DEFAULT-VALUE}%%).")
    String precision;

    @Option(names = "--max-trials", paramLabel = "N", defaultValue = "" + MaxRateSearch.DEFAULT_MAX_TRIALS,
            description = "With --find-max-rate, the most trials to run, the probe included, 2 to 100 (default: ${DEFAULT-VALUE}).")
    int maxTrials;

    /**
     * Checks the options against {@code sweep} (before anything starts): without --find-max-rate none of the others;
     * with it, one workload, the bounds, and objectives that parse, each metric and quantile once.
     *
     * @param matched whether an option was given on the command line
     * @return the objectives; empty without the search
     */
    List<Slo> check(Sweep sweep, Predicate<String> matched) {
        if (!findMaxRate) {
            for (String option : List.of("--slo", "--precision", "--max-trials")) {
                if (matched.test(option)) {
                    throw new UserException(option + " applies only with --find-max-rate");
                }
            }
            return List.of();
        }
        if (sweep.isSweep()) {
            throw new UserException("--find-max-rate searches one workload; this one has a matrix (run the search per "
                    + "combination with one workload file each)");
        }
        if (maxTrials < 2 || maxTrials > 100) {
            throw new UserException("--max-trials must be 2 to 100, got " + maxTrials);
        }
        precision();
        List<Slo> objectives = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String text : slos) {
            Slo slo;
            try {
                slo = Slo.parse(text);
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage());
            }
            if (!seen.add(slo.metric() + "@" + slo.percentile())) {
                throw new UserException("--slo '" + text + "': an objective on " + slo.text().split("<")[0]
                        + " is given twice; keep one");
            }
            objectives.add(slo);
        }
        MaxRateSearch.check(sweep.base(), objectives);
        return objectives;
    }

    /** --precision as a fraction. */
    double precision() {
        String text = precision.strip();
        text = text.endsWith("%") ? text.substring(0, text.length() - 1).strip() : text;
        double p;
        try {
            p = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            p = Double.NaN;
        }
        if (!(p >= 0.1 && p <= 50)) {
            throw new UserException("--precision must be a percentage from 0.1 to 50 (e.g. 2 or 2%), got '" + precision + "'");
        }
        return p / 100;
    }
}
