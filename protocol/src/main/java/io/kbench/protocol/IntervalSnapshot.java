package io.kbench.protocol;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one worker measured in one reporting interval — the one type the worker produces and the coordinator
 * merges (the protocol's {@code Snapshot} message is its wire form, mapped by
 * {@link io.kbench.protocol.rpc.SnapshotMessages}).
 *
 * <p>Counters are deltas for the interval; histograms are HdrHistogram compressed encodings in
 * microseconds, one per {@link Metric} (an empty array for none); times are coordinator time (µs since
 * epoch); {@code producersDoneMicros} is when the worker's producers finished (0 before, and for a worker
 * without producers); {@code lastReceiveMicros} when its consumers last received (0 if never);
 * {@code consumerLag} its consumers' lag at the interval's end (-1 unknown); {@code error} the first load
 * error of the interval, empty when none; {@code shareSpread} its share consumers' fewest and most deliveries so
 * far ({@link ShareSpread#NONE} without share consumers); {@code consumerTotals} each of its consumers' records and
 * bytes read since the start, in the last snapshot only (empty in the others); {@code shareBacklog} the share groups'
 * backlog as this worker read it (-1: it reads none, or it is not known); {@code shareDeliveries} the records its
 * share consumers were delivered over the interval, as sequence ranges ({@link ShareDeliveries#NONE} without
 * verification or share consumers); {@code roundTrips} the sampled round trips of a closed-loop run
 * ({@link RoundTripSample}; empty otherwise); {@code partitionAcks} the messages its producers had acknowledged per
 * topic and partition since the start, in the last snapshot only ({@link PartitionAcks}; empty in the others).
 */
public record IntervalSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                               Map<Metric, byte[]> histograms, boolean producersDone, long producersDoneMicros,
                               long lastReceiveMicros, boolean last, String error, long consumerLag,
                               ClientMetricsSample producerMetrics, ClientMetricsSample consumerMetrics,
                               java.util.List<ClientMetricsDump> metricsDumps, HostSample host,
                               java.util.List<BrokerSample> brokers, ShareSpread shareSpread,
                               java.util.List<ConsumerTotal> consumerTotals, long shareBacklog,
                               ShareDeliveries shareDeliveries, java.util.List<RoundTripSample> roundTrips,
                               java.util.List<PartitionAcks> partitionAcks) {
    private static final byte[] NONE = new byte[0];

    public IntervalSnapshot {
        partitionAcks = partitionAcks == null ? java.util.List.of() : java.util.List.copyOf(partitionAcks);
        roundTrips = roundTrips == null ? java.util.List.of() : java.util.List.copyOf(roundTrips);
        shareDeliveries = shareDeliveries == null ? ShareDeliveries.NONE : shareDeliveries;
        consumerTotals = consumerTotals == null ? java.util.List.of() : java.util.List.copyOf(consumerTotals);
        shareBacklog = Math.max(-1, shareBacklog);
        shareSpread = shareSpread == null ? ShareSpread.NONE : shareSpread;
        metricsDumps = java.util.List.copyOf(metricsDumps);
        brokers = brokers == null ? java.util.List.of() : java.util.List.copyOf(brokers);
        host = host == null ? HostSample.NONE : host;
        EnumMap<Metric, byte[]> h = new EnumMap<>(Metric.class);
        histograms.forEach((m, b) -> h.put(m, Objects.requireNonNull(b, m.key())));
        histograms = Collections.unmodifiableMap(h);
    }

    /** A snapshot without share consumers' spread. */
    public IntervalSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                            Map<Metric, byte[]> histograms, boolean producersDone, long producersDoneMicros,
                            long lastReceiveMicros, boolean last, String error, long consumerLag,
                            ClientMetricsSample producerMetrics, ClientMetricsSample consumerMetrics,
                            java.util.List<ClientMetricsDump> metricsDumps, HostSample host,
                            java.util.List<BrokerSample> brokers) {
        this(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone, producersDoneMicros,
                lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics, metricsDumps, host, brokers,
                ShareSpread.NONE);
    }

    /** A snapshot without per-consumer totals (every one but a worker's last). */
    public IntervalSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                            Map<Metric, byte[]> histograms, boolean producersDone, long producersDoneMicros,
                            long lastReceiveMicros, boolean last, String error, long consumerLag,
                            ClientMetricsSample producerMetrics, ClientMetricsSample consumerMetrics,
                            java.util.List<ClientMetricsDump> metricsDumps, HostSample host,
                            java.util.List<BrokerSample> brokers, ShareSpread shareSpread) {
        this(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone, producersDoneMicros,
                lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics, metricsDumps, host, brokers,
                shareSpread, java.util.List.of(), -1, ShareDeliveries.NONE, java.util.List.of(), java.util.List.of());
    }

    /** This snapshot with its share consumers' spread. */
    public IntervalSnapshot withShareSpread(ShareSpread spread) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, spread, consumerTotals, shareBacklog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** This snapshot with the share groups' backlog its worker read (-1: none). */
    public IntervalSnapshot withShareBacklog(long backlog) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, shareSpread, consumerTotals, backlog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** This snapshot with what its worker's share consumers were delivered over the interval. */
    public IntervalSnapshot withShareDeliveries(ShareDeliveries deliveries) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, shareSpread, consumerTotals, shareBacklog, deliveries, roundTrips, partitionAcks);
    }

    /** This snapshot with the round trips its worker sampled over the interval. */
    public IntervalSnapshot withRoundTrips(java.util.List<RoundTripSample> samples) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, shareSpread, consumerTotals, shareBacklog, shareDeliveries, samples, partitionAcks);
    }

    /** This snapshot with the messages its worker's producers had acknowledged per partition (the last snapshot). */
    public IntervalSnapshot withPartitionAcks(java.util.List<PartitionAcks> acks) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, shareSpread, consumerTotals, shareBacklog, shareDeliveries, roundTrips, acks);
    }

    /** This snapshot with each of its worker's consumers' totals (the last snapshot). */
    public IntervalSnapshot withConsumerTotals(java.util.List<ConsumerTotal> totals) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, brokers, shareSpread, totals, shareBacklog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** A snapshot without client metrics dumps (every snapshot but a last one that was asked for them). */
    public IntervalSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                            Map<Metric, byte[]> histograms, boolean producersDone, long producersDoneMicros,
                            long lastReceiveMicros, boolean last, String error, long consumerLag,
                            ClientMetricsSample producerMetrics, ClientMetricsSample consumerMetrics) {
        this(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone, producersDoneMicros,
                lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics, java.util.List.of(),
                HostSample.NONE, java.util.List.of());
    }

    /** This snapshot with the clients' metrics dumps added. */
    public IntervalSnapshot withMetricsDumps(java.util.List<ClientMetricsDump> dumps) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                dumps, host, brokers, shareSpread, consumerTotals, shareBacklog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** This snapshot with the brokers' figures its worker read. */
    public IntervalSnapshot withBrokers(java.util.List<BrokerSample> samples) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, host, samples, shareSpread, consumerTotals, shareBacklog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** This snapshot with its worker's host figures. */
    public IntervalSnapshot withHost(HostSample sample) {
        return new IntervalSnapshot(workerId, sequence, startMicros, endMicros, counters, histograms, producersDone,
                producersDoneMicros, lastReceiveMicros, last, error, consumerLag, producerMetrics, consumerMetrics,
                metricsDumps, sample, brokers, shareSpread, consumerTotals, shareBacklog, shareDeliveries, roundTrips, partitionAcks);
    }

    /** A snapshot without lag or client metrics, its histograms given in {@link Metric} order. */
    public IntervalSnapshot(String workerId, long sequence, long startMicros, long endMicros, Counters counters,
                            byte[] publishLatency, byte[] publishResponse, byte[] publishDelay, byte[] endToEnd,
                            byte[] transactionCommit, boolean producersDone, long producersDoneMicros,
                            long lastReceiveMicros, boolean last, String error) {
        this(workerId, sequence, startMicros, endMicros, counters, histograms(publishLatency, publishResponse,
                publishDelay, endToEnd, transactionCommit), producersDone, producersDoneMicros, lastReceiveMicros,
                last, error, -1, ClientMetricsSample.NONE, ClientMetricsSample.NONE);
    }

    /**
     * Encodings in {@link Metric} order, as a map: the first five at least (publish and end-to-end, transaction
     * commit); metrics after those given have none (the share consumers' when a worker runs none).
     */
    public static Map<Metric, byte[]> histograms(byte[]... inMetricOrder) {
        Metric[] metrics = Metric.values();
        if (inMetricOrder.length < Metric.SHARE_DELIVERY.ordinal() || inMetricOrder.length > metrics.length) {
            throw new IllegalArgumentException("one histogram per metric: " + Metric.SHARE_DELIVERY.ordinal()
                    + " to " + metrics.length + ", got " + inMetricOrder.length);
        }
        EnumMap<Metric, byte[]> h = new EnumMap<>(Metric.class);
        for (int i = 0; i < inMetricOrder.length; i++) {
            h.put(metrics[i], inMetricOrder[i]);
        }
        return h;
    }

    /** The encoded histogram of {@code metric}; an empty array when the snapshot has none. */
    public byte[] histogram(Metric metric) {
        return histograms.getOrDefault(metric, NONE);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IntervalSnapshot s)) {
            return false;
        }
        if (!(workerId.equals(s.workerId) && sequence == s.sequence && startMicros == s.startMicros
                && endMicros == s.endMicros && counters.equals(s.counters) && producersDone == s.producersDone
                && producersDoneMicros == s.producersDoneMicros && lastReceiveMicros == s.lastReceiveMicros
                && last == s.last && error.equals(s.error) && consumerLag == s.consumerLag
                && producerMetrics.equals(s.producerMetrics) && consumerMetrics.equals(s.consumerMetrics)
                && metricsDumps.equals(s.metricsDumps) && host.equals(s.host) && brokers.equals(s.brokers)
                && shareSpread.equals(s.shareSpread) && consumerTotals.equals(s.consumerTotals)
                && shareBacklog == s.shareBacklog && shareDeliveries.equals(s.shareDeliveries)
                && roundTrips.equals(s.roundTrips) && partitionAcks.equals(s.partitionAcks))) {
            return false;
        }
        for (Metric m : Metric.values()) {
            if (!Arrays.equals(histogram(m), s.histogram(m))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(workerId, sequence, startMicros, endMicros, counters);
    }
}
