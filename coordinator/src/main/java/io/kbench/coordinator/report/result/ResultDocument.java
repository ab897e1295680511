package io.kbench.coordinator.report.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.console.ProgressPrinter;
import io.kbench.coordinator.report.files.AtomicFile;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.Versions;
import org.HdrHistogram.Histogram;

/**
 * Builds {@code result.json} as {@link ResultFile.Run} (documented in docs/results.md) and writes it; secrets
 * in the profile are redacted.
 */
public final class ResultDocument {
    private static final double MB = 1024.0 * 1024.0;
    /** Writes and reads result files: records as typed, key order as declared. */
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultDocument() { }

    /**
     * @param status  COMPLETED or FAILED
     * @param error   why the run failed, or null
     * @param catchUp the catch-up read of a backlog run, or null
     * @param rebalanceMicros longest time a consumer took from subscribing to its first assignment
     * @param issues  problems seen (missing snapshots, incomplete drain), possibly empty
     * @param lostWorkers workers whose connection broke during the run, possibly empty
     * @param faults  the faults injected into the local cluster, and when
     * @param provenance the build, command line, hosts and cluster, or null
     * @param spread  the share consumers' fewest and most deliveries ({@code ShareSpread.NONE} without share groups)
     */
    public static ResultFile.Run build(String runId, String status, String error, Instant startedAt,
                                       Workload workload, Profile profile, List<ResultFile.Worker> workers,
                                       List<String> topics, long runStartMicros, long measureStartMicros,
                                       long measureEndMicros, List<MergedInterval> intervals, Summary summary,
                                       CatchUp catchUp, long rebalanceMicros, List<String> issues,
                                       List<ResultFile.LostWorker> lostWorkers, FaultTimeline faults,
                                       ResultFile.Provenance provenance, io.kbench.protocol.ShareSpread spread) {
        List<ResultFile.Fault> injected = new ArrayList<>();
        for (FaultTimeline.Event e : faults.events()) {
            injected.add(new ResultFile.Fault(e.fault().action().name(), e.fault().broker(), e.fault().atSeconds(),
                    e.requestMicros() / 1000, e.doneMicros() == 0 ? null : e.doneMicros() / 1000, e.error()));
        }
        // a view, converted as it is read: the intervals may be a week of them, read back from the run's spool
        List<ResultFile.Interval> list = new java.util.AbstractList<>() {
            @Override
            public ResultFile.Interval get(int index) {
                MergedInterval i = intervals.get(index);
                return interval(i, measureStartMicros, workload.saturationDelayMillis() * 1000, workload.verification(),
                        workload.shareGroups().any(), faults.downDuring(i.startMicros(), i.endMicros()));
            }

            @Override
            public int size() {
                return intervals.size();
            }
        };
        return new ResultFile.Run(ResultFile.SCHEMA_VERSION, Versions.kbench(), runId, status, error,
                startedAt.toString(), runStartMicros / 1000, measureStartMicros / 1000, measureEndMicros / 1000,
                workload.saturationDelayMillis() * 1000, JSON.valueToTree(workload), profile.redacted(), provenance, topics,
                workers, lostWorkers, injected, list, summary(summary, consume(summary, rebalanceMicros), catchUp,
                        workload.shareGroups().groupsPerTopic(), spread,
                        workload.messagesPerReader(summary.acked()),
                        workload.shareGroups().any() ? backlog(intervals, measureStartMicros, measureEndMicros) : NO_BACKLOG),
                encoded(summary.histograms()), issues, null, null);
    }

