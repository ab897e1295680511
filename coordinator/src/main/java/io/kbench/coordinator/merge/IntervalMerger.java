package io.kbench.coordinator.merge;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kbench.protocol.ClientMetricsMerge;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;

/**
 * Merges the workers' snapshot streams into cluster-wide intervals.
 *
 * <p>An interval is complete once every worker has reported it, or has already sent its last snapshot
 * (a worker's last snapshot closes its stream). Complete intervals are handed out in order, once each.
 * Snapshots are never lost silently: a sequence gap or a repeated sequence number from a worker is recorded
 * as an issue (the repeat is not counted twice). Running totals over everything received are kept for
 * drain decisions.
 *
 * <p>Memory is bounded by the run's shape, not its length: an interval's histograms live only until it is
 * complete; then its figures ({@link MergedInterval}) are handed out and its histograms are added into the
 * run's cumulative {@link SummaryHistograms}. The merger keeps no list of past intervals.
 *
 * <p>Threads: snapshots arrive on several gRPC threads; every method is synchronized.
 */
public final class IntervalMerger {
    private final List<String> workers;
    private final Map<String, Long> expected = new HashMap<>();
    private final Map<String, Long> lastSequence = new HashMap<>();
    private final Map<String, Boolean> producersDone = new HashMap<>();
    private final TreeMap<Long, Pending> pending = new TreeMap<>();
    private final SummaryHistograms summary;
    /** Adds each snapshot's histograms without building them (guarded by this merger's lock). */
    private final io.kbench.protocol.HistogramDecoder decoder = new io.kbench.protocol.HistogramDecoder();
    private final List<String> issues = new ArrayList<>();
    private final Map<String, Counters> perWorker = new HashMap<>();
    private final Map<String, WorkerHostTotals> perWorkerHost = new HashMap<>();
    private Counters totals = Counters.ZERO;
    private long producersDoneMicros;
    private long lastReceiveMicros;
    private long nextToEmit;

    /** The share groups' per-record check: every snapshot's deliveries, whenever it arrives (once). */
    private final ShareVerifier shareVerifier = new ShareVerifier();

    /** Each worker's latest share-consumer spread (running totals): one entry per worker, replaced. */
    private final Map<String, io.kbench.protocol.ShareSpread> lastSpread = new java.util.LinkedHashMap<>();
    private final PartitionSpread partitionSpread = new PartitionSpread();

    private static final class Pending {
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        Counters counters = Counters.ZERO;
        final EnumMap<Metric, Histogram> histograms = MergedInterval.emptyHistograms();
        /** A set: completeness is checked against every worker on every snapshot (1,000 workers: 10^6 lookups). */
        final java.util.Set<String> reported = new java.util.LinkedHashSet<>();
        final IntervalErrors errors = new IntervalErrors();
        long lag = -1;
        long shareBacklog = -1;
        final ClientMetricsMerge producerClients = new ClientMetricsMerge();
        final ClientMetricsMerge consumerClients = new ClientMetricsMerge();
        /** Each worker's host sample: the interval's host figures, and its totals if the interval is measured. */
        final Map<String, io.kbench.protocol.HostSample> hostSamples = new java.util.LinkedHashMap<>();
        /** The brokers' figures, by source (one worker reads them; a source appears once). */
        final Map<String, io.kbench.protocol.BrokerSample> brokers = new java.util.LinkedHashMap<>();
    }

    /** Most broker sources an interval keeps figures of. */
    static final int MAX_BROKER_SOURCES = 100;

    /** Hears of every merged interval with its cluster-wide histograms (before they are released). */
    public interface MergedHistograms {
        void merged(MergedInterval interval, EnumMap<Metric, Histogram> histograms);
    }

    private MergedHistograms onMerged;

    /** Tells {@code listener} of every interval merged from now on (on the thread that completed it). */
    public IntervalMerger onMerged(MergedHistograms listener) {
        this.onMerged = listener;
        return this;
    }

    /** A merger whose summary counts every interval (no warm-up). */
    public IntervalMerger(List<String> workerIds) {
        this(workerIds, SummaryHistograms.from(Long.MIN_VALUE));
    }

    /**
     * @param workerIds the workers whose snapshots are merged
     * @param summary   where the histograms of the measured intervals are added up
     */
    public IntervalMerger(List<String> workerIds, SummaryHistograms summary) {
        this.summary = summary;
        this.workers = List.copyOf(workerIds);
        for (String w : workers) {
            expected.put(w, 0L);
            perWorker.put(w, Counters.ZERO);
            perWorkerHost.put(w, new WorkerHostTotals());
            lastSpread.put(w, io.kbench.protocol.ShareSpread.NONE);
            producersDone.put(w, false);
        }
    }

    /**
     * The share consumers' fewest and most deliveries over every worker, as each worker last reported them
     * ({@link io.kbench.protocol.ShareSpread#NONE} without share consumers).
     */
    public synchronized io.kbench.protocol.ShareSpread shareSpread() {
        io.kbench.protocol.ShareSpread all = io.kbench.protocol.ShareSpread.NONE;
        for (io.kbench.protocol.ShareSpread s : lastSpread.values()) {
            all = all.plus(s);
        }
        return all;
    }

