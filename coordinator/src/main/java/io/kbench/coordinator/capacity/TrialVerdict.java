package io.kbench.coordinator.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;

/**
 * Whether one fixed-rate trial of a max-rate search sustained its rate — judged on what the question is about,
 * the measured window (after warm-up, before the producers stopped) as a whole, never on one interval:
 * <ul>
 *   <li><b>the load generator kept its schedule</b>: the window's sent total is within {@link #ACHIEVED} of the
 *       target (short: it could not send that fast; over: a backlog from before the window was sent in it), and
 *       its delay did not grow (the mean per-interval publish delay p50 of the window's last third is not above
 *       the saturation threshold and more than that above the first third's);</li>
 *   <li><b>the cluster kept up</b>: the window's acknowledged total reached {@link #ACHIEVED} of the target
 *       (acknowledgements arrive a latency after their send, so they are judged over the window, where a varying
 *       latency moves nothing in or out but at its two ends); the consumers did not fall behind (at most one second
 *       of the target left unread in the window, and, by the trend of the exact counts, not behind by more than
 *       {@link #ACHIEVED}'s tolerance of the target — {@link #behindTrend}; where the counts cannot tell it, the
 *       mean sampled lag of the window's last third at most one second of messages above its first third's); nothing failed or
 *       was lost, and every message was received by every subscription;</li>
 *   <li>every objective held over the window.</li>
 * </ul>
 * Each comparison allows one message, so that a low rate is not failed by a message crossing the window's
 * edge. Per-interval hiccups — a saturated interval (a JVM or host pause of the generator), one interval sent
 * short and made up in the next — are reported as {@link #notes}, not failures: they say something about the
 * generator's host, not about the cluster's capacity, and the objectives already include them (response time
 * starts at the intended send time).
 *
 * <p>A failed trial names its {@link Cause}: {@code generator} when the load generator fell behind while its
 * producers did not wait for the cluster (neither kbench's flow control nor the client's buffer pool held them
 * for {@link #CLUSTER_WAIT_RATIO} of the window or more) — the cluster's figures then do not describe the
 * target rate; {@code consumers} when the consumers alone failed it (a group fell behind, or did not receive
 * everything, while every acknowledgement, send, message and objective held); {@code cluster} for everything else
 * (acknowledgements, losses, objectives, or a generator that fell behind because the producers waited for the
 * cluster); {@code run} when the run itself failed. Pure.
 *
 * @param passed   every criterion met
 * @param cause    why it failed ({@link Cause#none} when it passed)
 * @param reasons  one line per criterion missed
 * @param notes    what was seen but decides nothing (saturated intervals, intervals sent short)
 * @param figures  each objective's figure
 * @param achieved acknowledged msg/s over the measured window
 * @param saturatedIntervals measured intervals whose publish delay p99 was above the saturation threshold
 * @param shortIntervals     measured intervals that sent less than {@link #ACHIEVED} of their share
 * @param generatorReasons   the reasons about the generator's schedule alone (a subset of {@code reasons})
 */