    /** Each metric's histogram, base64 of HdrHistogram's compressed encoding. */
    public static Map<String, String> encoded(Map<Metric, Histogram> histograms) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            out.put(m.key(), Base64.getEncoder().encodeToString(LatencyHistograms.encode(histograms.get(m))));
        }
        return out;
    }

    /** One interval as result.json (and {@code --json}) shows it. */
    public static ResultFile.Interval interval(MergedInterval i, long measureStartMicros, long saturationMicros,
                                               boolean verification, List<String> faults) {
        return interval(i, measureStartMicros, saturationMicros, verification, false, faults);
    }

    /** As {@link #interval(MergedInterval, long, long, boolean, List)}, with the share consumers' figures if {@code share}. */
    public static ResultFile.Interval interval(MergedInterval i, long measureStartMicros, long saturationMicros,
                                               boolean verification, boolean share, List<String> faults) {
        Counters c = i.counters();
        double secs = i.seconds();
        return new ResultFile.Interval(i.index(), i.startMicros() / 1000, i.endMicros() / 1000,
                i.startMicros() < measureStartMicros, i.saturated(saturationMicros), i.workers(),
                new ResultFile.Publish(c.sent(), c.acked(), c.failed(), c.ackedBytes(), round(c.acked() / secs),
                        round(c.ackedBytes() / MB / secs), i.stats(Metric.PUBLISH_LATENCY),
                        i.stats(Metric.PUBLISH_RESPONSE), i.stats(Metric.PUBLISH_DELAY),
                        i.stats(Metric.TRANSACTION_COMMIT).count() == 0 ? null : i.stats(Metric.TRANSACTION_COMMIT)),
                new ResultFile.Consume(c.received(), c.receivedBytes(), round(c.received() / secs),
                        round(c.receivedBytes() / MB / secs), i.stats(Metric.END_TO_END),
                        i.consumerLag() < 0 ? null : i.consumerLag()),
                verification ? new ResultFile.Verification(c.lost(), c.duplicated(), c.outOfOrder(), c.untracked())
                        : null,
                c.clamped(), c.negativeEndToEnd(),
                new ResultFile.Client(sorted(i.producerClients().values()), sorted(i.consumerClients().values())),
                i.errors(), faults, hosts(i.hosts()), i.brokers().stream().map(b -> new ResultFile.BrokerFigures(b.source(),
                        rounded(b.values()), b.error().isEmpty() ? null : b.error())).toList(),
                share ? new ResultFile.Share(c.shareDelivered(), c.shareDeliveredBytes(),
                        c.shareRedelivered(), c.shareAccepted(), c.shareReleased(), c.shareRejected(),
                        round(c.shareDelivered() / secs), round(c.shareDeliveredBytes() / MB / secs),
                        round(c.shareAccepted() / secs), i.stats(Metric.SHARE_DELIVERY), i.stats(Metric.SHARE_ACCEPT),
                        null, null, null, i.shareBacklog() < 0 ? null : i.shareBacklog(), null, null,
                        commitStats(i.stats(Metric.SHARE_COMMIT))) : null);
    }

    /** The acknowledgement commit latency, or null when no share consumer committed itself (shareCommit: poll). */
    public static io.kbench.coordinator.merge.LatencyStats commitStats(io.kbench.coordinator.merge.LatencyStats s) {
        return s.count() == 0 ? null : s;
    }

    /** Figures to 3 decimals (a broker's bytes/s to the milli-byte would only make result.json longer). */
    private static Map<String, Double> rounded(Map<String, Double> values) {
        Map<String, Double> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, Math.abs(v) < 1e12 ? Math.round(v * 1000) / 1000.0 : v));
        return out;
    }

    /** The interval's host figures, rounded as the result keeps them; null when no worker reported any. */
    static ResultFile.Hosts hosts(io.kbench.coordinator.merge.HostFigures h) {
        if (h.workers() == 0) {
            return null;
        }
        return new ResultFile.Hosts(h.workers(), round4(h.cpuMean()), round4(h.cpuMax()), h.busiest(), h.gcMicrosMax(),
                h.heapAfterGcMax() < 0 ? null : round4(h.heapAfterGcMax()), h.stallMicrosMax() < 0 ? null : h.stallMicrosMax(),
                shareOrNull(h.hostBusyMax()), shareOrNull(h.hostStealMax()), shareOrNull(h.jitShareMax()));
    }

    /** A share rounded as the result keeps it; null for unknown (negative). */
    private static Double shareOrNull(double share) {
        return share < 0 ? null : round4(share);
    }

    /**
     * The console's line on the client hosts over the measured window, from the workers' host figures: mean CPU
     * share (the busiest worker's mean and its worst interval when there are several), collection time, the
     * fullest heap after a collection, the load threads' longest stall, how busy the workers' hosts were as a whole
     * (every process) and how much CPU their hypervisor stole; null when no worker sent figures.
     */
    public static String hostsLine(List<ResultFile.Worker> workers) {
        List<ResultFile.Worker> known = workers.stream().filter(w -> w.host() != null).toList();
        if (known.isEmpty()) {
            return null;
        }
        ResultFile.Worker busiest = known.stream().max(java.util.Comparator.comparingDouble(w -> w.host().cpuMean())).get();
        double mean = known.stream().mapToDouble(w -> w.host().cpuMean()).average().orElse(0);
        double worst = known.stream().mapToDouble(w -> w.host().cpuMax()).max().orElse(0);
        long gcMax = known.stream().mapToLong(w -> w.host().gcMicrosMaxInterval()).max().orElse(0);
        long gcAll = known.stream().mapToLong(w -> w.host().gcMicros()).max().orElse(0);
        long stallMax = known.stream().filter(w -> w.host().stallMicrosMaxInterval() != null)
                .mapToLong(w -> w.host().stallMicrosMaxInterval()).max().orElse(-1);
        double heap = known.stream().filter(w -> w.host().heapMaxBytes() > 0 && w.host().heapAfterGcMaxBytes() >= 0)
                .mapToDouble(w -> (double) w.host().heapAfterGcMaxBytes() / w.host().heapMaxBytes()).max().orElse(-1);
        // several in-process workers are one process, each reading its CPU: one figure, not a busiest among equals
        boolean oneProcess = known.size() > 1 && inProcess(known);
        String cpu = known.size() == 1 || oneProcess
                ? String.format(Locale.ROOT, "CPU %.0f%% of its %d processor(s) (worst interval %.0f%%)", 100 * mean,
                        busiest.host().processors(), 100 * worst)
                : String.format(Locale.ROOT, "CPU %.0f%% of their processors on average, busiest %s %.0f%% (worst interval %.0f%%)",
                        100 * mean, busiest.id(), 100 * busiest.host().cpuMean(), 100 * worst);
        cpu += jit(busiest.host());
        String shared = known.stream().map(w -> w.host().sharedWith()).filter(java.util.Objects::nonNull).findFirst()
                .map(w -> (known.size() == 1 ? "; its process also runs: " : oneProcess ? ", which also runs: "
                        : "; their process also runs: ") + w)
                .orElse("");
        String which = known.size() == 1 ? " (" + known.get(0).id()
                : oneProcess ? " (" + known.size() + " in-process workers, one process" : "s (" + known.size();
        // gcAll: the most one worker spent collecting over the window; none at all is said as such, not as "0.00 ms"
        boolean several = known.size() > 1 && !oneProcess;
        String gc = gcAll <= 0 ? "no garbage collection in the window" + (several ? " (any worker)" : "")
                : String.format(Locale.ROOT, "GC at most %s ms in one interval and %s ms over the window%s",
                        ProgressPrinter.ms(gcMax), ProgressPrinter.ms(gcAll), several ? " (one worker)" : "");
        return String.format(Locale.ROOT, "  worker host%s: %s; %s%s%s%s",
                which + shared + ")", cpu, gc,
                heap < 0 ? "" : String.format(Locale.ROOT, "; heap after GC at most %.0f%% of its maximum", 100 * heap),
                stallMax < 0 ? "" : "; its load threads woke at most " + ProgressPrinter.ms(stallMax) + " ms late "
                        + "from a park", hostCpu(known));
    }

    /**
     * The JIT compilers' part of a worker's CPU when it is a tenth of it or more (a JVM still compiling its hot code:
     * a compiled one spends well under 1% of its CPU there), as ", 40% of it compiling (the JIT)" — a share of the
     * worker's CPU, as the diagnosis gives it, not of its processors; "" otherwise.
     */
    static String jit(ResultFile.HostUse h) {
        return h.jitShareMean() == null || h.cpuMean() <= 0 || h.jitShareMean() < JIT_NOTED_SHARE_OF_CPU * h.cpuMean() ? ""
                : String.format(Locale.ROOT, ", %.0f%% of it compiling (the JIT)", 100 * h.jitShareMean() / h.cpuMean());
    }

    /** The share of a worker's CPU its JIT compilers took from which the console line says so. */
    public static final double JIT_NOTED_SHARE_OF_CPU = 0.1;

    /**
     * "; the host as a whole (every process) busy 64% on average, 97% in the worst interval, its hypervisor stole at
     * most 2.0%", from the workers that measured it ("the busiest host": the mean of the busiest, the worst interval of
     * any, when there are several); "" when none did.
     */
    private static String hostCpu(List<ResultFile.Worker> known) {
        List<ResultFile.HostUse> measured = known.stream().map(ResultFile.Worker::host)
                .filter(h -> h.hostBusyMean() != null && h.hostBusyMax() != null).toList();
        if (measured.isEmpty()) {
            return "";
        }
        ResultFile.HostUse busiest = measured.stream().max(java.util.Comparator.comparingDouble(ResultFile.HostUse::hostBusyMean))
                .get();
        double worst = measured.stream().mapToDouble(ResultFile.HostUse::hostBusyMax).max().orElse(0);
        double steal = measured.stream().filter(h -> h.hostStealMax() != null).mapToDouble(ResultFile.HostUse::hostStealMax)
                .max().orElse(-1);
        return String.format(Locale.ROOT, "; %s as a whole (every process) busy %.0f%% on average, %.0f%% in the worst "
                + "interval%s", measured.size() == 1 ? "the host" : "the busiest host", 100 * busiest.hostBusyMean(),
                100 * worst, steal < 0 ? "" : String.format(Locale.ROOT, ", its hypervisor stole at most %.1f%%", 100 * steal));
    }

    /** A worker's host totals as the result keeps them; null when it reported none. */
    public static ResultFile.HostUse workerHost(io.kbench.coordinator.merge.WorkerHostTotals.Figures f) {
        return f == null ? null : new ResultFile.HostUse(f.intervals(), f.processors(), round4(f.cpuMean()),
                round4(f.cpuMax()), f.gcMicros(), f.gcMicrosMax(), f.gcCount(), f.heapAfterGcMaxBytes(), f.heapMaxBytes(),
                f.sharedWith().isEmpty() ? null : f.sharedWith(), f.stallMicrosMax() < 0 ? null : f.stallMicrosMax(),
                shareOrNull(f.hostBusyMean()), shareOrNull(f.hostBusyMax()), shareOrNull(f.hostStealMean()),
                shareOrNull(f.hostStealMax()), shareOrNull(f.jitShareMean()), shareOrNull(f.jitShareMax()));
    }

    private static Map<String, Double> sorted(Map<String, Double> values) {
        return values.isEmpty() ? null : new TreeMap<>(values);
    }

    /**
     * The summary object.
     *
     * @param consume the consumer-perf figures, or null (merged results)
     * @param catchUp a backlog run's catch-up, or null
     */
    public static ResultFile.Summary summary(Summary s, ResultFile.ConsumeSummary consume, CatchUp catchUp) {
        return summary(s, consume, catchUp, 0, io.kbench.protocol.ShareSpread.NONE, s.acked());
    }

    /**
     * The summary object.
     *
     * @param consume     the consumer-perf figures, or null (merged results)
     * @param catchUp     a backlog run's catch-up, or null
     * @param shareGroups share groups per topic: each must accept or reject every acknowledged message (0: none)
     * @param spread      the share consumers' fewest and most deliveries ({@code NONE}: not known)
     * @param perGroup    messages each share group must accept or reject: those acknowledged, or in a run without
     *                    producers its record count
     */
    public static ResultFile.Summary summary(Summary s, ResultFile.ConsumeSummary consume, CatchUp catchUp,
                                             int shareGroups, io.kbench.protocol.ShareSpread spread, long perGroup) {
        return summary(s, consume, catchUp, shareGroups, spread, perGroup, NO_BACKLOG);
    }

    /** No backlog read: {last, most in the window}. */
    private static final long[] NO_BACKLOG = {-1, -1};

    /**
     * The share groups' backlog: at the end of the last interval that read it, and the most at the end of a measured
     * interval (-1 each: none read). One pass over the intervals.
     */
    public static long[] backlog(List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros) {
        long last = -1;
        long max = -1;
        for (MergedInterval i : intervals) {
            if (i.shareBacklog() >= 0) {
                last = i.shareBacklog();
                if (i.startMicros() >= measureStartMicros && i.endMicros() <= measureEndMicros) {
                    max = Math.max(max, i.shareBacklog());
                }
            }
        }
        return new long[] {last, max};
    }

    /**
     * The summary object.
     *
     * @param backlog the share groups' backlog: {at the end of the last interval that read it, the most at the end of
     *                a measured interval}, -1 each when not read
     */
    static ResultFile.Summary summary(Summary s, ResultFile.ConsumeSummary consume, CatchUp catchUp,
                                      int shareGroups, io.kbench.protocol.ShareSpread spread, long perGroup,
                                      long[] backlog) {
        Summary.Verification v = s.verification();
        io.kbench.coordinator.merge.ShareVerifier.Result sv = s.shareVerification();
        Counters t = s.totals();
        ResultFile.Share share = shareGroups <= 0 ? null : new ResultFile.Share(t.shareDelivered(),
                t.shareDeliveredBytes(), t.shareRedelivered(), t.shareAccepted(), t.shareReleased(), t.shareRejected(),
                s.shareDeliverRate(), s.shareDeliverMBps(), s.shareAcceptRate(), s.stats(Metric.SHARE_DELIVERY),
                s.stats(Metric.SHARE_ACCEPT),
                Math.max(0, perGroup * shareGroups - t.shareAccepted() - t.shareRejected()), sv != null,
                spread.consumers() == 0 ? null : new ResultFile.PerConsumer(spread.consumers(), spread.min(), spread.max(),
                        round((double) t.shareDelivered() / spread.consumers())),
                backlog[0] < 0 ? null : backlog[0], backlog[1] < 0 ? null : backlog[1],
                sv == null ? null : new ResultFile.ShareVerification(sv.lost(), sv.duplicated(), sv.untracked(), false),
                commitStats(s.stats(Metric.SHARE_COMMIT)));
        return new ResultFile.Summary(s.sent(), s.acked(), s.failed(), s.received(), s.measuredSeconds(),
                s.publishRate(), s.publishMBps(), s.consumeRate(), s.consumeMBps(),
                s.stats(Metric.PUBLISH_LATENCY), s.stats(Metric.PUBLISH_RESPONSE), s.stats(Metric.PUBLISH_DELAY),
                ResultFile.EndToEnd.of(s.stats(Metric.END_TO_END), s.endToEndUncertaintyMicros()),
                s.stats(Metric.TRANSACTION_COMMIT), s.saturatedIntervals(), consume,
                v == null ? null : new ResultFile.Verification(v.lost(), v.duplicated(), v.outOfOrder(), v.untracked()),
                s.clamped(), s.negativeEndToEnd(), catchUp, share);
    }

    /**
     * The figures kafka-consumer-perf-test prints, for the measured window: data consumed (MB, messages),
     * MB/s and msg/s over rebalance plus fetch time, rebalance time (longest time a consumer took from
     * subscribing to its first assignment), fetch time (the measured window: consumers are held until the
     * start instant, so it holds no rebalance), and MB/s and msg/s over fetch time only.
     */
    static ResultFile.ConsumeSummary consume(Summary s, long rebalanceMicros) {
        double mb = s.measuredReceivedBytes() / MB;
        long rebalanceMs = rebalanceMicros / 1000;
        long fetchMs = Math.round(s.measuredSeconds() * 1000);
        double total = (rebalanceMs + fetchMs) / 1000.0;
        double fetch = fetchMs / 1000.0;
        return new ResultFile.ConsumeSummary(round4(mb), s.measuredReceived(),
                total <= 0 ? 0 : round4(mb / total), total <= 0 ? 0 : round4(s.measuredReceived() / total),
                rebalanceMs, fetchMs, fetch <= 0 ? 0 : round4(mb / fetch),
                fetch <= 0 ? 0 : round4(s.measuredReceived() / fetch));
    }

    private static double round4(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** Writes {@code doc} (a {@link ResultFile} record) as {@code dir/result.json} and returns the file. */
    public static Path write(Path dir, Record doc) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        // Jackson must not close the stream: AtomicFile closes it, then renames
        AtomicFile.write(file, out -> JSON.writer().without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .writeValue(out, doc));
        return file;
    }

    /** A backlog run's catch-up read, as the console and report.html print it. */
    public static String catchUpText(CatchUp c, int subscriptions) {
        return String.format(Locale.ROOT, "a backlog of %,d messages read in %.3f s: %,.1f msg/s, %.2f MB/s%s",
                c.backlogRecords(), c.seconds(), c.rate(), c.mbps(), subscriptions > 1 ? " (all subscriptions)" : "");
    }

    /**
     * The end-to-end latency after a backlog's catch-up, which the run's end-to-end figures mix with the backlog's wait
     * (a backlog's messages are held until the consumers' release by design).
     *
     * @param runStartMillis the run's start, coordinator time, for "from N s"
     */
    public static String afterCatchUpText(CatchUp c, long runStartMillis) {
        io.kbench.coordinator.merge.LatencyStats e = c.endToEndAfterMicros();
        if (e == null) {
            return "end-to-end after the catch-up: no interval with a sample followed it; the run's end-to-end figures "
                    + "hold the backlog's wait (its messages were held until the consumers' release)";
        }
        return String.format(Locale.ROOT, "end-to-end after the catch-up (from %.1f s, %,d messages): p50 %.2f p99 %.2f "
                + "p99.9 %.2f max %.2f ms; the run's end-to-end figures also hold the backlog's wait (its messages were "
                + "held until the consumers' release)", (c.afterMillis() - runStartMillis) / 1e3, e.count(),
                e.p50() / 1000.0, e.p99() / 1000.0, e.p999() / 1000.0, e.max() / 1000.0);
    }

    /**
     * The hot partition in words — one that took {@link io.kbench.coordinator.merge.PartitionSpread#HOT_SKEW} times an
     * even share of its topic's acknowledged messages or more — with how many partitions got none; null for an even
     * spread, or none known.
     */
    public static String partitionsText(ResultFile.Partitions p) {
        if (p == null || p.busiest() == null
                || !io.kbench.coordinator.merge.PartitionSpread.hot(p.busiest().partitions(), p.busiest().skew())) {
            return null;
        }
        ResultFile.Busiest b = p.busiest();
        long none = p.acked() == null ? 0 : p.acked().values().stream()
                .mapToLong(a -> java.util.Arrays.stream(a).filter(n -> n == 0).count()).sum();
        return String.format(Locale.ROOT, "partition %d of %s took %.1f%% of its acknowledged messages, %.2fx an even "
                + "share of its %d partitions%s", b.partition(), b.topic(), 100 * b.share(), b.skew(), b.partitions(),
                none == 0 ? "" : String.format(Locale.ROOT, "; %,d partition(s) got none", none));
    }

    /**
     * The network sentence of a result ({@link ResultFile.Network}): the ceiling, how it comes about, this run's share
     * of it, and the busiest link when every broker was read on its own.
     */
    public static String networkText(ResultFile.Network n, ResultFile.Provenance provenance) {
        io.kbench.coordinator.capacity.NetworkCeiling c = new io.kbench.coordinator.capacity.NetworkCeiling(n.gbps(),
                n.brokers(), n.partitions(), n.replicationFactor(), n.groups());
        boolean embedded = provenance != null && provenance.cluster() != null && provenance.cluster().embedded();
        String line = c.line(n.produceMBps() * io.kbench.coordinator.capacity.NetworkCeiling.MB,
                "brokers".equals(n.produceSource()) ? "the brokers' bytes in"
                        : "values acknowledged; keys, headers and record overheads not counted", embedded);
        if (n.busiestBroker() != null && n.busiestMBps() != null && n.busiestShare() != null) {
            line += String.format(java.util.Locale.ROOT, "; busiest link: broker %s at %.2f MB/s = %.1f%% of it",
                    n.busiestBroker(), n.busiestMBps(), 100 * n.busiestShare());
        }
        return line;
    }

    /** True when every one of {@code workers} (at least one) ran in the coordinator's process. */
    public static boolean inProcess(List<ResultFile.Worker> workers) {
        return workers != null && !workers.isEmpty() && workers.stream().allMatch(w -> w.address() != null
                && w.address().startsWith(io.kbench.coordinator.rpc.WorkerChannels.IN_PROCESS));
    }

    /**
     * True when the brokers' {@code figure} in {@code brokers} covers the whole cluster a result describes over the
     * whole window ({@link io.kbench.coordinator.merge.BrokerWindow#coversCluster}); false without a cluster.
     */
    public static boolean everyBrokerRead(io.kbench.coordinator.merge.BrokerWindow brokers, ResultFile.Cluster cluster,
                                          String figure) {
        return cluster != null && brokers.coversCluster(cluster.embedded(),
                cluster.brokers() == null ? 0 : cluster.brokers().size(), figure);
    }
}