    /**
     * How the acknowledged messages spread over the partitions, from the workers' last snapshots (null before any);
     * {@code partitions}: each topic's partition count, as the cluster described it.
     */
    public synchronized PartitionSpread.Result partitions(Map<String, Integer> partitions) {
        return partitionSpread.result(partitions);
    }

    /**
     * Adds one snapshot and returns the intervals it completed, in order.
     *
     * @throws IllegalArgumentException for a snapshot from an unknown worker or with corrupt histograms
     */
    public synchronized List<MergedInterval> add(IntervalSnapshot s) {
        return add(s, new long[Metric.values().length]);
    }

    /**
     * As {@link #add(IntervalSnapshot)}, and fills {@code maxima} (by {@link Metric#ordinal()}) with the maximum
     * of each of the snapshot's histograms, read while adding them (0 for an empty one, or one not added: a
     * repeated or late snapshot).
     */
    public synchronized List<MergedInterval> add(IntervalSnapshot s, long[] maxima) {
        Long want = expected.get(s.workerId());
        if (want == null) {
            throw new IllegalArgumentException("snapshot from unknown worker " + s.workerId());
        }
        if (s.sequence() < want) {
            issues.add("worker " + s.workerId() + ": snapshot " + s.sequence() + " repeated (ignored)");
            return List.of();
        }
        if (s.sequence() > want) {
            issues.add("worker " + s.workerId() + ": snapshot" + (s.sequence() - want > 1
                    ? "s " + want + " to " + (s.sequence() - 1) : " " + want) + " missing");
        }
        expected.put(s.workerId(), s.sequence() + 1);
        // deliveries count whenever they arrive, a late snapshot's too: the check is over the whole run
        shareVerifier.add(s.shareDeliveries());
        if (s.last()) {
            lastSequence.put(s.workerId(), s.sequence());
            partitionSpread.add(s.partitionAcks());
        }
        producersDone.put(s.workerId(), s.producersDone());
        producersDoneMicros = Math.max(producersDoneMicros, s.producersDoneMicros());
        lastReceiveMicros = Math.max(lastReceiveMicros, s.lastReceiveMicros());
        if (s.sequence() < nextToEmit) {
            issues.add("worker " + s.workerId() + ": snapshot " + s.sequence() + " arrived after its interval was reported");
            return List.of();
        }
        Pending p = pending.computeIfAbsent(s.sequence(), k -> new Pending());
        p.start = Math.min(p.start, s.startMicros());
        p.end = Math.max(p.end, s.endMicros());
        p.counters = p.counters.plus(s.counters());
        for (Metric m : Metric.values()) {
            maxima[m.ordinal()] = decoder.addInto(p.histograms.get(m), s.histogram(m));
        }
        p.reported.add(s.workerId());
        if (s.shareSpread().consumers() > 0 && lastSpread.containsKey(s.workerId())) {
            lastSpread.put(s.workerId(), s.shareSpread());
        }
        if (s.consumerLag() >= 0) {
            p.lag = Math.max(0, p.lag) + s.consumerLag();
        }
        if (s.shareBacklog() >= 0) {
            p.shareBacklog = Math.max(0, p.shareBacklog) + s.shareBacklog();
        }
        p.producerClients.add(s.producerMetrics().values(), s.producerMetrics().clients());
        p.consumerClients.add(s.consumerMetrics().values(), s.consumerMetrics().clients());
        if (s.host().known()) {
            p.hostSamples.put(s.workerId(), s.host());
        }
        for (io.kbench.protocol.BrokerSample b : s.brokers()) {
            if (p.brokers.size() < MAX_BROKER_SOURCES || p.brokers.containsKey(b.source())) {
                p.brokers.put(b.source(), b);
            }
        }
        if (!s.error().isEmpty()) {
            p.errors.add(s.workerId(), s.error());
        }
        totals = totals.plus(s.counters());
        perWorker.merge(s.workerId(), s.counters(), Counters::plus);
        return emitComplete(false);
    }

