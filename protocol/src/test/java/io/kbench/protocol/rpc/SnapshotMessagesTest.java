package io.kbench.protocol.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kbench.protocol.ClientMetricsSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;

class SnapshotMessagesTest {
    /**
     * Fills every scalar field of a message (and of its message fields) with a value of its own: the field
     * number plus {@code base}, so a field mapped to the wrong place or forgotten shows.
     */
    private static Message.Builder fill(Message.Builder b, long base) {
        for (FieldDescriptor f : b.getDescriptorForType().getFields()) {
            if (f.isRepeated() || f.isMapField()) {
                continue;
            }
            long v = base + f.getNumber();
            switch (f.getJavaType()) {
                case LONG -> b.setField(f, v);
                case INT -> b.setField(f, (int) v);
                case DOUBLE -> b.setField(f, v + 0.5);
                case BOOLEAN -> b.setField(f, true);
                case STRING -> b.setField(f, f.getName() + "-" + v);
                case BYTE_STRING -> b.setField(f, ByteString.copyFromUtf8(f.getName()));
                case MESSAGE -> b.setField(f, fill(b.newBuilderForField(f), base + 100L * f.getNumber()).build());
                default -> throw new AssertionError("field type not covered: " + f);
            }
        }
        return b;
    }

    private static Snapshot everyFieldSet() {
        Snapshot.Builder b = (Snapshot.Builder) fill(Snapshot.newBuilder(), 0);
        // shares are 0..1 (a larger one is read as 1): two distinct ones
        b.setHost(b.getHost().toBuilder().setHostBusyShare(0.375).setHostStealShare(0.0625));
        b.setProducerMetrics(ClientMetrics.newBuilder().setClients(3).putValues("record-queue-time-avg", 1.5));
        b.setConsumerMetrics(ClientMetrics.newBuilder().setClients(2).putValues("fetch-latency-avg", 2.5));
        b.addMetricsDumps(io.kbench.protocol.rpc.ClientMetricsDump.newBuilder().setKind("consumer").setIndex(4)
                .putValues("consumer-metrics:x:{client-id=c4}", "1.000"));
        b.addBrokers(BrokerMetrics.newBuilder().setSource("embedded").putValues("bytesInPerSec", 1.5e6));
        b.addBrokers(BrokerMetrics.newBuilder().setSource("b2:9999").setError("unreachable"));
        b.addConsumerTotals(ConsumerTotal.newBuilder().setIndex(3).setShare(true).setRecords(40).setBytes(4000)
                .setClientId("s3"));
        b.addConsumerTotals(ConsumerTotal.newBuilder().setIndex(7).setRecords(41).setBytes(4100));
        b.setShareDeliveries(b.getShareDeliveries().toBuilder().addStreams(ShareStream.newBuilder().setGroup("g")
                .setProducerId(1L << 32 | 3).setPartition(2).addFirst(0).addFirst(500).addFirst(700).addFirst(10)
                .addAgain(17).addAgain(1)));
        b.addRoundTrips(RoundTripSample.newBuilder().setIndex(0).setLatencyMicros(1234));
        b.addRoundTrips(RoundTripSample.newBuilder().setIndex(1000).setLatencyMicros(987));
        b.addPartitionAcks(PartitionAcks.newBuilder().setTopic("t").addAcked(3).addAcked(0).addAcked(9));
        return b.build();
    }

    @Test
    void shouldRoundTripEveryFieldOfTheWireForm() {
        Snapshot proto = everyFieldSet();
        assertEquals(proto, SnapshotMessages.toProto(SnapshotMessages.fromProto(proto)));
        assertEquals(23, Snapshot.getDescriptor().getFields().size(), "a new Snapshot field needs mapping here");
        assertEquals(Metric.values().length, Histograms.getDescriptor().getFields().size(),
                "one wire histogram per Metric");
    }

