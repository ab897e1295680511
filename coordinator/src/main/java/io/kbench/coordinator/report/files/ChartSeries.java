package io.kbench.coordinator.report.files;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.protocol.Metric;

/**
 * The time charts of a report page, built one interval at a time in memory that does not grow with the run: at
 * most {@code maxPoints} points, each a bucket of {@link #intervalsPerPoint()} consecutive intervals — rates
 * averaged, latency percentiles, lag and the clients' figures as the page draws them (percentiles and lag at their
 * worst in the bucket, so a stall stays visible; client metrics and the worker hosts' mean CPU averaged, the busiest
 * worker's CPU, GC time and heap at their worst), a bucket shaded warm-up, saturated or
 * broker-down when any of its intervals was.
 *
 * <p>Two ways to fill it: {@link #fixed} with a bucket size chosen up front (the written report, which knows its
 * interval count), or {@link #growing}, which starts at one interval per point and, when the points would
 * exceed {@code maxPoints}, merges neighbours pairwise and doubles the bucket (the live dashboard, which does not
 * know how long the run will be). Merging is exact: two full buckets of k intervals average to the same figures
 * as one bucket of 2k. Not thread-safe.
 */
public final class ChartSeries {
    /** The latency metrics charted and their percentiles (max over the bucket of each). */
    static final List<String> QUANTILES = List.of("p50", "p99", "p999", "max");
    static final Metric[] METRICS = Metric.values();
    /** Broker rates charted: summed over sources, averaged over a bucket (bytes/s). */
    static final List<String> BROKER_RATES = List.of("bytesInPerSec", "bytesOutPerSec", "replicationBytesInPerSec");
    /** Broker idle shares charted: the lowest source, the lowest interval of a bucket. */
    static final List<String> BROKER_IDLE = List.of("requestHandlerIdle", "networkProcessorIdle");
    /** Produce request time and its parts (interval means, ms): the slowest source, the worst interval of a bucket. */
    static final List<String> BROKER_TIMES = List.of("produceTotalTimeMsMean", "produceRequestQueueTimeMsMean",
            "produceLocalTimeMsMean", "produceRemoteTimeMsMean", "produceResponseQueueTimeMsMean",
            "produceResponseSendTimeMsMean");

    private final long runStartMillis;
    private final List<String> clientKeys;
    private final int maxPoints;
    private final boolean growing;
    private int per;
    private final List<ChartPoint> points = new ArrayList<>();
    /** What the classic groups have not read (not counted unless {@link #countingUnread}). */
    private io.kbench.coordinator.report.UnreadCount unread = new io.kbench.coordinator.report.UnreadCount(0);
    /** Messages sent and neither acknowledged nor failed, by the end of the last interval added. */
    private long outstanding;

    private ChartSeries(long runStartMillis, List<String> clientKeys, int maxPoints, int per, boolean growing) {
        if (maxPoints < 2 || per < 1) {
            throw new IllegalArgumentException("maxPoints " + maxPoints + ", per " + per);
        }
        this.runStartMillis = runStartMillis;
        this.clientKeys = List.copyOf(clientKeys);
        this.maxPoints = maxPoints;
        this.per = per;
        this.growing = growing;
    }

    /** A series for {@code intervals} intervals in at most {@code maxPoints} points of equal size. */
    public static ChartSeries fixed(long runStartMillis, List<String> clientKeys, int maxPoints, long intervals) {
        int per = (int) Math.max(1, (intervals + maxPoints - 1) / maxPoints);
        return new ChartSeries(runStartMillis, clientKeys, maxPoints, per, false);
    }

    /** A series of any length that keeps at most {@code maxPoints} points (an even number) by coarsening. */
    public static ChartSeries growing(long runStartMillis, List<String> clientKeys, int maxPoints) {
        return new ChartSeries(runStartMillis, clientKeys, maxPoints - maxPoints % 2, 1, true);
    }

    /**
     * Charts what the classic groups have not read, exactly ({@link io.kbench.coordinator.report.UnreadCount}), for
     * {@code groups} classic groups per topic ({@link io.kbench.coordinator.report.UnreadCount#classicGroups}).
     */
    public ChartSeries countingUnread(int groups) {
        this.unread = new io.kbench.coordinator.report.UnreadCount(groups);
        return this;
    }

    /** Intervals per point now. */
    public int intervalsPerPoint() {
        return per;
    }

    /** Points so far. */
    public int size() {
        return points.size();
    }

