package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.UnreadCount;
import io.kbench.coordinator.report.result.ResultFile;

/**
 * {@code intervals.csv}: one row per interval with every figure the console line shows and a few more
 * (counts, verification, lag, faults, the worker hosts' CPU share, GC and heap, the brokers' and the share groups'
 * figures), for spreadsheets and plotting tools. Latencies in milliseconds,
 * times in epoch milliseconds, rates per second; empty cells where a figure does not apply. Written by
 * jackson-dataformat-csv (quoting and escaping are its business).
 */
public final class IntervalsCsv {
    /** Quotes a value only when it needs it (by default Jackson quotes every string longer than 24 characters). */
    static final CsvMapper CSV = CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();

    private IntervalsCsv() { }

    /** One interval, flat. */
    @JsonPropertyOrder({"index", "startMillis", "endMillis", "warmup", "saturated", "workers", "publishSent",
        "publishAcked", "publishFailed", "publishRate", "publishMBps", "publishLatencyP50Ms", "publishLatencyP99Ms",
        "publishLatencyMaxMs", "publishResponseP99Ms", "publishDelayP99Ms", "consumeReceived", "consumeRate",
        "consumeMBps", "endToEndP50Ms", "endToEndP99Ms", "endToEndMaxMs", "consumerLag", "lost", "duplicated",
        "outOfOrder", "errors", "faults", "workerCpuMean", "workerCpuMax", "busiestWorker", "workerGcMaxMs",
        "workerHeapAfterGcMax", "brokerBytesInMBps", "brokerBytesOutMBps", "brokerRequestHandlerIdleMin",
        "brokerProduceTimeMsMax", "shareDelivered", "shareRedelivered", "shareAccepted", "shareReleased",
        "shareRejected", "shareDeliveryRate", "shareAcceptRate", "shareDeliveryP99Ms", "shareAcceptP99Ms",
        "shareBacklog", "workerStallMaxMs", "workerHostBusyMax", "workerHostStealMax", "transactionCommitP99Ms",
        "transactionCommitMaxMs", "workerJitMax", "unread"})
    public record Row(long index, long startMillis, long endMillis, boolean warmup, boolean saturated, int workers,
                      long publishSent, long publishAcked, long publishFailed, double publishRate, double publishMBps,
                      Double publishLatencyP50Ms, Double publishLatencyP99Ms, Double publishLatencyMaxMs,
                      Double publishResponseP99Ms, Double publishDelayP99Ms, long consumeReceived, double consumeRate,
                      double consumeMBps, Double endToEndP50Ms, Double endToEndP99Ms, Double endToEndMaxMs,
                      Long consumerLag, Long lost, Long duplicated, Long outOfOrder, String errors, String faults,
                      Double workerCpuMean, Double workerCpuMax, String busiestWorker, Double workerGcMaxMs,
                      Double workerHeapAfterGcMax, Double brokerBytesInMBps, Double brokerBytesOutMBps,
                      Double brokerRequestHandlerIdleMin, Double brokerProduceTimeMsMax, Long shareDelivered,
                      Long shareRedelivered, Long shareAccepted, Long shareReleased, Long shareRejected,
                      Double shareDeliveryRate, Double shareAcceptRate, Double shareDeliveryP99Ms,
                      Double shareAcceptP99Ms, Long shareBacklog, Double workerStallMaxMs, Double workerHostBusyMax,
                      Double workerHostStealMax, Double transactionCommitP99Ms, Double transactionCommitMaxMs,
                      Double workerJitMax, Long unread) {
        /**
         * Interval {@code i}'s row; {@code unread} what the classic groups had not read at its end (messages
         * acknowledged since the start minus received over the groups, {@link UnreadCount}), or null.
         */
        static Row of(ResultFile.Interval i, Long unread) {
            ResultFile.Share s = i.share();
            ResultFile.Publish p = i.publish();
            ResultFile.Consume c = i.consume();
            ResultFile.Verification v = i.verification();
            ResultFile.Hosts h = i.hosts();
            return new Row(i.index(), i.startMillis(), i.endMillis(), i.warmup(), i.saturated(), i.workers(), p.sent(),
                    p.acked(), p.failed(), p.rate(), p.mbps(), ms(p.latencyMicros(), 50), ms(p.latencyMicros(), 99),
                    ms(p.latencyMicros(), 100), ms(p.responseMicros(), 99), ms(p.delayMicros(), 99), c.received(),
                    c.rate(), c.mbps(), ms(c.endToEndLatencyMicros(), 50), ms(c.endToEndLatencyMicros(), 99),
                    ms(c.endToEndLatencyMicros(), 100), c.lag(), v == null ? null : v.lost(),
                    v == null ? null : v.duplicated(), v == null ? null : v.outOfOrder(),
                    i.errors() == null ? "" : String.join("; ", i.errors()),
                    i.faults() == null ? "" : String.join("; ", i.faults()),
                    h == null ? null : h.cpuMean(), h == null ? null : h.cpuMax(), h == null ? "" : h.busiest(),
                    h == null ? null : h.gcMicrosMax() / 1000.0, h == null ? null : h.heapAfterGcMax(),
                    broker(i, "bytesInPerSec", Agg.SUM_MB), broker(i, "bytesOutPerSec", Agg.SUM_MB),
                    broker(i, "requestHandlerIdle", Agg.MIN), broker(i, "produceTotalTimeMsMean", Agg.MAX),
                    s == null ? null : s.delivered(), s == null ? null : s.redelivered(),
                    s == null ? null : s.accepted(), s == null ? null : s.released(), s == null ? null : s.rejected(),
                    s == null ? null : s.rate(), s == null ? null : s.acceptRate(),
                    s == null ? null : ms(s.deliveryLatencyMicros(), 99),
                    s == null ? null : ms(s.acceptLatencyMicros(), 99), s == null ? null : s.backlog(),
                    h == null || h.stallMicrosMax() == null ? null : h.stallMicrosMax() / 1000.0,
                    h == null ? null : h.hostBusyMax(), h == null ? null : h.hostStealMax(),
                    ms(p.transactionCommitMicros(), 99), ms(p.transactionCommitMicros(), 100),
                    h == null ? null : h.jitShareMax(), unread);
        }

        private enum Agg { SUM_MB, MIN, MAX }

        /** A broker figure over the interval's sources: summed (as MB/s), or the lowest or highest; null if none had it. */
        private static Double broker(ResultFile.Interval i, String figure, Agg agg) {
            if (i.brokers() == null) {
                return null;
            }
            Double out = null;
            for (ResultFile.BrokerFigures b : i.brokers()) {
                Double v = b.figures() == null ? null : b.figures().get(figure);
                if (v == null) {
                    continue;
                }
                out = out == null ? (agg == Agg.SUM_MB ? v / (1024 * 1024) : v) : switch (agg) {
                    case SUM_MB -> out + v / (1024 * 1024);
                    case MIN -> Math.min(out, v);
                    case MAX -> Math.max(out, v);
                };
            }
            return out == null ? null : Math.round(out * 10_000) / 10_000.0;
        }

        private static Double ms(LatencyStats s, int q) {
            if (s == null || s.count() == 0) {
                return null;
            }
            long micros = switch (q) {
                case 50 -> s.p50();
                case 99 -> s.p99();
                default -> s.max();
            };
            return micros / 1000.0;
        }
    }