    @Test
    void shouldPutEachWireFieldInItsPlace() {
        Snapshot proto = everyFieldSet();
        IntervalSnapshot s = SnapshotMessages.fromProto(proto);
        assertEquals(proto.getWorkerId(), s.workerId());
        assertEquals(2, s.sequence());
        assertEquals(3, s.startMicros());
        assertEquals(4, s.endMicros());
        var c = proto.getCounters();
        assertEquals(new Counters(c.getSent(), c.getAcked(), c.getFailed(), c.getAckedBytes(), c.getReceived(),
                c.getReceivedBytes(), c.getClamped(), c.getNegativeEndToEnd(), c.getLost(), c.getDuplicated(),
                c.getOutOfOrder(), c.getVerified(), c.getUntracked(), c.getShareDelivered(), c.getShareDeliveredBytes(),
                c.getShareRedelivered(), c.getShareAccepted(), c.getShareReleased(), c.getShareRejected()), s.counters());
        Counters r = s.counters();
        assertEquals(c.getAllFields().size(), LongStream.of(r.sent(), r.acked(), r.failed(), r.ackedBytes(),
                r.received(), r.receivedBytes(), r.clamped(), r.negativeEndToEnd(), r.lost(), r.duplicated(),
                r.outOfOrder(), r.verified(), r.untracked(), r.shareDelivered(), r.shareDeliveredBytes(),
                r.shareRedelivered(), r.shareAccepted(), r.shareReleased(), r.shareRejected())
                .filter(v -> v > 0).distinct().count(),
                "every counter distinct: none mapped twice or left out");
        var h = proto.getHistograms();
        assertArrayEquals(h.getPublishLatency().toByteArray(), s.histogram(Metric.PUBLISH_LATENCY));
        assertArrayEquals(h.getPublishResponse().toByteArray(), s.histogram(Metric.PUBLISH_RESPONSE));
        assertArrayEquals(h.getPublishDelay().toByteArray(), s.histogram(Metric.PUBLISH_DELAY));
        assertArrayEquals(h.getEndToEnd().toByteArray(), s.histogram(Metric.END_TO_END));
        assertArrayEquals(h.getTransactionCommit().toByteArray(), s.histogram(Metric.TRANSACTION_COMMIT));
        assertArrayEquals(h.getShareDelivery().toByteArray(), s.histogram(Metric.SHARE_DELIVERY));
        assertArrayEquals(h.getShareAccept().toByteArray(), s.histogram(Metric.SHARE_ACCEPT));
        assertTrue(s.producersDone());
        assertTrue(s.last());
        assertEquals(proto.getError(), s.error());
        assertEquals(10, s.producersDoneMicros());
        assertEquals(11, s.lastReceiveMicros());
        assertEquals(12, s.consumerLag());
        assertEquals(new io.kbench.protocol.ShareSpread(1801, 1802, 1803), s.shareSpread());
        assertEquals(20, s.shareBacklog());
        assertEquals(List.of(new io.kbench.protocol.RoundTripSample(0, 1234), new io.kbench.protocol.RoundTripSample(1000, 987)),
                s.roundTrips());
        assertEquals(new ClientMetricsSample(3, Map.of("record-queue-time-avg", 1.5)), s.producerMetrics());
        assertEquals(new ClientMetricsSample(2, Map.of("fetch-latency-avg", 2.5)), s.consumerMetrics());
        assertEquals(List.of(new io.kbench.protocol.ClientMetricsDump("consumer", 4,
                new java.util.TreeMap<>(Map.of("consumer-metrics:x:{client-id=c4}", "1.000")))), s.metricsDumps());
        assertEquals(List.of(new io.kbench.protocol.ConsumerTotal(3, true, 40, 4000, "s3"),
                new io.kbench.protocol.ConsumerTotal(7, false, 41, 4100, "")), s.consumerTotals());
    }

