package io.kbench.worker;

import java.util.EnumMap;
import java.util.List;
import java.util.function.Supplier;

import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.metrics.MetricFamilies;
import io.prometheus.metrics.model.snapshots.Unit;
import org.HdrHistogram.Histogram;

/**
 * The worker's own {@code /metrics} ({@code kbench worker --metrics-port}): what this worker measured in its
 * current (or last) run. Counters are the run's live totals, read at the scrape (they start again at the
 * next run, whose {@code run_id} label differs); lag and latency summaries come from the snapshots it
 * streams to the coordinator: bucket counts and sum since the run started (histograms, to add up across workers). Every series is labelled with the run id, the
 * workload and this worker's id. Cluster-wide figures are the coordinator's {@code /metrics}. Thread-safe.
 */
public final class WorkerMetrics implements RunObserver {
    /** The run states, in order; {@code kbench_worker_run_state} has one series each. */
    static final List<String> STATES = List.of("idle", "prepared", "running", "ended", "aborted");

    private final String workerId;
    private String runId = "";
    private String workload = "";
    private String state = "idle";
    private int producers;
    private int consumers;
    private long targetRate = -1;
    private long clockOffsetMicros;
    private long snapshots;
    private Supplier<Counters> live = () -> Counters.ZERO;
    private boolean shareConsumers;
    private long shareBacklog = -1;
    private long consumerLag = -1;
    /** Each latency's bucket counts since the run started (MetricFamilies.BUCKETS_SECONDS). */
    private final EnumMap<Metric, long[]> buckets = new EnumMap<>(Metric.class);
    private final EnumMap<Metric, Double> sumsSeconds = new EnumMap<>(Metric.class);
    /** This worker's process over the run's intervals: its last interval's sample and the CPU, GC and JIT time summed. */
    private io.kbench.protocol.HostSample host = io.kbench.protocol.HostSample.NONE;
    private long cpuMicros;
    private long gcMicros;
    private long jitMicros = -1;

    public WorkerMetrics(String workerId) {
        this.workerId = workerId;
    }

    @Override
    public synchronized void prepared(RunSpec spec, Supplier<Counters> liveCounters) {
        runId = spec.runId();
        workload = spec.workload();
        state = "prepared";
        producers = spec.producers().size();
        consumers = spec.consumers().size();
        shareConsumers = spec.consumers().stream().anyMatch(RunSpec.Consumer::share);
        shareBacklog = -1;
        long rate = 0;
        for (RunSpec.Producer p : spec.producers()) {
            rate = p.ratePerSecond() < 0 || rate < 0 ? -1 : rate + p.ratePerSecond();
        }
        targetRate = rate;
        clockOffsetMicros = spec.clockOffsetMicros();
        snapshots = 0;
        live = liveCounters;
        consumerLag = -1;
        buckets.clear();
        sumsSeconds.clear();
        host = io.kbench.protocol.HostSample.NONE;
        cpuMicros = 0;
        gcMicros = 0;
        jitMicros = -1;
    }

    @Override
    public synchronized void started(RunSpec spec) {
        if (spec.runId().equals(runId)) {
            state = "running";
        }
    }

