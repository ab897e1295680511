package io.kbench.protocol.rpc;

import java.util.EnumMap;
import java.util.Map;

import com.google.protobuf.ByteString;
import io.kbench.protocol.ClientMetricsSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.Metric;

/**
 * {@link IntervalSnapshot} to and from its wire form, the {@code Snapshot} message: the one mapping both the
 * worker (sending) and the coordinator (receiving) use. Pure.
 */
public final class SnapshotMessages {
    private SnapshotMessages() { }

    public static Snapshot toProto(IntervalSnapshot s) {
        Counters c = s.counters();
        Histograms.Builder h = Histograms.newBuilder();
        for (Metric m : Metric.values()) {
            ByteString b = ByteString.copyFrom(s.histogram(m));
            switch (m) {
                case PUBLISH_LATENCY -> h.setPublishLatency(b);
                case PUBLISH_RESPONSE -> h.setPublishResponse(b);
                case PUBLISH_DELAY -> h.setPublishDelay(b);
                case END_TO_END -> h.setEndToEnd(b);
                case TRANSACTION_COMMIT -> h.setTransactionCommit(b);
                case SHARE_DELIVERY -> h.setShareDelivery(b);
                case SHARE_ACCEPT -> h.setShareAccept(b);
                case SHARE_COMMIT -> h.setShareCommit(b);
                default -> throw new IllegalStateException("no wire field for " + m);
            }
        }
        Snapshot.Builder p = Snapshot.newBuilder()
                .setWorkerId(s.workerId())
                .setSequence(s.sequence())
                .setStartMicros(s.startMicros())
                .setEndMicros(s.endMicros())
                .setCounters(counters(c))
                .setHistograms(h)
                .setProducersDone(s.producersDone())
                .setProducersDoneMicros(s.producersDoneMicros())
                .setLastReceiveMicros(s.lastReceiveMicros())
                .setLast(s.last())
                .setError(s.error())
                .setConsumerLag(s.consumerLag())
                .setProducerMetrics(clientMetrics(s.producerMetrics()))
                .setConsumerMetrics(clientMetrics(s.consumerMetrics()))
                .addAllMetricsDumps(s.metricsDumps().stream().map(d -> io.kbench.protocol.rpc.ClientMetricsDump.newBuilder()
                        .setKind(d.kind()).setIndex(d.index()).putAllValues(d.values()).build()).toList())
                .setHost(hostMetrics(s.host()))
                .addAllBrokers(s.brokers().stream().map(b -> BrokerMetrics.newBuilder().setSource(b.source())
                        .putAllValues(b.values()).setError(b.error()).build()).toList())
                .setShareSpread(ShareSpread.newBuilder().setConsumers(s.shareSpread().consumers())
                        .setMin(s.shareSpread().min()).setMax(s.shareSpread().max()))
                .addAllConsumerTotals(s.consumerTotals().stream().map(t -> ConsumerTotal.newBuilder().setIndex(t.index())
                        .setShare(t.share()).setRecords(t.records()).setBytes(t.bytes()).setClientId(t.clientId()).build())
                        .toList())
                .setShareBacklog(s.shareBacklog())
                .addAllRoundTrips(s.roundTrips().stream().map(r -> io.kbench.protocol.rpc.RoundTripSample.newBuilder()
                        .setIndex(r.index()).setLatencyMicros(r.latencyMicros()).build()).toList());
        for (io.kbench.protocol.PartitionAcks a : s.partitionAcks()) {
            PartitionAcks.Builder b = PartitionAcks.newBuilder().setTopic(a.topic());
            for (int i = 0; i < a.partitions(); i++) {
                b.addAcked(a.acked(i));
            }
            p.addPartitionAcks(b);
        }
        if (s.shareDeliveries().present()) {
            p.setShareDeliveries(shareDeliveries(s.shareDeliveries()));
        }
        return p.build();
    }