    @Test
    void shouldRoundTripTheAcknowledgementsPerPartitionAndDropWhatNoWorkerSends() {
        IntervalSnapshot s = new IntervalSnapshot("w", 7, 10, 20, new Counters(1, 2, 3, 4, 5, 6, 7, 8),
                Map.of(), true, 19, 18, true, "", -1, ClientMetricsSample.NONE, ClientMetricsSample.NONE)
                .withPartitionAcks(java.util.List.of(new io.kbench.protocol.PartitionAcks("a", new long[] {5, 0, 7}),
                        new io.kbench.protocol.PartitionAcks("b", new long[] {1})));
        IntervalSnapshot back = SnapshotMessages.fromProto(SnapshotMessages.toProto(s));
        assertEquals(s, back);
        assertEquals(7, back.partitionAcks().get(0).acked(2));
        assertEquals(0, back.partitionAcks().get(1).acked(5), "past the end: none");

        Snapshot hostile = SnapshotMessages.toProto(s).toBuilder()
                .addPartitionAcks(PartitionAcks.newBuilder().setTopic("").addAcked(1))
                .addPartitionAcks(PartitionAcks.newBuilder().setTopic("c").addAcked(3).addAcked(-1))
                .build();
        assertEquals(s.partitionAcks(), SnapshotMessages.fromProto(hostile).partitionAcks(),
                "an entry without a topic or with a negative count is left out");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new io.kbench.protocol.PartitionAcks("t", new long[io.kbench.protocol.PartitionAcks.MAX_PARTITIONS + 1]));
    }

    @Test
    void shouldRoundTripARecordWithoutSomeHistograms() {
        IntervalSnapshot s = new IntervalSnapshot("w", 7, 10, 20, new Counters(1, 2, 3, 4, 5, 6, 7, 8),
                Map.of(Metric.PUBLISH_LATENCY, new byte[] {1, 2}), true, 19, 18, false, "", -1,
                ClientMetricsSample.NONE, ClientMetricsSample.NONE);
        IntervalSnapshot back = SnapshotMessages.fromProto(SnapshotMessages.toProto(s));
        assertEquals(s, back);
        assertArrayEquals(new byte[0], back.histogram(Metric.END_TO_END), "a missing histogram is empty");
    }

    @Test
    void shouldRoundTripTheLastSnapshotsClientMetricsDumps() {
        java.util.TreeMap<String, String> values = new java.util.TreeMap<>(Map.of(
                "producer-metrics:record-send-rate:{client-id=p0}", "4999.750", "app-info:version:{client-id=p0}", "4.3.1"));
        IntervalSnapshot s = new IntervalSnapshot("w", 7, 10, 20, new Counters(1, 2, 3, 4, 5, 6, 7, 8),
                Map.of(Metric.PUBLISH_LATENCY, new byte[] {1, 2}), true, 19, 18, true, "", -1,
                ClientMetricsSample.NONE, ClientMetricsSample.NONE)
                .withMetricsDumps(java.util.List.of(new io.kbench.protocol.ClientMetricsDump("producer", 3, values)));
        IntervalSnapshot back = SnapshotMessages.fromProto(SnapshotMessages.toProto(s));
        assertEquals(s, back);
        assertEquals(java.util.List.of("app-info:version:{client-id=p0}", "producer-metrics:record-send-rate:{client-id=p0}"),
                java.util.List.copyOf(back.metricsDumps().get(0).values().keySet()), "sorted by name");
        assertEquals(3, back.metricsDumps().get(0).index());
    }

    @Test
    void shouldRefuseADumpOfAnUnknownClientKind() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new io.kbench.protocol.ClientMetricsDump("admin", 0, new java.util.TreeMap<>()));
    }

    @Test
    void shouldRoundTripTheHostFiguresAndDropNonsense() {
        IntervalSnapshot s = new IntervalSnapshot("w", 7, 10, 20, new Counters(1, 2, 3, 4, 5, 6, 7, 8),
                Map.of(), false, 0, 0, false, "", -1, ClientMetricsSample.NONE, ClientMetricsSample.NONE)
                .withHost(new io.kbench.protocol.HostSample(2, 1_000_000, 1_500_000, 12_000, 3, 40_000_000, 1_000_000_000,
                        "coordinator", 27_500, 0.875, 0.0625, 500_000));
        IntervalSnapshot back = SnapshotMessages.fromProto(SnapshotMessages.toProto(s));
        assertEquals(500_000, back.host().jitMicros());
        assertEquals(0.25, back.host().jitShare(), 1e-9, "0.5 s compiling in 1 s on 2 processors");
        assertEquals(0.875, back.host().hostBusyShare());
        assertEquals(0.0625, back.host().hostStealShare());
        assertEquals(s, back);
        assertEquals(0.75, back.host().cpuShare(), 1e-9, "1.5 s of CPU in 1 s on 2 processors");
        assertEquals("coordinator", back.host().sharedWith());
        assertEquals(0.04, back.host().heapAfterGcShare(), 1e-9);
        assertEquals(27_500, back.host().stallMicros());
        IntervalSnapshot noPark = s.withHost(new io.kbench.protocol.HostSample(2, 1_000_000, 1_500_000, 12_000, 3,
                40_000_000, 1_000_000_000, "coordinator", -1));
        assertTrue(!SnapshotMessages.toProto(noPark).getHost().hasStallMicros(), "no load thread parked: not sent");
        assertEquals(-1, SnapshotMessages.fromProto(SnapshotMessages.toProto(noPark)).host().stallMicros());
        Snapshot unmeasured = SnapshotMessages.toProto(s).toBuilder()
                .setHost(SnapshotMessages.toProto(s).getHost().toBuilder().clearStallMicros()).build();
        assertEquals(-1, SnapshotMessages.fromProto(unmeasured).host().stallMicros(), "an older worker does not measure it");
        assertEquals(0.75, SnapshotMessages.fromProto(unmeasured).host().cpuShare(), 1e-9, "the rest still counts");
        Snapshot negativeStall = SnapshotMessages.toProto(s).toBuilder()
                .setHost(SnapshotMessages.toProto(s).getHost().toBuilder().setStallMicros(-7)).build();
        assertEquals(-1, SnapshotMessages.fromProto(negativeStall).host().stallMicros());
        Snapshot hugeStall = SnapshotMessages.toProto(s).toBuilder()
                .setHost(SnapshotMessages.toProto(s).getHost().toBuilder().setStallMicros(Long.MAX_VALUE)).build();
        assertEquals(3_600_000_000L, SnapshotMessages.fromProto(hugeStall).host().stallMicros(), "kept as an hour");
        Snapshot noHostCpu = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().clearHostBusyShare().clearHostStealShare()).build();
        assertEquals(-1, SnapshotMessages.fromProto(noHostCpu).host().hostBusyShare(), "not Linux, or an older worker");
        assertEquals(-1, SnapshotMessages.fromProto(noHostCpu).host().hostStealShare());
        assertTrue(!SnapshotMessages.toProto(noPark).getHost().hasHostBusyShare(), "unknown: not sent");
        Snapshot nonsense = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().setHostBusyShare(Double.NaN).setHostStealShare(-0.5)).build();
        assertEquals(-1, SnapshotMessages.fromProto(nonsense).host().hostBusyShare(), "NaN is no share");
        assertEquals(-1, SnapshotMessages.fromProto(nonsense).host().hostStealShare(), "negative is no share");
        Snapshot over = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().setHostBusyShare(7).setHostStealShare(Double.POSITIVE_INFINITY)).build();
        assertEquals(1.0, SnapshotMessages.fromProto(over).host().hostBusyShare(), "at most every processor");
        assertEquals(-1, SnapshotMessages.fromProto(over).host().hostStealShare());
        Snapshot noJit = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().clearJitMicros()).build();
        assertEquals(-1, SnapshotMessages.fromProto(noJit).host().jitMicros(), "not Linux, or an older worker");
        assertEquals(-1, SnapshotMessages.fromProto(noJit).host().jitShare());
        assertTrue(!SnapshotMessages.toProto(noPark).getHost().hasJitMicros(), "unknown: not sent");
        Snapshot badJit = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().setJitMicros(-3)).build();
        assertEquals(-1, SnapshotMessages.fromProto(badJit).host().jitMicros(), "negative is no time");
        Snapshot hugeJit = SnapshotMessages.toProto(s).toBuilder().setHost(SnapshotMessages.toProto(s).getHost()
                .toBuilder().setJitMicros(Long.MAX_VALUE)).build();
        assertEquals(3_600_000_000L, SnapshotMessages.fromProto(hugeJit).host().jitMicros(), "kept as an hour");
        assertEquals(1.0, SnapshotMessages.fromProto(hugeJit).host().jitShare(), "at most every processor");
        Snapshot without = SnapshotMessages.toProto(s).toBuilder().clearHost().build();
        assertEquals(io.kbench.protocol.HostSample.NONE, SnapshotMessages.fromProto(without).host(),
                "an older worker sends none");
        Snapshot negative = SnapshotMessages.toProto(s).toBuilder()
                .setHost(SnapshotMessages.toProto(s).getHost().toBuilder().setCpuMicros(-5)).build();
        assertEquals(io.kbench.protocol.HostSample.NONE, SnapshotMessages.fromProto(negative).host(),
                "negative times are not figures");
    }

    @Test
    void shouldDropAShareSpreadThatCannotBe() {
        for (ShareSpread bad : List.of(ShareSpread.newBuilder().setConsumers(2).setMin(9).setMax(3).build(),
                ShareSpread.newBuilder().setConsumers(2).setMin(-1).setMax(3).build(),
                ShareSpread.newBuilder().setConsumers(-2).setMin(1).setMax(3).build())) {
            Snapshot proto = everyFieldSet().toBuilder().setShareSpread(bad).build();
            assertEquals(io.kbench.protocol.ShareSpread.NONE, SnapshotMessages.fromProto(proto).shareSpread(), bad.toString());
        }
    }

    @Test
    void shouldCarryShareDeliveriesAsRangesAndTellAbsentFromEmpty() {
        io.kbench.protocol.ShareDeliveries d = SnapshotMessages.fromProto(everyFieldSet()).shareDeliveries();
        assertTrue(d.present());
        assertEquals(1, d.streams().size());
        var st = d.streams().get(0);
        assertArrayEquals(new long[] {0, 500, 700, 710}, st.first(), "pairs (start, count) as [start, end)");
        assertArrayEquals(new long[] {17, 18}, st.again());
        assertEquals(510, st.firstCount());
        Snapshot without = everyFieldSet().toBuilder().clearShareDeliveries().build();
        assertEquals(io.kbench.protocol.ShareDeliveries.NONE, SnapshotMessages.fromProto(without).shareDeliveries());
        assertTrue(!SnapshotMessages.fromProto(without).shareDeliveries().present(), "absent: the worker sends none");
        Snapshot empty = everyFieldSet().toBuilder().setShareDeliveries(io.kbench.protocol.rpc.ShareDeliveries
                .getDefaultInstance()).build();
        assertTrue(SnapshotMessages.fromProto(empty).shareDeliveries().present(), "empty: nothing delivered");
        assertTrue(!SnapshotMessages.toProto(SnapshotMessages.fromProto(without)).hasShareDeliveries());
    }

    @Test
    void shouldDropShareStreamsThatCannotBeAndCountTheirRecordsUntracked() {
        io.kbench.protocol.rpc.ShareDeliveries.Builder d = io.kbench.protocol.rpc.ShareDeliveries.newBuilder()
                .setUntracked(4)
                .addStreams(ShareStream.newBuilder().setGroup("g").addFirst(0).addFirst(10))
                .addStreams(ShareStream.newBuilder().setGroup("g").addFirst(-5).addFirst(3))
                .addStreams(ShareStream.newBuilder().setGroup("g").addFirst(5).addFirst(0).addAgain(1).addAgain(2))
                .addStreams(ShareStream.newBuilder().setGroup("g").addFirst(5))
                .addStreams(ShareStream.newBuilder().setGroup("").addFirst(0).addFirst(7))
                .addStreams(ShareStream.newBuilder().setGroup("g").setPartition(-1).addFirst(0).addFirst(1))
                .addStreams(ShareStream.newBuilder().setGroup("g").addFirst(Long.MAX_VALUE).addFirst(2));
        var out = SnapshotMessages.fromProto(everyFieldSet().toBuilder().setShareDeliveries(d).build())
                .shareDeliveries();
        assertEquals(1, out.streams().size(), "the good one");
        assertEquals(4 + 3 + 2 + 7 + 1 + 2, out.untracked(), "the sent count and the bad streams' positive counts");
    }

    @Test
    void shouldDropConsumerTotalsThatCannotBe() {
        Snapshot proto = everyFieldSet().toBuilder()
                .addConsumerTotals(ConsumerTotal.newBuilder().setIndex(-1).setRecords(1))
                .addConsumerTotals(ConsumerTotal.newBuilder().setIndex(9).setRecords(-5))
                .addConsumerTotals(ConsumerTotal.newBuilder().setIndex(9).setRecords(5).setBytes(-1)).build();
        assertEquals(2, SnapshotMessages.fromProto(proto).consumerTotals().size(), "the two good ones");
    }
}
