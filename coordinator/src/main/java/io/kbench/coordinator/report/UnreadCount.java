package io.kbench.coordinator.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.workload.Workload;

/**
 * What a run's classic groups have not read, exactly, interval by interval: the messages acknowledged since the
 * run's start minus those received, over the groups per topic. The consumers' own lag is as of their last fetch and
 * counts down towards 0 while they work through a backlog that grows; this count does not. Exact for a run whose
 * producers write topics kbench created and whose classic groups read all of it ({@link #classicGroups}); the console
 * line, the report's and dashboard's lag chart and intervals.csv show it. Not thread-safe.
 */
public final class UnreadCount {
    private final int groups;
    private long acked;
    private long received;

    /** @param groups classic groups per topic (0: not counted: {@link #after} answers -1) */
    public UnreadCount(int groups) {
        this.groups = Math.max(0, groups);
    }

    /** The classic groups per topic whose unread count the run's counts tell: 0 without producers or on existing topics. */
    public static int classicGroups(Workload w) {
        return w.producerCount() > 0 && !w.existingTopics() ? w.subscriptionsPerTopic() : 0;
    }

    /**
     * How fast the slower group fell behind over a window, from its exact counts: the unread messages at each interval's
     * end (acknowledged minus read since the window began, as {@link #inWindow} counts them), the median of the window's
     * last third minus that of its first third, over the time between the thirds' middles. Medians, so that a pause at
     * one interval's end (a collection, a slow poll) moves nothing; a rate, so that the same shortfall fails a short
     * window and a long one alike — a fixed allowance in messages lets a group that reads a few percent too slowly
     * pass a short window. Null where the counts do not tell it ({@link #inWindow}) or the window has fewer than 6
     * intervals.
     */
    public static Trend trend(Workload w, java.util.List<io.kbench.coordinator.merge.MergedInterval> window) {
        int n = window.size();
        if (n < 6 || Double.isNaN(inWindow(w, 0, 0, 0))) {
            return null;
        }
        double[] unread = new double[n];
        long acked = 0;
        long received = 0;
        long settled = 0;
        for (int k = 0; k < n; k++) {
            io.kbench.protocol.Counters c = window.get(k).counters();
            acked += c.acked();
            received += c.received();
            settled += c.shareAccepted() + c.shareRejected();
            unread[k] = inWindow(w, acked, received, settled);
        }
        int third = n / 3;
        double first = median(java.util.Arrays.copyOfRange(unread, 0, third));
        double last = median(java.util.Arrays.copyOfRange(unread, n - third, n));
        double from = (window.get(0).startMicros() + window.get(third - 1).endMicros()) / 2.0;
        double to = (window.get(n - third).startMicros() + window.get(n - 1).endMicros()) / 2.0;
        double seconds = (to - from) / 1e6;
        return seconds <= 0 ? null : new Trend(first, last, (last - first) / seconds);
    }

    /**
     * {@link #trend}: the slower group's unread messages, medians of the window's first and last thirds, and how fast
     * they grew (msg/s; negative: it caught up).
     */
    public record Trend(double first, double last, double rate) {
        /**
         * Behind for good at {@code target} msg/s: growing faster than the acknowledgements' own tolerance of it
         * (0.5%, {@link io.kbench.coordinator.capacity.TrialVerdict#ACHIEVED}) and by more than one message. The
         * max-rate search's trials and the diagnosis judge by this one rule.
         */
        public boolean behind(double target) {
            return target > 0 && rate > (1 - io.kbench.coordinator.capacity.TrialVerdict.ACHIEVED) * target
                    && last - first > 1;
        }
    }

    private static double median(double[] v) {
        java.util.Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /**
     * What the slower group left unread of the messages acknowledged in a window: acknowledged minus received over the
     * classic groups per topic, or minus accepted and rejected over the share groups per topic, the larger; NaN where
     * the counts do not tell it (no producers, existing topics, a backlog run whose consumers are held by design, or
     * no group). {@code acked}, {@code received}, {@code settled}: the window's sums.
     */
    public static double inWindow(Workload w, long acked, long received, long settled) {
        int classic = classicGroups(w);
        int share = w.producerCount() > 0 && !w.existingTopics() ? w.shareGroups().groupsPerTopic() : 0;
        if (w.consumerBacklogRecords() > 0 || classic + share == 0) {
            return Double.NaN;
        }
        return Math.max(classic > 0 ? acked - (double) received / classic : Double.NEGATIVE_INFINITY,
                share > 0 ? acked - (double) settled / share : Double.NEGATIVE_INFINITY);
    }

    /** The same from a result's workload object (null: 0). */
    public static int classicGroups(JsonNode workload) {
        if (workload == null || workload.path("producersPerTopic").asInt(0) <= 0
                || workload.path("existingTopics").asBoolean(false)) {
            return 0;
        }
        return Math.max(0, workload.path("subscriptionsPerTopic").asInt(0));
    }

    /** Counts the next interval's acknowledged and received messages; the unread count at its end, or -1 when not counted. */
    public long after(long ackedInInterval, long receivedInInterval) {
        if (groups == 0) {
            return -1;
        }
        acked += ackedInInterval;
        received += receivedInInterval;
        return Math.max(0, Math.round(acked - (double) received / groups));
    }

    /** A copy that goes on from these counts. */
    public UnreadCount copy() {
        UnreadCount c = new UnreadCount(groups);
        c.acked = acked;
        c.received = received;
        return c;
    }
}