    private static io.kbench.protocol.rpc.ShareDeliveries shareDeliveries(io.kbench.protocol.ShareDeliveries d) {
        io.kbench.protocol.rpc.ShareDeliveries.Builder b = io.kbench.protocol.rpc.ShareDeliveries.newBuilder()
                .setUntracked(d.untracked());
        for (io.kbench.protocol.ShareDeliveries.Stream st : d.streams()) {
            ShareStream.Builder sb = ShareStream.newBuilder().setGroup(st.group()).setProducerId(st.producerId())
                    .setPartition(st.partition());
            for (int i = 0; i < st.first().length; i += 2) {
                sb.addFirst(st.first()[i]).addFirst(st.first()[i + 1] - st.first()[i]);
            }
            for (int i = 0; i < st.again().length; i += 2) {
                sb.addAgain(st.again()[i]).addAgain(st.again()[i + 1] - st.again()[i]);
            }
            b.addStreams(sb);
        }
        return b.build();
    }

    /** Most ranges (first and again together) one snapshot's share deliveries may carry; the rest are dropped. */
    static final int MAX_SHARE_RANGES = 1_000_000;

    /**
     * The share deliveries of a snapshot. A stream with a range no worker sends (a negative start, a count below
     * 1, an odd number of values, an empty group) is dropped whole; past {@link #MAX_SHARE_RANGES} ranges the
     * rest are dropped; the records of what was dropped count as untracked.
     */
    static io.kbench.protocol.ShareDeliveries shareDeliveries(Snapshot s) {
        if (!s.hasShareDeliveries()) {
            return io.kbench.protocol.ShareDeliveries.NONE;
        }
        io.kbench.protocol.rpc.ShareDeliveries d = s.getShareDeliveries();
        long untracked = Math.max(0, d.getUntracked());
        long ranges = 0;
        java.util.List<io.kbench.protocol.ShareDeliveries.Stream> streams = new java.util.ArrayList<>();
        for (ShareStream st : d.getStreamsList()) {
            long[] first = ranges(st.getFirstList());
            long[] again = ranges(st.getAgainList());
            if (first == null || again == null || st.getGroup().isEmpty() || st.getPartition() < 0) {
                untracked += positiveCounts(st.getFirstList()) + positiveCounts(st.getAgainList());
                continue;
            }
            var stream = new io.kbench.protocol.ShareDeliveries.Stream(st.getGroup(), st.getProducerId(),
                    st.getPartition(), first, again);
            ranges += (first.length + again.length) / 2;
            if (ranges > MAX_SHARE_RANGES) {
                untracked += stream.firstCount() + stream.againCount();
                continue;
            }
            streams.add(stream);
        }
        return new io.kbench.protocol.ShareDeliveries(streams, untracked);
    }

    /** Pairs (start, count) as pairs [start, end); null when one is not a range a worker sends. */
    private static long[] ranges(java.util.List<Long> pairs) {
        if (pairs.size() % 2 != 0) {
            return null;
        }
        long[] r = new long[pairs.size()];
        for (int i = 0; i < r.length; i += 2) {
            long start = pairs.get(i);
            long count = pairs.get(i + 1);
            if (start < 0 || count < 1 || start > Long.MAX_VALUE - count) {
                return null;
            }
            r[i] = start;
            r[i + 1] = start + count;
        }
        return r;
    }

    private static long positiveCounts(java.util.List<Long> pairs) {
        long n = 0;
        for (int i = 1; i < pairs.size(); i += 2) {
            n += Math.max(0, Math.min(pairs.get(i), Integer.MAX_VALUE));
        }
        return n;
    }

    /** {@code c} on the wire (a snapshot's interval counts, or a Progress answer's running totals). */
    public static io.kbench.protocol.rpc.Counters counters(Counters c) {
        return io.kbench.protocol.rpc.Counters.newBuilder().setSent(c.sent()).setAcked(c.acked())
                .setFailed(c.failed()).setAckedBytes(c.ackedBytes()).setReceived(c.received())
                .setReceivedBytes(c.receivedBytes()).setClamped(c.clamped())
                .setNegativeEndToEnd(c.negativeEndToEnd()).setLost(c.lost()).setDuplicated(c.duplicated())
                .setOutOfOrder(c.outOfOrder()).setVerified(c.verified()).setUntracked(c.untracked())
                .setShareDelivered(c.shareDelivered()).setShareDeliveredBytes(c.shareDeliveredBytes())
                .setShareRedelivered(c.shareRedelivered()).setShareAccepted(c.shareAccepted())
                .setShareReleased(c.shareReleased()).setShareRejected(c.shareRejected()).build();
    }