    /** The rows of a run. */
    public static List<Row> rows(ResultFile.Run run) {
        List<Row> rows = new ArrayList<>();
        UnreadCount unread = new UnreadCount(UnreadCount.classicGroups(run.workload()));
        for (ResultFile.Interval i : run.intervals()) {
            rows.add(Row.of(i, unread(unread, i)));
        }
        return rows;
    }

    /** Counts interval {@code i} into {@code unread}: the unread count at its end, null when not counted. */
    private static Long unread(UnreadCount unread, ResultFile.Interval i) {
        long n = unread.after(i.publish().acked(), i.consume().received());
        return n < 0 ? null : n;
    }

    /** Writes {@code dir/intervals.csv} (with a header row) and returns it; row by row, whatever the run's length. */
    public static Path write(Path dir, ResultFile.Run run) throws IOException {
        Path file = dir.resolve("intervals.csv");
        CsvSchema schema = CSV.schemaFor(Row.class).withHeader();
        return AtomicFile.write(file, out -> {
            try (com.fasterxml.jackson.databind.SequenceWriter rows = CSV.writer(schema)
                    .without(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValues(out)) {
                UnreadCount unread = new UnreadCount(UnreadCount.classicGroups(run.workload()));
                for (ResultFile.Interval i : run.intervals()) {
                    rows.write(Row.of(i, unread(unread, i)));
                }
            }
        });
    }
}