    @Override
    public void snapshot(RunSpec spec, IntervalSnapshot s) {
        EnumMap<Metric, Histogram> decoded = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            byte[] b = s.histogram(m);
            decoded.put(m, b.length == 0 ? LatencyHistograms.create() : LatencyHistograms.decode(b));
        }
        synchronized (this) {
            if (!spec.runId().equals(runId)) {
                return;
            }
            snapshots++;
            consumerLag = s.consumerLag();
            shareBacklog = s.shareBacklog();
            if (s.host().known()) {
                host = s.host();
                cpuMicros += host.cpuMicros();
                gcMicros += host.gcMicros();
                if (host.jitMicros() >= 0) {
                    jitMicros = Math.max(0, jitMicros) + host.jitMicros();
                }
            }
            decoded.forEach((m, h) -> {
                MetricFamilies.addToBuckets(h, buckets.computeIfAbsent(m, k -> MetricFamilies.emptyBuckets()));
                sumsSeconds.merge(m, h.getTotalCount() == 0 ? 0.0 : h.getMean() * h.getTotalCount() / 1e6, Double::sum);
            });
        }
    }

    @Override
    public synchronized void clockOffset(RunSpec spec, long offsetMicros) {
        if (spec.runId().equals(runId)) {
            clockOffsetMicros = offsetMicros;
        }
    }

    @Override
    public synchronized void ended(RunSpec spec, String abortReason) {
        if (spec.runId().equals(runId)) {
            state = abortReason == null ? "ended" : "aborted";
        }
    }

    /** The scrape. */
    public synchronized MetricFamilies families() {
        MetricFamilies f = new MetricFamilies("run_id", runId, "workload", workload, "worker", workerId);
        f.buildInfo(io.kbench.protocol.Versions.kbench(), io.kbench.protocol.Versions.commit(),
                io.kbench.protocol.Versions.PROTOCOL);
        f.state("kbench_worker_run_state", "this worker's run state (1 for the current one)", STATES, state);
        f.gauge("kbench_worker_producers", "producers this worker runs", null, producers);
        f.gauge("kbench_worker_consumers", "consumers this worker runs", null, consumers);
        if (targetRate > 0) {
            f.gauge("kbench_worker_target_messages_per_second", "this worker's share of the target publish rate",
                    null, targetRate);
        }
        f.gauge("kbench_worker_clock_offset_seconds", "this worker's clock minus the coordinator's, as the "
                + "coordinator last estimated it", Unit.SECONDS, clockOffsetMicros / 1e6);
        // live counters, read now: Prometheus's rate() over them is smooth whatever its scrape interval
        Counters totals = live.get();
        f.counter("kbench_worker_messages_sent", "messages handed to this worker's producers", totals.sent());
        f.counter("kbench_worker_messages_acked", "messages acknowledged by the brokers", totals.acked());
        f.counter("kbench_worker_messages_failed", "messages that failed to send or were not acknowledged",
                totals.failed());
        f.counter("kbench_worker_messages_received", "messages received by this worker's consumers",
                totals.received());
        f.counter("kbench_worker_acked_bytes", "value bytes acknowledged by the brokers", Unit.BYTES,
                totals.ackedBytes());
        f.counter("kbench_worker_received_bytes", "value bytes received by this worker's consumers", Unit.BYTES,
                totals.receivedBytes());
        if (shareConsumers) {
            f.counter("kbench_worker_share_deliveries", "deliveries to this worker's share consumers (a record "
                    + "delivered again counts again)", totals.shareDelivered());
            f.counter("kbench_worker_share_redeliveries", "deliveries of records delivered before (delivery count "
                    + "above 1)", totals.shareRedelivered());
            f.counter("kbench_worker_share_accepted_messages", "records this worker's share consumers accepted",
                    totals.shareAccepted());
            f.counter("kbench_worker_share_released_messages", "records they released (to be delivered again)",
                    totals.shareReleased());
            f.counter("kbench_worker_share_rejected_messages", "records they rejected (archived)",
                    totals.shareRejected());
        }
        f.counter("kbench_worker_snapshots", "reporting intervals this worker measured in the run", snapshots);
        if (snapshots == 0) {
            return f; // the interval figures appear with the first snapshot
        }
        if (consumerLag >= 0) {
            f.gauge("kbench_worker_consumer_lag_messages", "this worker's consumers' lag at the last interval's end",
                    null, consumerLag);
        }
        if (shareBacklog >= 0) {
            f.gauge("kbench_worker_share_backlog_messages", "the run's share groups' backlog at the last interval's "
                    + "end, as the brokers count it (the one worker that reads it)", null, shareBacklog);
        }
        hostFamilies(f);
        for (Metric m : Metric.values()) {
            f.histogram("kbench_worker_" + MetricFamilies.name(m), MetricFamilies.help(m) + ", this worker",
                    buckets.getOrDefault(m, MetricFamilies.emptyBuckets()), sumsSeconds.getOrDefault(m, 0.0));
        }
        return f;
    }

    /**
     * This worker's process and host (docs/metrics.md, "Worker hosts"): CPU, collection and JIT time as counters over
     * the run's intervals ({@code rate()} of one over {@code kbench_worker_processors} is the share of its processors),
     * the last interval's heap after GC, latest wake-up of a load thread and the whole host's busy and stolen shares.
     */
    private void hostFamilies(MetricFamilies f) {
        if (!host.known()) {
            return;
        }
        f.gauge("kbench_worker_processors", "processors this worker's JVM may use", null, host.processors());
        f.counter("kbench_worker_process_cpu_seconds", "CPU time of this worker's process over the run's intervals (with "
                + "what shares its process: a coordinator, an embedded broker)", Unit.SECONDS, cpuMicros / 1e6);
        f.counter("kbench_worker_gc_pause_seconds", "collection time of this worker's process over the run's intervals",
                Unit.SECONDS, gcMicros / 1e6);
        if (jitMicros >= 0) {
            f.counter("kbench_worker_jit_cpu_seconds", "CPU time of its JIT compiler threads over the run's intervals",
                    Unit.SECONDS, jitMicros / 1e6);
        }
        if (host.heapAfterGcShare() >= 0) {
            f.gauge("kbench_worker_heap_after_gc_ratio", "heap in use after the latest collection, share of its maximum",
                    Unit.RATIO, host.heapAfterGcShare());
        }
        if (host.stallMicros() >= 0) {
            f.gauge("kbench_worker_late_wakeup_max_seconds", "the longest a load thread woke later than its park asked "
                    + "in the last interval (a pause, or no core in time)", Unit.SECONDS, host.stallMicros() / 1e6);
        }
        if (host.hostBusyShare() >= 0) {
            f.gauge("kbench_worker_host_busy_ratio", "share of the whole host's CPU time spent running in the last "
                    + "interval, every process on it", Unit.RATIO, host.hostBusyShare());
        }
        if (host.hostStealShare() >= 0) {
            f.gauge("kbench_worker_host_steal_ratio", "share of the host's CPU time its hypervisor gave to other guests "
                    + "in the last interval", Unit.RATIO, host.hostStealShare());
        }
    }
}
