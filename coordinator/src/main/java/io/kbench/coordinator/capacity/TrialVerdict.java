package io.kbench.coordinator.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.ResultFile;
import io.kbench.coordinator.workload.Workload;

/**
 * Whether one fixed-rate trial of a max-rate search sustained its rate. It passes when the run completed and,
 * over its measured window (after warm-up, before the producers stopped):
 * <ul>
 *   <li>every interval sent {@link #ACHIEVED} of its target (the load generator kept its schedule), and the
 *       window's acknowledged messages reached {@link #ACHIEVED} of the target (the cluster kept up) — each less
 *       one message, so that a low rate is not failed by a single message falling into the next interval.
 *       Acknowledgements are judged over the window, not per interval: they arrive a latency after their send,
 *       and a latency that varies by 15 ms moves up to 1.5% of a 1-second interval's acknowledgements into the
 *       next one;</li>
 *   <li>no interval was saturated (the load generator kept its schedule);</li>
 *   <li>the consumers' lag did not grow: the mean lag of the window's last third is at most one second of
 *       messages above that of its first third;</li>
 *   <li>nothing was lost: no failed send, no message verification found missing, every message received by
 *       every subscription;</li>
 *   <li>every objective held.</li>
 * </ul>
 * Pure.
 *
 * @param passed   every criterion met
 * @param reasons  one line per criterion missed
 * @param figures  each objective's figure
 * @param achieved acknowledged msg/s over the measured window
 */
public record TrialVerdict(boolean passed, List<String> reasons, List<ResultFile.SloFigure> figures, double achieved) {
    /** Share of its target every measured interval must achieve. */
    public static final double ACHIEVED = 0.995;

    /**
     * @param workload the trial's workload: its rate is the target (-1: an unthrottled probe, judged on the
     *                 rest)
     * @param completed the run ran its course
     * @param error     why it failed, or null
     * @param intervals every merged interval of the run
     */
    public static TrialVerdict judge(Workload workload, boolean completed, String error, Summary summary,
                                     List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros,
                                     List<Slo> slos) {
        List<String> reasons = new ArrayList<>();
        long target = workload.producerRate();
        if (!completed) {
            reasons.add("the run failed: " + error);
        }
        if (target < 0) {
            reasons.add("unthrottled probe: no target to sustain");
        }
        List<MergedInterval> window = new ArrayList<>();
        for (MergedInterval i : intervals) {
            if (i.startMicros() >= measureStartMicros && i.startMicros() < measureEndMicros) {
                window.add(i);
            }
        }
        if (window.isEmpty()) {
            reasons.add("no measured interval");
        }
        if (target > 0) {
            MergedInterval worst = null;
            double worstShare = Double.MAX_VALUE;
            int behind = 0;
            long acked = 0;
            double seconds = 0;
            for (MergedInterval i : window) {
                double expected = target * i.seconds();
                double share = expected <= 0 ? 1 : i.counters().sent() / expected;
                if (i.counters().sent() < ACHIEVED * expected - 1) {
                    behind++;
                }
                if (share < worstShare) {
                    worstShare = share;
                    worst = i;
                }
                acked += i.counters().acked();
                seconds += i.seconds();
            }
            if (behind > 0) {
                reasons.add(String.format(Locale.ROOT, "%d interval(s) sent below %.1f%% of the target; the worst %,.0f "
                        + "msg/s (%.1f%%) at %s", behind, ACHIEVED * 100, worst.counters().sent() / worst.seconds(),
                        worstShare * 100, offset(worst, intervals)));
            }
            if (seconds > 0 && acked < ACHIEVED * target * seconds - 1) {
                reasons.add(String.format(Locale.ROOT, "%,.0f msg/s acknowledged over the window, %.1f%% of the target",
                        acked / seconds, 100.0 * acked / (target * seconds)));
            }
        }
        long saturationMicros = workload.saturationDelayMillis() * 1000;
        long saturated = window.stream().filter(i -> i.saturated(saturationMicros)).count();
        if (saturated > 0) {
            reasons.add(String.format(Locale.ROOT, "%d interval(s) saturated (the load generator fell behind its "
                    + "schedule: publish delay p99 above %d ms)", saturated, workload.saturationDelayMillis()));
        }
        if (workload.consumerCount() > 0 && target > 0) {
            String growth = lagGrowth(window, target);
            if (growth != null) {
                reasons.add(growth);
            }
        }
        if (summary.failed() > 0) {
            reasons.add(String.format(Locale.ROOT, "%,d send(s) failed", summary.failed()));
        }
        if (summary.verification() != null && summary.verification().lost() > 0) {
            reasons.add(String.format(Locale.ROOT, "%,d message(s) lost", summary.verification().lost()));
        }
        long expected = io.kbench.coordinator.run.EndCondition.Rules.of(workload, 0).expectedReceived(summary.acked());
        if (completed && workload.consumerCount() > 0 && summary.received() < expected) {
            reasons.add(String.format(Locale.ROOT, "consumers received %,d of the %,d messages expected",
                    summary.received(), expected));
        }
        List<ResultFile.SloFigure> figures = new ArrayList<>();
        for (Slo slo : slos) {
            long v = slo.value(summary);
            boolean held = v >= 0 && v <= slo.limitMicros();
            figures.add(new ResultFile.SloFigure(slo.text(), v, slo.limitMicros(), held));
            if (!held) {
                reasons.add(v < 0 ? slo.text() + ": no samples"
                        : slo.text() + " missed: " + Slo.millis(v) + " > " + Slo.millis(slo.limitMicros()));
            }
        }
        return new TrialVerdict(reasons.isEmpty(), List.copyOf(reasons), List.copyOf(figures), summary.publishRate());
    }

    /**
     * Null when the lag held; otherwise why not. Lag is sampled at interval ends and moves by up to a fetch or
     * a batch either way: the window's first and last thirds are averaged, and growth up to one second of
     * messages is tolerated.
     */
    static String lagGrowth(List<MergedInterval> window, long target) {
        List<Long> lags = window.stream().map(MergedInterval::consumerLag).filter(l -> l >= 0).toList();
        if (lags.size() < 3) {
            return null;
        }
        int third = lags.size() / 3;
        double first = lags.subList(0, third).stream().mapToLong(Long::longValue).average().orElse(0);
        double last = lags.subList(lags.size() - third, lags.size()).stream().mapToLong(Long::longValue).average().orElse(0);
        if (last - first > target) {
            return String.format(Locale.ROOT, "consumer lag grew from %,.0f to %,.0f messages (more than one second of "
                    + "the target)", first, last);
        }
        return null;
    }

    private static String offset(MergedInterval i, List<MergedInterval> all) {
        long start = all.isEmpty() ? i.startMicros() : all.get(0).startMicros();
        return String.format(Locale.ROOT, "%.0fs", (i.endMicros() - start) / 1e6);
    }
}