public record TrialVerdict(boolean passed, Cause cause, List<String> reasons, List<String> notes,
                           List<ResultFile.SloFigure> figures, double achieved, long saturatedIntervals,
                           long shortIntervals, List<String> generatorReasons) {
    /** Share of its target a window must send and have acknowledged (and at most its inverse sent). */
    public static final double ACHIEVED = 0.995;
    /**
     * The producers waited for the cluster when, over the window, they spent at least this fraction of the time
     * waiting for buffer room (kbench's flow control or the client's buffer pool).
     */
    public static final double CLUSTER_WAIT_RATIO = 0.01;
    /** Metric names of the producers' waits for room: kbench's flow control and the client's buffer pool. */
    static final List<String> WAIT_METRICS = List.of("kbench-buffer-wait-ratio", "bufferpool-wait-ratio");
    /**
     * Producer metric: the share of the interval the load threads waited inside the Kafka client's {@code send()} (the
     * Kafka driver's {@code KafkaProducerHandle.SEND_BLOCKED_RATIO}): for its buffer pool ({@code bufferpool-wait-ratio}
     * counts that too) or for metadata, which no other figure shows while it lasts.
     */
    public static final String BLOCKED_METRIC = "kbench-send-blocked-ratio";
    /**
     * Producer metric (the Kafka driver's {@code KafkaProducerHandle.UNACKED_AGE}): how long, in milliseconds, the oldest
     * send still waiting for its acknowledgement had waited at the interval's reading, the most of any producer.
     */
    public static final String UNACKED_AGE_METRIC = "kbench-unacked-age-max";
    /** The client's own share of the interval waiting for its buffer pool: the part of {@link #BLOCKED_METRIC} that is room. */
    static final String POOL_WAIT_METRIC = "bufferpool-wait-ratio";

    /** What made a trial fail. */
    public enum Cause {
        /** It passed. */
        none,
        /** The load generator fell behind its schedule without waiting for the cluster: add workers or cores. */
        generator,
        /** The cluster did not keep up, or an objective was missed. */
        cluster,
        /**
         * Only the consumers failed it: a classic or share group fell behind, or did not receive everything, while
         * every acknowledgement, send, message and objective held — the consumers' own work or number, or the brokers
         * serving their fetches (the trial's diagnosis says which); from schema version 21.
         */
        consumers,
        /** The run itself failed, or was an unthrottled probe with nothing to judge. */
        run
    }

    public TrialVerdict {
        reasons = List.copyOf(reasons);
        generatorReasons = List.copyOf(generatorReasons);
        notes = List.copyOf(notes);
        figures = List.copyOf(figures);
    }

    /**
     * @param workload  the trial's workload: its rate is the target (-1: an unthrottled probe, judged on the
     *                  rest)
     * @param completed the run ran its course
     * @param error     why it failed, or null
     * @param intervals every merged interval of the run
     */
    public static TrialVerdict judge(Workload workload, boolean completed, String error, Summary summary,
                                     List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros,
                                     List<Slo> slos) {
        List<String> generator = new ArrayList<>();
        List<String> cluster = new ArrayList<>();
        // of the cluster's reasons, the consumers' (a group behind, messages not received): their own cause when alone
        int consumers = 0;
        List<String> run = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long target = workload.producerRate();
        if (!completed) {
            run.add("the run failed: " + error);
        }
        if (target < 0) {
            run.add("unthrottled probe: no target to sustain");
        }
        List<MergedInterval> window = MergedInterval.window(intervals, measureStartMicros, measureEndMicros);
        if (window.isEmpty()) {
            run.add("no measured interval");
        }
        long saturationMicros = workload.saturationDelayMillis() * 1000;
        double waitRatio = waitRatio(window);
        // sends that blocked, not for buffer room: the client waited for the cluster's metadata (no broker answering,
        // a partition without a leader) — the cluster's doing, whatever the generator's figures show
        double unavailable = unavailableRatio(window);
        boolean blocked = unavailable >= CLUSTER_WAIT_RATIO;
        // seconds in which the cluster acknowledged nothing while the producers waited on it: not the generator's either
        Unserved unserved = unserved(intervals, measureStartMicros, measureEndMicros);
        boolean waited = waitRatio >= CLUSTER_WAIT_RATIO || blocked || unserved.intervals() > 0;
        // who fell behind: the generator itself, or producers held back by the cluster
        String who = waited ? "the producers" : "the load generator";
        long shortIntervals = 0;
        if (target > 0 && !window.isEmpty()) {
            long sent = 0;
            long acked = 0;
            double seconds = 0;
            for (MergedInterval i : window) {
                sent += i.counters().sent();
                acked += i.counters().acked();
                // a record-count run's producers stop inside their last interval: the target counts to then only
                seconds += i.secondsWithin(measureStartMicros, measureEndMicros);
            }
            double expected = target * seconds;
            boolean sentShort = sent < ACHIEVED * expected - 1;
            if (sentShort) {
                generator.add(String.format(Locale.ROOT, "%s sent %,.0f msg/s over the window, %.1f%% of the target", who,
                        sent / seconds, 100.0 * sent / expected));
            } else if (sent > expected / ACHIEVED + 1) {
                generator.add(String.format(Locale.ROOT, "%s sent %.1f%% of the target over the window: a backlog from "
                        + "before the window was sent in it", who, 100.0 * sent / expected));
            }
            String growth = delayGrowth(window, saturationMicros, who);
            if (growth != null) {
                generator.add(growth);
            }
            // acknowledgements short of the target because fewer were sent is the generator's shortfall, not the
            // cluster's: the cluster is blamed when it acknowledged less than was sent
            if (acked < ACHIEVED * expected - 1 && (!sentShort || acked < ACHIEVED * sent - 1)) {
                cluster.add(String.format(Locale.ROOT, "%,.0f msg/s acknowledged over the window, %.1f%% of the target",
                        acked / seconds, 100.0 * acked / expected));
            }
            shortIntervals = perIntervalNotes(window, target, notes, intervals, measureStartMicros, measureEndMicros);
        }
        long saturated = window.stream().filter(i -> i.saturated(saturationMicros)).count();
        if (saturated > 0) {
            // of them, those whose load thread woke from a park at least the threshold late: a pause or the host
            long stalled = window.stream().filter(i -> i.saturatedByStall(saturationMicros)).count();
            boolean measured = window.stream().anyMatch(i -> i.hosts().stallMicrosMax() >= 0);
            // how busy the worker hosts were in those, every process counted (workers that read their host's CPU)
            double busy = MergedInterval.stalledHostBusy(window, saturationMicros);
            notes.add(String.format(Locale.ROOT, "%d of %d interval(s) saturated (publish delay p99 above %d ms)%s",
                    saturated, window.size(), workload.saturationDelayMillis(), measured ? String.format(Locale.ROOT,
                            ", %d of them with a load thread woken %d ms or more late (a pause, or no core in time%s)",
                            stalled, workload.saturationDelayMillis(), busy >= 0 ? String.format(Locale.ROOT,
                                    "; the host %.0f%% busy in them on average", 100 * busy) : "") : ""));
        }
        // classic groups or share groups: either falls behind alike (a share group's settled messages are its reads)
        if ((workload.consumerCount() > 0 || workload.shareGroups().groupsPerTopic() > 0) && target > 0) {
            String growth = unreadGrowth(workload, window, target);
            if (growth != null) {
                cluster.add(growth);
                consumers++;
            }
        }
        if (unserved.intervals() > 0) {
            cluster.add(String.format(Locale.ROOT, "the cluster acknowledged nothing in %d of the window's %d interval(s) "
                    + "while the producers had messages outstanding or blocked in send()", unserved.intervals(),
                    window.size()));
        }
        if (unserved.partly() > 0) {
            cluster.add(leftWaitingText(unserved, window.size()));
        }
        if (blocked) {
            cluster.add(unavailableText(window, unavailable));
        }
        if (summary.failed() > 0) {
            cluster.add(String.format(Locale.ROOT, "%,d send(s) failed", summary.failed()));
        }
        if (summary.verification() != null && summary.verification().lost() > 0) {
            cluster.add(String.format(Locale.ROOT, "%,d message(s) lost", summary.verification().lost()));
        }
        if (summary.shareVerification() != null && summary.shareVerification().lost() > 0) {
            cluster.add(String.format(Locale.ROOT, "%,d message(s) lost by the share groups",
                    summary.shareVerification().lost()));
        }
        long expectedReceived = io.kbench.coordinator.run.EndCondition.Rules.of(workload, 0).expectedReceived(summary.acked());
        if (completed && workload.consumerCount() > 0 && summary.received() < expectedReceived) {
            cluster.add(String.format(Locale.ROOT, "consumers received %,d of the %,d messages expected",
                    summary.received(), expectedReceived));
            consumers++;
        }
        int shareGroups = workload.shareGroups().groupsPerTopic();
        if (completed && shareGroups > 0 && summary.totals() != null && summary.totals().acked() > 0) {
            // as the run's own issue says it: what the share groups settled by the drain's end
            long settled = summary.totals().shareAccepted() + summary.totals().shareRejected();
            long expected = workload.shareMessagesExpected(summary.acked());
            if (settled < expected) {
                consumers++;
                cluster.add(String.format(Locale.ROOT, "the share groups accepted or rejected %,d of the %,d messages "
                        + "expected", settled, expected));
            }
        }
        List<ResultFile.SloFigure> figures = new ArrayList<>();
        for (Slo slo : slos) {
            long v = slo.value(summary);
            boolean held = v >= 0 && v <= slo.limitMicros();
            figures.add(new ResultFile.SloFigure(slo.text(), v, slo.limitMicros(), held));
            if (!held) {
                cluster.add(v < 0 ? slo.text() + ": no samples"
                        : slo.text() + " missed: " + Slo.millis(v) + " > " + Slo.millis(slo.limitMicros()));
            }
        }
        Cause cause;
        if (!run.isEmpty()) {
            cause = Cause.run;
        } else if (!generator.isEmpty() && !waited) {
            cause = Cause.generator;
        } else if (generator.isEmpty() && consumers > 0 && consumers == cluster.size()) {
            cause = Cause.consumers;
        } else if (!generator.isEmpty() || !cluster.isEmpty()) {
            cause = Cause.cluster;
            if (!generator.isEmpty() && waitRatio >= CLUSTER_WAIT_RATIO) {
                generator.add(String.format(Locale.ROOT, "the producers waited for buffer room %.1f%% of the window: "
                        + "the cluster did not acknowledge fast enough", 100 * waitRatio));
            }
        } else {
            cause = Cause.none;
        }
        List<String> reasons = new ArrayList<>(run);
        reasons.addAll(generator);
        reasons.addAll(cluster);
        return new TrialVerdict(reasons.isEmpty(), cause, reasons, notes, figures, summary.publishRate(), saturated,
                shortIntervals, generator);
    }

    /**
     * Interval {@code i}'s share of the time the producers waited inside the client's {@code send()} not for its buffer
     * pool — for the cluster's metadata: {@link #BLOCKED_METRIC} less {@link #POOL_WAIT_METRIC}, at least 0; NaN when
     * the interval does not carry it (results of builds before it, intervals without producers).
     */
    public static double unavailableShare(MergedInterval i) {
        var values = i.producerClients().values();
        Double b = values.get(BLOCKED_METRIC);
        if (b == null || !Double.isFinite(b)) {
            return Double.NaN;
        }
        Double pool = values.get(POOL_WAIT_METRIC);
        return Math.max(0, Math.min(1, b) - (pool != null && Double.isFinite(pool) ? pool : 0));
    }

    /** The mean over the window's intervals that carry it of {@link #unavailableShare}; 0 when none does. */
    public static double unavailableRatio(List<MergedInterval> window) {
        double sum = 0;
        int n = 0;
        for (MergedInterval i : window) {
            double u = unavailableShare(i);
            if (!Double.isNaN(u)) {
                sum += u;
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Intervals of the window in which the producers' sends blocked, not for buffer room, half the time or more. */
    public static int unavailableIntervals(List<MergedInterval> window) {
        int n = 0;
        for (MergedInterval i : window) {
            if (unavailableShare(i) >= 0.5) {
                n++;
            }
        }
        return n;
    }

    /**
     * The measured window's intervals in which the cluster acknowledged nothing while the producers had messages
     * outstanding — sent, and neither acknowledged nor failed by the interval's end, counted from the run's first
     * interval — or they waited inside the client's send() half the interval or more ({@link #BLOCKED_METRIC}):
     * seconds in which the cluster did not serve them (a broker down or frozen, no leader). {@code all}: every interval
     * of the run, in order.
     */
    public static Unserved unserved(List<MergedInterval> all, long measureStartMicros, long measureEndMicros) {
        long outstanding = 0;
        int n = 0;
        long first = -1;
        long last = -1;
        int partly = 0;
        long partlyFirst = -1;
        long partlyLast = -1;
        double oldest = 0;
        double latencyMax = 0;
        double length = 0;
        for (MergedInterval i : all) {
            var c = i.counters();
            outstanding += c.sent() - c.acked() - c.failed();
            if (i.startMicros() < measureStartMicros || i.startMicros() >= measureEndMicros) {
                continue;
            }
            if (servedNothing(c.acked(), outstanding, i.producerClients().values().get(BLOCKED_METRIC))) {
                n++;
                first = first < 0 ? i.startMicros() : first;
                last = i.endMicros();
            } else if (leftWaiting(i)) {
                partly++;
                partlyFirst = partlyFirst < 0 ? i.startMicros() : partlyFirst;
                partlyLast = i.endMicros();
                double age = i.producerClients().values().get(UNACKED_AGE_METRIC);
                if (age > oldest) {
                    oldest = age;
                    latencyMax = i.stats(Metric.PUBLISH_LATENCY).max() / 1e3;
                    length = (i.endMicros() - i.startMicros()) / 1e3;
                }
            }
        }
        return new Unserved(n, first, last, partly, partlyFirst, partlyLast, oldest, latencyMax, length);
    }

    /**
     * An interval in which the cluster left a send unserved while it served others: at its reading the oldest send
     * still waiting for its acknowledgement ({@link #UNACKED_AGE_METRIC}) had waited longer than the interval plus the
     * slowest acknowledgement of the interval (publish latency max). It was sent before every message acknowledged in
     * the interval was, and waited the whole interval: a partition without a leader, without enough in-sync replicas
     * for {@code acks=all}, or whose request got no answer, while the others' were served. An interval in which
     * nothing was acknowledged is {@link #servedNothing}'s; one without the metric (other drivers, older results) never.
     */
    public static boolean leftWaiting(MergedInterval i) {
        LatencyStats latency = i.stats(Metric.PUBLISH_LATENCY);
        return leftWaiting(i.producerClients().values().get(UNACKED_AGE_METRIC), i.endMicros() - i.startMicros(),
                latency.count(), latency.max());
    }

    /**
     * {@link #leftWaiting(MergedInterval)}'s rule on the figures of an interval of {@code lengthMicros}: the oldest
     * waiting send's age at its reading ({@code ageMillis}; null: not reported), and its acknowledgements' count and
     * slowest publish latency (µs).
     */
    public static boolean leftWaiting(Double ageMillis, long lengthMicros, long acknowledged, long latencyMaxMicros) {
        return ageMillis != null && Double.isFinite(ageMillis) && acknowledged > 0
                && ageMillis * 1e3 > lengthMicros + latencyMaxMicros;
    }

    /**
     * An interval in which the cluster served the producers nothing: {@code acked} nothing while {@code outstanding}
     * messages (sent, neither acknowledged nor failed, by its end) were waiting, or while the producers waited in the
     * client's send() half of it ({@code blocked}, {@link #BLOCKED_METRIC}; null: not reported). The one rule of the
     * diagnosis, the console's marks and the report's band.
     */
    public static boolean servedNothing(long acked, long outstanding, Double blocked) {
        return acked == 0 && (outstanding > 0 || blocked != null && blocked >= 0.5);
    }

    /**
     * Intervals of a window in which the cluster served the producers nothing ({@link #unserved}): how many, the start
     * of the first and the end of the last (run clock, µs; -1 when none); and those in which it left a send waiting
     * while it served others ({@link #leftWaiting}): how many, the first's start and the last's end, the longest such
     * wait at a reading (ms), and the slowest acknowledgement and length of that interval (ms).
     */
    public record Unserved(int intervals, long firstStartMicros, long lastEndMicros, int partly, long partlyFirstMicros,
                           long partlyLastMicros, double oldestUnackedMillis, double latencyMaxMillis,
                           double intervalMillis) {
        public static final Unserved NONE = new Unserved(0, -1, -1);

        /** Whole intervals only: none in which a send was left waiting while others were served. */
        public Unserved(int intervals, long firstStartMicros, long lastEndMicros) {
            this(intervals, firstStartMicros, lastEndMicros, 0, -1, -1, 0, 0, 0);
        }

        /** What the longest wait was compared with: its interval's length and slowest acknowledgement (ms). */
        public double thresholdMillis() {
            return intervalMillis + latencyMaxMillis;
        }
    }

    /** The cluster-side reason of a window in which sends were left waiting while others were served. */
    public static String leftWaitingText(Unserved u, int intervals) {
        return String.format(Locale.ROOT, "in %d of the window's %d interval(s) a send waited the whole interval while "
                + "younger ones were acknowledged: one waited %s s unacknowledged, when the interval's slowest "
                + "acknowledgement took %s ms (a partition without a leader, or without enough in-sync replicas for "
                + "acks=all, while the others were served)", u.partly(), intervals, oneDecimal(u.oldestUnackedMillis() / 1e3),
                oneDecimal(u.latencyMaxMillis()));
    }

    private static String oneDecimal(double v) {
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    /** The cluster-side reason of a window whose producers' sends blocked for the cluster's metadata. */
    public static String unavailableText(List<MergedInterval> window, double unavailable) {
        return String.format(Locale.ROOT, "the producers' sends blocked %.1f%% of the window (%d of %d interval(s) half "
                + "or more) and not for buffer room: waiting for the cluster's metadata (no broker answering, or a "
                + "partition without a leader)", 100 * unavailable, unavailableIntervals(window), window.size());
    }

    /**
     * The mean over the window's intervals of the producers' summed wait ratios ({@link #WAIT_METRICS}); 0 when
     * no interval carries them.
     */
    public static double waitRatio(List<MergedInterval> window) {
        double sum = 0;
        int n = 0;
        for (MergedInterval i : window) {
            var values = i.producerClients().values();
            double w = 0;
            boolean any = false;
            for (String name : WAIT_METRICS) {
                Double v = values.get(name);
                if (v != null && Double.isFinite(v)) {
                    w += v;
                    any = true;
                }
            }
            if (any) {
                sum += Math.min(1, w);
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /**
     * Null when the generator's delay held; otherwise how it grew. A generator that cannot keep its schedule
     * falls further behind with every interval, so its typical (p50) delay rises; a pause raises one interval's
     * p99 and not the p50 of a third of the window.
     */
    static String delayGrowth(List<MergedInterval> window, long thresholdMicros, String who) {
        double[] t = MergedInterval.thirds(window, i -> i.stats(Metric.PUBLISH_DELAY).count() > 0,
                i -> i.stats(Metric.PUBLISH_DELAY).p50());
        if (t[2] < 3) {
            return null;
        }
        double first = t[0];
        double last = t[1];
        if (last > thresholdMicros && last - first > thresholdMicros) {
            return String.format(Locale.ROOT, "%s fell further behind their schedule: publish delay p50 rose from %s to %s",
                    who, Slo.millis(Math.round(first)), Slo.millis(Math.round(last)));
        }
        return null;
    }

    /**
     * Intervals sent short of their share: counted and the worst named, as a note; returns the count. The interval
     * the window cuts (a record-count run's last, in which its producers stopped) is not judged on its own: its
     * share would be the part before the stop, as the coordinator learned of it — the window's total has it.
     */
    private static long perIntervalNotes(List<MergedInterval> window, long target, List<String> notes,
                                         List<MergedInterval> all, long measureStartMicros, long measureEndMicros) {
        MergedInterval worst = null;
        double worstShare = Double.MAX_VALUE;
        int behind = 0;
        for (MergedInterval i : window) {
            if (!i.within(measureStartMicros, measureEndMicros)) {
                continue;
            }
            double expected = target * i.seconds();
            double share = expected <= 0 ? 1 : i.counters().sent() / expected;
            if (i.counters().sent() < ACHIEVED * expected - 1) {
                behind++;
            }
            if (share < worstShare) {
                worstShare = share;
                worst = i;
            }
        }
        if (behind > 0) {
            notes.add(String.format(Locale.ROOT, "%d interval(s) sent below %.1f%% of the target; the worst %,.0f msg/s "
                    + "(%.1f%%) at %s", behind, ACHIEVED * 100, worst.counters().sent() / worst.seconds(),
                    worstShare * 100, offset(worst, all)));
        }
        return behind;
    }

    /**
     * Null when the consumers kept up over the window; otherwise why not. Where the run's counts tell it (producers
     * writing topics kbench created, consumers not held for a backlog), from them, as the diagnosis reads it: the
     * messages acknowledged in the window minus those a group received (classic) or settled (share) in it — the
     * growth of its backlog, exact; the consumers' sampled lag counts down from their last fetch and can read flat
     * while a backlog grows. Otherwise from the sampled lag ({@link #lagGrowth}). Up to one second of the target is
     * tolerated either way.
     */
    static String unreadGrowth(Workload workload, List<MergedInterval> window, long target) {
        Counters c = window.stream().map(MergedInterval::counters).reduce(Counters.ZERO, Counters::plus);
        double unread = io.kbench.coordinator.report.UnreadCount.inWindow(workload, c.acked(), c.received(),
                c.shareAccepted() + c.shareRejected());
        if (Double.isNaN(unread) || window.isEmpty()) {
            return lagGrowth(window, target);
        }
        if (unread > target) {
            return String.format(Locale.ROOT, "a group's consumers left %,.0f of the messages acknowledged in the window "
                    + "unread (more than one second of the target)", unread);
        }
        return behindTrend(workload, window, target);
    }

    /**
     * Null unless the slower group read, by the trend of its exact counts ({@link
     * io.kbench.coordinator.report.UnreadCount#trend}), less than {@link #ACHIEVED} of the target — the same tolerance
     * as the acknowledgements' — and fell more than one message behind: a group that reads 5% too slowly leaves less
     * than one second of the target unread in a 15-s window, but falls behind without end.
     */
    static String behindTrend(Workload workload, List<MergedInterval> window, long target) {
        io.kbench.coordinator.report.UnreadCount.Trend t = io.kbench.coordinator.report.UnreadCount.trend(workload, window);
        if (t == null || !t.behind(target)) {
            return null;
        }
        return String.format(Locale.ROOT, "a group's consumers fell behind by %,.0f msg/s (%.1f%% of the target): their "
                + "unread messages grew from %,.0f to %,.0f (medians of the window's first and last thirds)", t.rate(),
                100 * t.rate() / target, t.first(), t.last());
    }

    /**
     * Null when the lag held; otherwise why not. Lag is sampled at interval ends and moves by up to a fetch or
     * a batch either way: the window's first and last thirds are averaged, and growth up to one second of
     * messages is tolerated.
     */
    static String lagGrowth(List<MergedInterval> window, long target) {
        double[] t = MergedInterval.thirds(window, i -> i.unread() >= 0, MergedInterval::unread);
        if (t[2] < 3) {
            return null;
        }
        double first = t[0];
        double last = t[1];
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
