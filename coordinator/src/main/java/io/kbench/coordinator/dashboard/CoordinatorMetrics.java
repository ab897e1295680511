package io.kbench.coordinator.dashboard;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;
import io.kbench.protocol.metrics.MetricFamilies;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The coordinator's {@code /metrics}: the run's merged, cluster-wide figures as Prometheus metrics. Counters
 * are run totals from the run's start (warm-up included: a counter never goes back), so
 * {@code rate(kbench_messages_acked_total[1m])} is the cluster's acknowledged rate; latency histograms hold the
 * bucket counts of every merged interval since the start (all workers' samples). No sample carries a timestamp of
 * its own; the interval figures appear with the first merged interval. Not thread-safe:
 * {@link DashboardState} feeds and reads it under its lock.
 */
final class CoordinatorMetrics {
    /** The run states, in order; {@code kbench_run_state} has one series each. */
    static final List<String> STATES = List.of("preparing", "warm-up", "measuring", "draining", "done", "failed");

    private Counters totals = Counters.ZERO;
    private long intervals;
    private long saturated;
    private long consumerLag = -1;
    private long shareBacklog = -1;
    /** The oldest send still waiting for its acknowledgement at the last interval's reading, ms; -1: not reported. */
    private double unackedAgeMillis = -1;
    /** The workers' processes in the last interval. */
    private io.kbench.coordinator.merge.HostFigures hosts = io.kbench.coordinator.merge.HostFigures.NONE;
    /** Each latency's bucket counts since the run started, from the merged intervals' histograms. */
    private final EnumMap<Metric, long[]> buckets = new EnumMap<>(Metric.class);
    private final EnumMap<Metric, Double> sumsSeconds = new EnumMap<>(Metric.class);

    void reset() {
        totals = Counters.ZERO;
        intervals = 0;
        saturated = 0;
        consumerLag = -1;
        shareBacklog = -1;
        unackedAgeMillis = -1;
        hosts = io.kbench.coordinator.merge.HostFigures.NONE;
        buckets.clear();
        sumsSeconds.clear();
    }

    void add(MergedInterval i, boolean saturatedInterval) {
        totals = totals.plus(i.counters());
        intervals++;
        if (saturatedInterval) {
            saturated++;
        }
        consumerLag = i.consumerLag();
        shareBacklog = i.shareBacklog();
        Double age = i.producerClients().values().get(io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC);
        unackedAgeMillis = age != null && Double.isFinite(age) && age >= 0 ? age : -1;
        hosts = i.hosts();
        for (Metric m : Metric.values()) {
            LatencyStats s = i.stats(m);
            sumsSeconds.merge(m, s.mean() * s.count() / 1e6, Double::sum);
        }
    }

    /** An interval's merged histograms (µs), into the latency histograms' buckets. */
    void addHistograms(java.util.Map<Metric, org.HdrHistogram.Histogram> histograms) {
        histograms.forEach((m, h) -> MetricFamilies.addToBuckets(h,
                buckets.computeIfAbsent(m, k -> MetricFamilies.emptyBuckets())));
    }

    /**
     * The scrape.
     *
     * @param targetRate      the workload's target publish rate, msg/s (≤ 0: unthrottled, not exported)
     * @param verification    whether the run verifies (its lost/duplicated counters are exported)
     * @param snapshotAges    seconds since each worker's last snapshot, by worker id
     */
    MetricFamilies families(String runId, String workload, String state, long targetRate, boolean verification,
                            long clockBoundMicros, Map<String, Double> snapshotAges) {
        return families(runId, workload, state, targetRate, verification, false, clockBoundMicros, snapshotAges);
    }

    /** As the other, with the share groups' counters when {@code share}. */
    MetricFamilies families(String runId, String workload, String state, long targetRate, boolean verification,
                            boolean share, long clockBoundMicros, Map<String, Double> snapshotAges) {
        return families(runId, workload, null, state, targetRate, verification, share, clockBoundMicros, snapshotAges);
    }

    /**
     * As the other, labelled {@code part} too when the run is part of a sweep or a max-rate search ("sweep 2 of 4:
     * producer.acks=all"; null: a run of its own, no such label): each combination's series can be told apart by it.
     */
    MetricFamilies families(String runId, String workload, String part, String state, long targetRate,
                            boolean verification, boolean share, long clockBoundMicros, Map<String, Double> snapshotAges) {
        MetricFamilies f = part == null ? new MetricFamilies("run_id", runId, "workload", workload)
                : new MetricFamilies("run_id", runId, "workload", workload, "part", part);
        f.buildInfo(io.kbench.protocol.Versions.kbench(), io.kbench.protocol.Versions.commit(),
                io.kbench.protocol.Versions.PROTOCOL);
        f.state("kbench_run_state", "the run's state (1 for the current one)", STATES, state);
        f.gauge("kbench_clock_bound_seconds", "bound on the workers' clock offset error (adds to end-to-end "
                + "latency uncertainty)", Unit.SECONDS, clockBoundMicros / 1e6);
        f.gauges("kbench_snapshot_age_seconds", "time since each worker's last snapshot", Unit.SECONDS,
                "worker", snapshotAges);
        if (targetRate > 0) {
            f.gauge("kbench_target_messages_per_second", "the workload's target publish rate, all producers", null,
                    targetRate);
        }
        if (intervals == 0) {
            return f; // nothing measured yet: the interval figures appear with the first interval
        }
        f.counter("kbench_messages_sent", "messages handed to the producers, all workers", totals.sent());
        f.counter("kbench_messages_acked", "messages acknowledged by the brokers, all workers", totals.acked());
        f.counter("kbench_messages_failed", "messages that failed to send or were not acknowledged", totals.failed());
        f.counter("kbench_messages_received", "messages received by the consumers (each subscription counts)",
                totals.received());
        f.counter("kbench_acked_bytes", "value bytes acknowledged by the brokers", Unit.BYTES, totals.ackedBytes());
        f.counter("kbench_received_bytes", "value bytes received by the consumers", Unit.BYTES,
                totals.receivedBytes());
        f.counter("kbench_intervals", "reporting intervals merged so far", intervals);
        f.counter("kbench_saturated_intervals", "intervals in which the load generator fell behind its schedule "
                + "(publish delay p99 above the saturation threshold)", saturated);
        if (consumerLag >= 0) {
            f.gauge("kbench_consumer_lag_messages", "the consumers' lag at the last interval's end, as their last fetches told them, all workers",
                    null, consumerLag);
        }
        if (unackedAgeMillis >= 0) {
            f.gauge("kbench_unacked_send_age_max_seconds", "how long the oldest send still waiting for its "
                    + "acknowledgement had waited at the last interval's end, any producer (a partition not served "
                    + "shows here while it lasts)", Unit.SECONDS, unackedAgeMillis / 1e3);
        }
        if (shareBacklog >= 0) {
            f.gauge("kbench_share_backlog_messages", "the share groups' backlog at the last interval's end, as the "
                    + "brokers count it (their lag per share-partition, summed)", null, shareBacklog);
        }
        if (verification) {
            f.counter("kbench_verification_lost_messages", "verification: messages missing from a producer's "
                    + "sequence", totals.lost());
            f.counter("kbench_verification_duplicated_messages", "verification: messages received again",
                    totals.duplicated());
            f.counter("kbench_verification_out_of_order_messages", "verification: messages received after a later "
                    + "one", totals.outOfOrder());
        }
        if (share) {
            f.counter("kbench_share_deliveries", "share consumers: deliveries, a record delivered again counted again, "
                    + "all workers", totals.shareDelivered());
            f.counter("kbench_share_redeliveries", "share consumers: deliveries of a record delivered before",
                    totals.shareRedelivered());
            f.counter("kbench_share_accepted_messages", "share consumers: deliveries accepted (processed)",
                    totals.shareAccepted());
            f.counter("kbench_share_released_messages", "share consumers: deliveries released (delivered again)",
                    totals.shareReleased());
            f.counter("kbench_share_rejected_messages", "share consumers: deliveries rejected (archived)",
                    totals.shareRejected());
        }
        hostFamilies(f);
        for (Metric m : Metric.values()) {
            f.histogram("kbench_" + MetricFamilies.name(m), MetricFamilies.help(m) + ", all workers merged",
                    buckets.getOrDefault(m, MetricFamilies.emptyBuckets()), sumsSeconds.getOrDefault(m, 0.0));
        }
        return f;
    }

    /**
     * The workers' processes and hosts in the last interval (docs/metrics.md, "Worker hosts"): the busiest worker's
     * CPU and the mean, the most any spent in collections and compiling, the fullest heap after GC, the latest wake-up
     * of a load thread, the busiest host and the most stolen — what tells a generator short of CPU while the run goes on.
     */
    private void hostFamilies(MetricFamilies f) {
        if (hosts.workers() == 0) {
            return;
        }
        f.gauge("kbench_workers_cpu_max_ratio", "the busiest worker process's CPU in the last interval, share of its "
                + "processors", Unit.RATIO, hosts.cpuMax());
        f.gauge("kbench_workers_cpu_mean_ratio", "the worker processes' CPU in the last interval, share of their "
                + "processors, mean over the workers", Unit.RATIO, hosts.cpuMean());
        f.gauge("kbench_workers_gc_pause_max_seconds", "the most collection time of a worker process in the last "
                + "interval", Unit.SECONDS, hosts.gcMicrosMax() / 1e6);
        if (hosts.jitShareMax() >= 0) {
            f.gauge("kbench_workers_jit_cpu_max_ratio", "the most CPU a worker's JIT compiler threads used in the last "
                    + "interval, share of its processors", Unit.RATIO, hosts.jitShareMax());
        }
        if (hosts.heapAfterGcMax() >= 0) {
            f.gauge("kbench_workers_heap_after_gc_max_ratio", "the fullest worker heap after its latest collection, "
                    + "share of its maximum", Unit.RATIO, hosts.heapAfterGcMax());
        }
        if (hosts.stallMicrosMax() >= 0) {
            f.gauge("kbench_workers_late_wakeup_max_seconds", "the longest a load thread of any worker woke later than "
                    + "its park asked in the last interval", Unit.SECONDS, hosts.stallMicrosMax() / 1e6);
        }
        if (hosts.hostBusyMax() >= 0) {
            f.gauge("kbench_workers_host_busy_max_ratio", "the busiest worker host's share of CPU time spent running in "
                    + "the last interval, every process on it", Unit.RATIO, hosts.hostBusyMax());
        }
        if (hosts.hostStealMax() >= 0) {
            f.gauge("kbench_workers_host_steal_max_ratio", "the most of a worker host's CPU time its hypervisor gave to "
                    + "other guests in the last interval", Unit.RATIO, hosts.hostStealMax());
        }
    }

    static Map<String, Double> ages(Map<String, Long> lastHeard, long nowMicros) {
        Map<String, Double> out = new LinkedHashMap<>();
        lastHeard.forEach((id, at) -> out.put(id, Math.max(0, nowMicros - at) / 1e6));
        return out;
    }
}