    /** Adds the next interval (intervals come in order). */
    public void add(ResultFile.Interval i) {
        ChartPoint last = points.isEmpty() ? null : points.get(points.size() - 1);
        if (last == null || last.n >= per) {
            if (growing && points.size() == maxPoints) {
                coarsen();
            }
            last = new ChartPoint(clientKeys.size());
            points.add(last);
        }
        last.add(i, clientKeys);
        last.unread = Math.max(last.unread, unread.after(i.publish().acked(), i.consume().received()));
        // the cluster served the producers nothing: nothing acknowledged while messages were outstanding, or while they
        // waited in the client's send() half the interval (the diagnosis's cluster-unavailable, TrialVerdict.unserved)
        outstanding += i.publish().sent() - i.publish().acked() - i.publish().failed();
        Double blocked = i.client() == null || i.client().producer() == null ? null
                : i.client().producer().get(io.kbench.coordinator.capacity.TrialVerdict.BLOCKED_METRIC);
        boolean nothing = io.kbench.coordinator.capacity.TrialVerdict.servedNothing(i.publish().acked(), outstanding,
                blocked);
        last.unserved |= nothing;
        // ... or served others while a send waited the whole interval (TrialVerdict.leftWaiting)
        Double age = i.client() == null || i.client().producer() == null ? null
                : i.client().producer().get(io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC);
        LatencyStats latency = i.publish().latencyMicros();
        last.leftWaiting |= !nothing && latency != null && io.kbench.coordinator.capacity.TrialVerdict.leftWaiting(age,
                (i.endMillis() - i.startMillis()) * 1000, latency.count(), latency.max());
    }

    /** A copy that later {@link #add}s to this one do not change (at most {@code maxPoints} small copies). */
    public ChartSeries copy() {
        ChartSeries c = new ChartSeries(runStartMillis, clientKeys, maxPoints, per, growing);
        c.unread = unread.copy();
        c.outstanding = outstanding;
        for (ChartPoint p : points) {
            c.points.add(p.copy());
        }
        return c;
    }

    /** Halves the points: each pair becomes one of twice the intervals. */
    private void coarsen() {
        List<ChartPoint> merged = new ArrayList<>(points.size() / 2 + 1);
        for (int k = 0; k < points.size(); k += 2) {
            ChartPoint a = points.get(k);
            if (k + 1 < points.size()) {
                a.merge(points.get(k + 1));
            }
            merged.add(a);
        }
        points.clear();
        points.addAll(merged);
        per *= 2;
    }