    /** The counts of {@code c}, off the wire. */
    public static Counters counters(io.kbench.protocol.rpc.Counters c) {
        return new Counters(c.getSent(), c.getAcked(), c.getFailed(), c.getAckedBytes(), c.getReceived(),
                c.getReceivedBytes(), c.getClamped(), c.getNegativeEndToEnd(), c.getLost(),
                c.getDuplicated(), c.getOutOfOrder(), c.getVerified(), c.getUntracked(),
                c.getShareDelivered(), c.getShareDeliveredBytes(), c.getShareRedelivered(),
                c.getShareAccepted(), c.getShareReleased(), c.getShareRejected());
    }

    public static IntervalSnapshot fromProto(Snapshot s) {
        io.kbench.protocol.rpc.Counters c = s.getCounters();
        Histograms h = s.getHistograms();
        Map<Metric, byte[]> histograms = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            ByteString b = switch (m) {
                case PUBLISH_LATENCY -> h.getPublishLatency();
                case PUBLISH_RESPONSE -> h.getPublishResponse();
                case PUBLISH_DELAY -> h.getPublishDelay();
                case END_TO_END -> h.getEndToEnd();
                case TRANSACTION_COMMIT -> h.getTransactionCommit();
                case SHARE_DELIVERY -> h.getShareDelivery();
                case SHARE_ACCEPT -> h.getShareAccept();
                case SHARE_COMMIT -> h.getShareCommit();
            };
            histograms.put(m, b.toByteArray());
        }
        return new IntervalSnapshot(s.getWorkerId(), s.getSequence(), s.getStartMicros(), s.getEndMicros(),
                counters(c),
                histograms, s.getProducersDone(), s.getProducersDoneMicros(), s.getLastReceiveMicros(), s.getLast(),
                s.getError(), s.getConsumerLag(),
                new ClientMetricsSample(s.getProducerMetrics().getClients(), s.getProducerMetrics().getValuesMap()),
                new ClientMetricsSample(s.getConsumerMetrics().getClients(), s.getConsumerMetrics().getValuesMap()),
                s.getMetricsDumpsList().stream().map(d -> new io.kbench.protocol.ClientMetricsDump(d.getKind(), d.getIndex(),
                        new java.util.TreeMap<>(d.getValuesMap()))).toList(),
                host(s), s.getBrokersList().stream().limit(MAX_BROKER_SOURCES).map(b -> new io.kbench.protocol.BrokerSample(
                        b.getSource(), b.getValuesMap(), b.getError())).toList(), shareSpread(s), consumerTotals(s), Math.max(-1, s.getShareBacklog()),
                shareDeliveries(s), roundTrips(s), partitionAcks(s));
    }

    /** Most topics one snapshot's acknowledgements per partition may name; entries past it are dropped. */
    static final int MAX_PARTITION_TOPICS = 100_000;

    /**
     * The acknowledgements per partition, leaving out what no worker sends: an entry without a topic, with more
     * partitions than {@link io.kbench.protocol.PartitionAcks#MAX_PARTITIONS} or a negative count.
     */
    private static java.util.List<io.kbench.protocol.PartitionAcks> partitionAcks(Snapshot s) {
        java.util.List<io.kbench.protocol.PartitionAcks> out = new java.util.ArrayList<>();
        for (PartitionAcks a : s.getPartitionAcksList()) {
            if (out.size() == MAX_PARTITION_TOPICS) {
                break;
            }
            if (a.getTopic().isEmpty() || a.getAckedCount() > io.kbench.protocol.PartitionAcks.MAX_PARTITIONS
                    || a.getAckedList().stream().anyMatch(n -> n < 0)) {
                continue;
            }
            out.add(new io.kbench.protocol.PartitionAcks(a.getTopic(),
                    a.getAckedList().stream().mapToLong(Long::longValue).toArray()));
        }
        return out;
    }

    /** The sampled round trips, at most {@link io.kbench.protocol.RoundTripSample#MAX_PER_SNAPSHOT}, none negative. */
    private static java.util.List<io.kbench.protocol.RoundTripSample> roundTrips(Snapshot s) {
        return s.getRoundTripsList().stream().filter(r -> r.getIndex() >= 0 && r.getLatencyMicros() >= 0)
                .limit(io.kbench.protocol.RoundTripSample.MAX_PER_SNAPSHOT)
                .map(r -> new io.kbench.protocol.RoundTripSample(r.getIndex(), r.getLatencyMicros())).toList();
    }

    /** Most consumer totals one snapshot may carry (a run's most consumers); entries past it are dropped. */
    static final int MAX_CONSUMER_TOTALS = 100_000;

    /** The consumers' totals, leaving out entries no worker sends (a negative index or count). */
    private static java.util.List<io.kbench.protocol.ConsumerTotal> consumerTotals(Snapshot s) {
        return s.getConsumerTotalsList().stream()
                .filter(t -> t.getIndex() >= 0 && t.getRecords() >= 0 && t.getBytes() >= 0)
                .limit(MAX_CONSUMER_TOTALS)
                .map(t -> new io.kbench.protocol.ConsumerTotal(t.getIndex(), t.getShare(), t.getRecords(), t.getBytes(),
                        t.getClientId()))
                .toList();
    }

    /** The share consumers' spread, or none when the worker sent none or sent nonsense (negative, min above max). */
    private static io.kbench.protocol.ShareSpread shareSpread(Snapshot s) {
        ShareSpread p = s.getShareSpread();
        if (p.getConsumers() <= 0 || p.getMin() < 0 || p.getMax() < p.getMin()) {
            return io.kbench.protocol.ShareSpread.NONE;
        }
        return new io.kbench.protocol.ShareSpread(p.getConsumers(), p.getMin(), p.getMax());
    }

    /** Most broker sources one snapshot's figures are taken from (a larger list is cut). */
    static final int MAX_BROKER_SOURCES = 1_000;

    /** The host figures, or none when the worker sent none (processors 0) or sent nonsense (negative times). */
    private static io.kbench.protocol.HostSample host(Snapshot s) {
        if (!s.hasHost()) {
            return io.kbench.protocol.HostSample.NONE;
        }
        HostMetrics h = s.getHost();
        if (h.getProcessors() <= 0 || h.getWallMicros() <= 0 || h.getCpuMicros() < 0 || h.getGcMicros() < 0
                || h.getGcCount() < 0 || h.getHeapMaxBytes() < 0) {
            return io.kbench.protocol.HostSample.NONE;
        }
        String shared = h.getSharedWith();
        return new io.kbench.protocol.HostSample(h.getProcessors(), h.getWallMicros(), h.getCpuMicros(), h.getGcMicros(),
                h.getGcCount(), Math.max(-1, h.getHeapAfterGcBytes()), h.getHeapMaxBytes(),
                shared.length() > 200 ? shared.substring(0, 200) : shared,
                h.hasStallMicros() && h.getStallMicros() >= 0 ? Math.min(h.getStallMicros(), MAX_STALL_MICROS) : -1,
                h.hasHostBusyShare() ? h.getHostBusyShare() : -1, h.hasHostStealShare() ? h.getHostStealShare() : -1,
                h.hasJitMicros() && h.getJitMicros() >= 0 ? Math.min(h.getJitMicros(), MAX_STALL_MICROS) : -1);
    }

    /** The host figures as sent; the stall and the host's CPU only when measured (absent: unknown). */
    private static HostMetrics hostMetrics(io.kbench.protocol.HostSample h) {
        HostMetrics.Builder b = HostMetrics.newBuilder().setProcessors(h.processors()).setCpuMicros(h.cpuMicros())
                .setGcMicros(h.gcMicros()).setGcCount(h.gcCount()).setHeapAfterGcBytes(h.heapAfterGcBytes())
                .setHeapMaxBytes(h.heapMaxBytes()).setWallMicros(h.wallMicros()).setSharedWith(h.sharedWith());
        if (h.stallMicros() >= 0) {
            b.setStallMicros(h.stallMicros());
        }
        if (h.hostBusyShare() >= 0) {
            b.setHostBusyShare(h.hostBusyShare());
        }
        if (h.hostStealShare() >= 0) {
            b.setHostStealShare(h.hostStealShare());
        }
        if (h.jitMicros() >= 0) {
            b.setJitMicros(h.jitMicros());
        }
        return b.build();
    }

    /** A stall (or an interval's compile time) longer than an hour is a worker's nonsense, kept as an hour. */
    private static final long MAX_STALL_MICROS = 3_600_000_000L;

    private static ClientMetrics.Builder clientMetrics(ClientMetricsSample m) {
        return ClientMetrics.newBuilder().setClients(m.clients()).putAllValues(m.values());
    }
}