    private List<MergedInterval> emitComplete(boolean force) {
        List<MergedInterval> out = new ArrayList<>();
        while (!pending.isEmpty()) {
            long seq = pending.firstKey();
            Pending p = pending.get(seq);
            boolean complete = true;
            for (String w : workers) {
                if (!p.reported.contains(w)) {
                    Long last = lastSequence.get(w);
                    if (last == null || last >= seq) {
                        complete = false;
                        break;
                    }
                }
            }
            if (!complete && !force) {
                break;
            }
            if (!complete) {
                List<String> missing = new ArrayList<>(workers);
                missing.removeAll(p.reported);
                missing.removeIf(w -> lastSequence.containsKey(w) && lastSequence.get(w) < seq);
                issues.add("interval " + seq + ": no snapshot from " + String.join(", ", missing));
            }
            pending.remove(seq);
            HostFigures.Accumulator hosts = new HostFigures.Accumulator();
            p.hostSamples.forEach(hosts::add);
            MergedInterval m = new MergedInterval(seq, p.start, p.end, p.counters,
                    MergedInterval.statsOf(p.histograms), p.reported.size(), p.errors.lines(), p.lag,
                    new ClientSample(p.producerClients.clients(), p.producerClients.result()),
                    new ClientSample(p.consumerClients.clients(), p.consumerClients.result()), hosts.result(),
                    List.copyOf(p.brokers.values()), p.shareBacklog);
            if (onMerged != null) {
                onMerged.merged(m, p.histograms);
            }
            summary.add(m, p.histograms);
            if (m.startMicros() >= summary.measureStartMicros()) {
                p.hostSamples.forEach((w, h) -> perWorkerHost.get(w).add(h));
            }
            nextToEmit = seq + 1;
            out.add(m);
        }
        return out;
    }

    /**
     * A worker's stream broke without its last snapshot (process killed, host or network gone): its last
     * received snapshot is taken as its last, so intervals no longer wait for it. Returns the intervals that
     * completes, in order. A worker that already ended is left as it is.
     */
    public synchronized List<MergedInterval> workerLost(String workerId) {
        Long want = expected.get(workerId);
        if (want == null || lastSequence.containsKey(workerId)) {
            return List.of();
        }
        lastSequence.put(workerId, want - 1);
        issues.add("worker " + workerId + ": lost after " + (want == 0 ? "no snapshot"
                : want == 1 ? "interval 0" : "intervals 0 to " + (want - 1)) + "; later intervals lack its figures");
        return emitComplete(false);
    }

    /** Ends merging: hands out every interval still incomplete (recording who is missing). */
    public synchronized List<MergedInterval> finish() {
        for (String w : workers) {
            if (!lastSequence.containsKey(w)) {
                issues.add("worker " + w + ": stream ended without its last snapshot");
            }
        }
        return emitComplete(true);
    }

    /** A copy of the cumulative histograms of the measured intervals handed out so far. */
    public synchronized EnumMap<Metric, Histogram> summaryHistograms() {
        return summary.copy();
    }

    /**
     * A backlog run's consumers were released: the end-to-end latency after they read the backlog is kept apart
     * ({@link SummaryHistograms#catchUpFrom}).
     */
    public synchronized void catchUpFrom(long releaseMicros, long ackedAtRelease, int subscriptions) {
        summary.catchUpFrom(releaseMicros, ackedAtRelease, subscriptions);
    }

    /** A backlog run's catch-up and the latency after it, or null ({@link SummaryHistograms#catchUp}). */
    public synchronized CatchUp catchUp() {
        return summary.catchUp();
    }

    /** The histograms of the whole run, warm-up included, for a warm-up by count; null otherwise. */
    public synchronized EnumMap<Metric, Histogram> wholeRunHistograms() {
        return summary.wholeRunCopy();
    }

    /**
     * Where measurement starts (coordinator µs): the known start, or for a warm-up by count the end of the
     * interval that completed it (its fallback until then).
     */
    public synchronized long measureStartMicros() {
        return summary.measureStartMicros();
    }

    /** Sums of everything received so far, complete intervals or not. */
    public synchronized Counters totals() {
        return totals;
    }

    /** How many snapshots (sequence numbers) have arrived from one worker so far. */
    public synchronized long received(String workerId) {
        return expected.getOrDefault(workerId, 0L);
    }

    /** One worker's host figures over the measured intervals handed out so far; null when it reported none. */
    public synchronized WorkerHostTotals.Figures host(String workerId) {
        WorkerHostTotals t = perWorkerHost.get(workerId);
        return t == null ? null : t.figures();
    }

    /** Sums of everything received from one worker so far. */
    public synchronized Counters totals(String workerId) {
        return perWorker.getOrDefault(workerId, Counters.ZERO);
    }

    /** True once every worker reported that its producers stopped and all their sends completed. */
    public synchronized boolean allProducersDone() {
        return producersDone.values().stream().allMatch(Boolean::booleanValue);
    }

    /** The latest instant at which a worker's producers finished (coordinator µs), 0 if none has. */
    public synchronized long producersDoneMicros() {
        return producersDoneMicros;
    }

    /** The latest instant any consumer received messages (coordinator µs), 0 if none has. */
    public synchronized long lastReceiveMicros() {
        return lastReceiveMicros;
    }

    /**
     * What the per-record check of the share groups found so far ({@link ShareVerifier#result}), or null when no
     * worker sent share deliveries (no share groups, or no verification).
     *
     * @param expectedDistinct what the groups had to deliver (acknowledged messages times share groups per topic),
     *                         0 when the run could not drain
     */
    public synchronized ShareVerifier.Result shareVerification(long expectedDistinct) {
        return shareVerifier.active() ? shareVerifier.result(expectedDistinct) : null;
    }

    /** Gaps, repeats and missing snapshots seen so far. */
    public synchronized List<String> issues() {
        return List.copyOf(issues);
    }
}