    /**
     * The series as the page draws them ({@link PageData.Charts}): {@code intervalsPerPoint}, {@code t} (seconds since the
     * run's start, at each point's end), {@code publishRate}, {@code consumeRate}, {@code shareDeliverRate} and
     * {@code shareAcceptRate} (null where no interval had share consumers), {@code targetSeries} ({@code
     * target} while the producers send, null from {@code measureEndMillis} on or when unthrottled), {@code lag}, {@code unread}
     * (null unless {@link #countingUnread}), {@code shareBacklog} (the share groups' backlog, null where not read),
     * {@code latency} (ms), {@code client} and {@code bands} (warm-up, saturated, broker down, and after the measured
     * window from {@code measureEndMillis} on).
     */
    public PageData.Charts charts(long target, long measureEndMillis) {
        List<Double> t = new ArrayList<>(points.size());
        List<Double> publish = new ArrayList<>(points.size());
        List<Double> consume = new ArrayList<>(points.size());
        List<Double> shareDeliver = new ArrayList<>(points.size());
        List<Double> shareAccept = new ArrayList<>(points.size());
        List<Long> targetSeries = new ArrayList<>(points.size());
        List<Long> lag = new ArrayList<>(points.size());
        List<Long> unread = new ArrayList<>(points.size());
        List<Long> shareBacklog = new ArrayList<>(points.size());
        Map<String, Map<String, List<Double>>> latency = new LinkedHashMap<>();
        for (int m = 0; m < METRICS.length; m++) {
            Map<String, List<Double>> q = new LinkedHashMap<>();
            for (int k = 0; k < QUANTILES.size(); k++) {
                List<Double> values = new ArrayList<>(points.size());
                for (ChartPoint p : points) {
                    long v = p.latency[m * QUANTILES.size() + k];
                    values.add(v < 0 ? null : v / 1000.0);
                }
                q.put(QUANTILES.get(k), values);
            }
            latency.put(METRICS[m].key(), q);
        }
        Map<String, List<Double>> client = new LinkedHashMap<>();
        for (int c = 0; c < clientKeys.size(); c++) {
            List<Double> values = new ArrayList<>(points.size());
            for (ChartPoint p : points) {
                values.add(p.clientN[c] == 0 ? null : p.clientSum[c] / p.clientN[c]);
            }
            client.put(clientKeys.get(c), values);
        }
        Map<String, List<Double>> hosts = new LinkedHashMap<>();
        for (String k : List.of("cpuMean", "cpuMax", "gcMsMax", "heapAfterGcMax", "stallMsMax", "hostBusyMax",
                "hostStealMax", "jitMax")) {
            hosts.put(k, new ArrayList<>(points.size()));
        }
        for (ChartPoint p : points) {
            boolean known = p.hostN > 0;
            hosts.get("cpuMean").add(known ? 100 * p.cpuMeanSum / p.hostN : null);
            hosts.get("cpuMax").add(known ? 100 * p.cpuMax : null);
            hosts.get("gcMsMax").add(known ? p.gcMicrosMax / 1000.0 : null);
            hosts.get("heapAfterGcMax").add(known && p.heapMax >= 0 ? 100 * p.heapMax : null);
            hosts.get("stallMsMax").add(known && p.stallMicrosMax >= 0 ? p.stallMicrosMax / 1000.0 : null);
            hosts.get("hostBusyMax").add(known && p.hostBusyMax >= 0 ? 100 * p.hostBusyMax : null);
            hosts.get("hostStealMax").add(known && p.hostStealMax >= 0 ? 100 * p.hostStealMax : null);
            hosts.get("jitMax").add(known && p.jitShareMax >= 0 ? 100 * p.jitShareMax : null);
        }
        Map<String, List<Double>> brokers = new LinkedHashMap<>();
        for (int k = 0; k < BROKER_RATES.size(); k++) {
            List<Double> values = new ArrayList<>(points.size());
            for (ChartPoint p : points) {
                values.add(p.brokerN == 0 ? null : p.brokerRates[k] / p.brokerN / (1024 * 1024));
            }
            brokers.put(BROKER_RATES.get(k), values);
        }
        for (int k = 0; k < BROKER_IDLE.size(); k++) {
            List<Double> values = new ArrayList<>(points.size());
            for (ChartPoint p : points) {
                values.add(p.brokerN == 0 || Double.isNaN(p.brokerIdle[k]) ? null : 100 * p.brokerIdle[k]);
            }
            brokers.put(BROKER_IDLE.get(k), values);
        }
        for (int k = 0; k < BROKER_TIMES.size(); k++) {
            List<Double> values = new ArrayList<>(points.size());
            for (ChartPoint p : points) {
                values.add(p.brokerN == 0 || Double.isNaN(p.brokerTimes[k]) ? null : p.brokerTimes[k]);
            }
            brokers.put(BROKER_TIMES.get(k), values);
        }
        Map<String, List<double[]>> bands = new LinkedHashMap<>();
        bands.put("warmup", new ArrayList<>());
        bands.put("saturated", new ArrayList<>());
        bands.put("brokerDown", new ArrayList<>());
        bands.put("unserved", new ArrayList<>());
        bands.put("leftWaiting", new ArrayList<>());
        // after the measured window: the consumers draining, or a generator behind its schedule still sending
        bands.put("after", new ArrayList<>());
        for (ChartPoint p : points) {
            t.add((p.endMillis - runStartMillis) / 1000.0);
            publish.add(p.publishSum / p.n);
            consume.add(p.consumeSum / p.n);
            shareDeliver.add(p.shareN == 0 ? null : p.shareDeliverSum / p.n);
            shareAccept.add(p.shareN == 0 ? null : p.shareAcceptSum / p.n);
            targetSeries.add(target < 0 || p.startMillis >= measureEndMillis ? null : target);
            lag.add(p.lag < 0 ? null : p.lag);
            unread.add(p.unread < 0 ? null : p.unread);
            shareBacklog.add(p.shareBacklog < 0 ? null : p.shareBacklog);
            double from = (p.startMillis - runStartMillis) / 1000.0;
            double to = (p.endMillis - runStartMillis) / 1000.0;
            band(bands.get("warmup"), p.warmup, from, to);
            band(bands.get("saturated"), p.saturated, from, to);
            band(bands.get("brokerDown"), p.brokerDown, from, to);
            band(bands.get("unserved"), p.unserved, from, to);
            band(bands.get("leftWaiting"), p.leftWaiting, from, to);
            band(bands.get("after"), measureEndMillis > 0 && p.startMillis >= measureEndMillis, from, to);
        }
        return new PageData.Charts(per, t, publish, consume, shareDeliver, shareAccept, targetSeries, lag, unread,
                shareBacklog, latency, client, hosts, brokers, bands);
    }

    /** Adds [from, to] to the shaded spans when {@code on}, joined to the previous span when they touch. */
    private static void band(List<double[]> spans, boolean on, double from, double to) {
        if (!on) {
            return;
        }
        double[] prev = spans.isEmpty() ? null : spans.get(spans.size() - 1);
        if (prev != null && Math.abs(prev[1] - from) < 1e-9) {
            prev[1] = to;
        } else {
            spans.add(new double[] {from, to});
        }
    }

}
