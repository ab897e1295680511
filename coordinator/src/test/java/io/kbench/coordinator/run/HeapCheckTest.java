package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.HostFacts;
import org.junit.jupiter.api.Test;

/** Every worker's share against the heap it told, before any worker prepares; in-process workers share one. */
class HeapCheckTest {
    private static final long GB = 1L << 30;
    /** Batches that take nothing: the recorders' and clients' count alone. */
    private static final io.kbench.protocol.HeapNeed.Buffers NO_BATCHES = new io.kbench.protocol.HeapNeed.Buffers(
            new io.kbench.protocol.HeapNeed.ProducerBatches(32L << 20, 0, 0, 0),
            new io.kbench.protocol.HeapNeed.ConsumerFetches(0, 0));
    private static final io.kbench.coordinator.workload.Profile PROFILE = io.kbench.coordinator.workload.Profile.defaults();

    private static Plan.WorkerAssignment share(int worker, int pacedProducers, int consumers) {
        List<Plan.ProducerTask> producers = new ArrayList<>();
        for (int i = 0; i < pacedProducers; i++) {
            producers.add(new Plan.ProducerTask(i, "t", 10, 0));
        }
        List<Plan.ConsumerTask> cs = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            cs.add(new Plan.ConsumerTask(i, "t", "g"));
        }
        return new Plan.WorkerAssignment(worker, producers, cs);
    }

    private static Plan plan(Plan.WorkerAssignment... workers) {
        return new Plan("r", List.of(new Plan.Topic("t", 1)), List.of(workers), new Plan.ClientSettings(false, false, 1000));
    }

    private static WorkerClient.Identity id(String name, String clock, long maxHeap) {
        return new WorkerClient.Identity(name, "v", "h", 2, "", "", clock,
                maxHeap < 0 ? null : new HostFacts("h", 2, 24 * GB, "Linux", "17", maxHeap), Map.of(), "");
    }

    @Test
    void shouldRefuseTheWorkerWhoseShareDoesNotFitAndNameIt() {
        UserException e = assertThrows(UserException.class, () -> HeapCheck.check(plan(share(0, 100, 0),
                share(1, 5_000, 10)), List.of(id("a", "c1", 6 * GB), id("b", "c2", 6 * GB)), NO_BATCHES));
        assertTrue(e.getMessage().startsWith("worker b's share of the run does not fit its heap: 5,000 producer(s) and "
                + "10 consumer(s) can need 7.2 GB "), e.getMessage());
        assertTrue(e.getMessage().endsWith("more than 85% of the 6.0 GB its JVM may use; spread the clients over more "
                + "`kbench worker` processes (--workers), or give the JVM more heap (KBENCH_JAVA_OPTS=-Xmx...)"));
        assertDoesNotThrow(() -> HeapCheck.check(plan(share(0, 100, 0), share(1, 3_000, 10)),
                List.of(id("a", "c1", 6 * GB), id("b", "c2", 6 * GB)), NO_BATCHES));
    }

    /** Two in-process workers read the coordinator's clock: one JVM, one heap for both shares. */
    @Test
    void shouldCountTheSharesOfWorkersInOneJvmTogether() {
        Plan twoHalves = plan(share(0, 2_000, 0), share(1, 2_000, 0)); // 2.9 GB each, 5.7 GB together
        assertDoesNotThrow(() -> HeapCheck.check(twoHalves, List.of(id("a", "c1", 6 * GB), id("b", "c2", 6 * GB)), NO_BATCHES));
        UserException e = assertThrows(UserException.class, () -> HeapCheck.check(twoHalves,
                List.of(id("local-1", "same", 6 * GB), id("local-2", "same", 6 * GB)), NO_BATCHES));
        assertTrue(e.getMessage().startsWith("the shares of the 2 in-process workers (local-1, local-2; one JVM) do not "
                + "fit its heap: 4,000 producer(s) and 0 consumer(s) can need 5.7 GB"), e.getMessage());
    }

    /** A worker that does not tell its heap (an older build) is left to its own check. */
    @Test
    void shouldLeaveAWorkerThatDoesNotTellItsHeapToItsOwnCheck() {
        assertDoesNotThrow(() -> HeapCheck.check(plan(share(0, 10_000, 0)), List.of(id("old", "c1", -1)), NO_BATCHES));
        assertEquals(0, new io.kbench.protocol.HeapNeed(0, 0, 0, 0).bytes());
    }

    /** A sweep's combinations are all checked before the first runs: the one that cannot fit is named, with its place. */
    @Test
    void shouldNameTheSweepCombinationWhoseShareDoesNotFit() {
        java.util.function.IntFunction<io.kbench.coordinator.workload.Sweep.Point> point = producers ->
                new io.kbench.coordinator.workload.Sweep.Point("producersPerTopic=" + producers,
                        Map.of("producersPerTopic", String.valueOf(producers)),
                        io.kbench.coordinator.workload.Workload.of("w", Map.of("topics", 1, "partitionsPerTopic", 1,
                                "producersPerTopic", producers, "subscriptionsPerTopic", 0, "producerRate", 4_000,
                                "durationSeconds", 10)), Map.of());
        List<WorkerClient.Identity> oneJvm = List.of(id("local-1", "same", GB), id("local-2", "same", GB));
        assertDoesNotThrow(() -> HeapCheck.checkSweep(List.of(point.apply(1), point.apply(200)), oneJvm, PROFILE));
        UserException e = assertThrows(UserException.class, () -> HeapCheck.checkSweep(List.of(point.apply(1),
                point.apply(2_000), point.apply(4_000)), oneJvm, PROFILE));
        assertTrue(e.getMessage().startsWith("sweep combination 2 of 3 (producersPerTopic=2000): the shares of the 2 "
                + "in-process workers (local-1, local-2; one JVM) do not fit its heap: 2,000 producer(s)"), e.getMessage());
    }

    /**
     * An unthrottled producer fills its pool: 100 of them on a 1-GB heap ran out of memory (2026-12-01, 1-KB records);
     * they are refused with the pool counted, and fit once buffer.memory is lowered.
     */
    @Test
    void shouldCountAnUnthrottledProducersBufferMemory() {
        List<Plan.ProducerTask> producers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            producers.add(new Plan.ProducerTask(i, "t", -1, 0));
        }
        Plan plan = new Plan("r", List.of(new Plan.Topic("t", 6)), List.of(new Plan.WorkerAssignment(0, producers,
                List.of())), new Plan.ClientSettings(false, false, 1000));
        io.kbench.coordinator.workload.Workload w = io.kbench.coordinator.workload.Workload.of("w", Map.of("topics", 1,
                "messageSize", 1024, "durationSeconds", 10));
        List<WorkerClient.Identity> one = List.of(id("local-1", "c1", GB));
        UserException e = assertThrows(UserException.class, () -> HeapCheck.check(plan, one,
                HeapCheck.buffers(PROFILE, w)));
        assertTrue(e.getMessage().contains("100 producer(s) and 0 consumer(s) can need 3.2 GB ("), e.getMessage());
        assertTrue(e.getMessage().contains("besides, up to 3.1 GB of producer batches: an unthrottled producer's "
                + "buffer.memory, a paced one's records of delivery.timeout.ms)"), e.getMessage());
        assertTrue(e.getMessage().contains("(--workers), lower the producers' buffer.memory, or give"), e.getMessage());
        io.kbench.coordinator.workload.Profile small = PROFILE.with(Map.of("producer.buffer.memory", "1048576"));
        assertDoesNotThrow(() -> HeapCheck.check(plan, one, HeapCheck.buffers(small, w)));
    }

    /** A paced producer holds at most what it sends in delivery.timeout.ms and a batch per partition, within its pool. */
    @Test
    void shouldBoundAPacedProducersBatchesByWhatItSendsBeforeItsRecordsExpire() {
        io.kbench.protocol.HeapNeed.ProducerBatches b = io.kbench.protocol.HeapNeed.ProducerBatches.of(
                Map.of("delivery.timeout.ms", "30000", "batch.size", "16384"), 100);
        assertEquals(170, b.recordBytes());
        assertEquals(10L * 170 * 30 + 6 * 16_384, b.of(10, 6)); // 10 msg/s for 30 s, a batch per partition
        assertEquals(32L << 20, b.of(50_000, 6), "never more than buffer.memory");
        assertEquals(32L << 20, b.of(-1, 6), "unthrottled: its pool");
        assertEquals(1_000L * 170 + 6 * 16_384, b.of(-1, 6, 1_000), "1,000 records in all: never more than those");
        assertEquals(32L << 20, b.of(-1, 6, 10_000_000), "ten million: the pool again");
        io.kbench.protocol.HeapNeed.ProducerBatches bad = io.kbench.protocol.HeapNeed.ProducerBatches.of(
                Map.of("buffer.memory", "lots", "delivery.timeout.ms", "-5"), 0);
        assertEquals(32L << 20, bad.bufferMemory());
        assertEquals(120_000, bad.deliveryTimeoutMs());
    }

    /**
     * 8 consumer groups of one consumer each reading a 6-partition backlog on a 256-MB worker: with the 1-MB default
     * they held 11 MB each and ran; with 3 MB a partition they ran out of memory (2026-12-01). Counted: 12 and 36 MB.
     */
    @Test
    void shouldCountTheConsumersFetchedRecordsByThePartitionsEachReads() {
        List<Plan.ConsumerTask> consumers = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            consumers.add(new Plan.ConsumerTask(g, "t", "g" + g));
        }
        Plan eightGroups = new Plan("r", List.of(new Plan.Topic("t", 6)), List.of(new Plan.WorkerAssignment(0, List.of(),
                consumers)), new Plan.ClientSettings(false, false, 1000));
        io.kbench.coordinator.workload.Workload w = io.kbench.coordinator.workload.Workload.of("w", Map.of("topics", 1,
                "durationSeconds", 10));
        List<WorkerClient.Identity> small = List.of(id("w1", "c1", 256L << 20));
        io.kbench.protocol.HeapNeed.Buffers defaults = HeapCheck.buffers(PROFILE, w);
        assertEquals(8L * 12 * (1 << 20), HeapCheck.need(eightGroups, eightGroups.workers().get(0), defaults)
                .consumerFetches(), "6 partitions each, twice 1 MB");
        assertDoesNotThrow(() -> HeapCheck.check(eightGroups, small, defaults));
        UserException e = assertThrows(UserException.class, () -> HeapCheck.check(eightGroups, small,
                HeapCheck.buffers(PROFILE.with(Map.of("consumer.max.partition.fetch.bytes", "3145728")), w)));
        assertTrue(e.getMessage().contains("0 producer(s) and 8 consumer(s) can need 293.2 MB (") && e.getMessage()
                .contains("besides, up to 288.0 MB of fetched records: twice max.partition.fetch.bytes a partition a "
                        + "consumer reads)"), e.getMessage());
        assertTrue(e.getMessage().contains("(--workers), lower the consumers' max.partition.fetch.bytes, or give"),
                e.getMessage());

        // one group of 3 over two workers: 2 partitions each; a share consumer may read all 6
        Plan split = new Plan("r", List.of(new Plan.Topic("t", 6)), List.of(
                new Plan.WorkerAssignment(0, List.of(), List.of(new Plan.ConsumerTask(0, "t", "g"),
                        new Plan.ConsumerTask(1, "t", "g"))),
                new Plan.WorkerAssignment(1, List.of(), List.of(new Plan.ConsumerTask(2, "t", "g"),
                        new Plan.ConsumerTask(3, "t", "s", true)))), new Plan.ClientSettings(false, false, 1000));
        assertEquals(2L * 4 * (1 << 20), HeapCheck.need(split, split.workers().get(0), defaults).consumerFetches());
        assertEquals((4L + 12) * (1 << 20), HeapCheck.need(split, split.workers().get(1), defaults).consumerFetches());
    }

    /** An existing topic's partitions are known once found: the same consumers are checked again with them. */
    @Test
    void shouldCheckAgainWithAnExistingTopicsPartitionsOnceFound() {
        List<Plan.ConsumerTask> consumers = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            consumers.add(new Plan.ConsumerTask(g, "backlog", "g" + g));
        }
        // planned before the topic was found: the workload's partitionsPerTopic (1 by default)
        Plan planned = new Plan("r", List.of(new Plan.Topic("backlog", 1)), List.of(new Plan.WorkerAssignment(0,
                List.of(), consumers)), new Plan.ClientSettings(false, false, 1000));
        io.kbench.protocol.HeapNeed.Buffers threeMb = HeapCheck.buffers(PROFILE.with(Map.of("consumer.max.partition.fetch.bytes",
                "3145728")), io.kbench.coordinator.workload.Workload.of("w", Map.of("topics", 1, "durationSeconds", 10)));
        List<WorkerClient.Identity> small = List.of(id("w1", "c1", 256L << 20));
        assertDoesNotThrow(() -> HeapCheck.check(planned, small, threeMb));
        Plan found = planned.withPartitions(Map.of("backlog", 6, "other", 3));
        assertEquals(List.of(new Plan.Topic("backlog", 6)), found.topics());
        assertThrows(UserException.class, () -> HeapCheck.check(found, small, threeMb));
    }

    /** buffer.memory of Long.MAX_VALUE (Kafka takes it) is a need no heap fits, not one that wraps round to negative. */
    @Test
    void shouldRefuseABufferMemoryNoHeapHolds() {
        List<Plan.ProducerTask> producers = List.of(new Plan.ProducerTask(0, "t", -1, 0), new Plan.ProducerTask(1, "t", -1, 0));
        Plan plan = new Plan("r", List.of(new Plan.Topic("t", 6)), List.of(new Plan.WorkerAssignment(0, producers,
                List.of(new Plan.ConsumerTask(0, "t", "g")))), new Plan.ClientSettings(false, false, 1000));
        io.kbench.protocol.HeapNeed.Buffers huge = HeapCheck.buffers(PROFILE.with(Map.of("producer.buffer.memory",
                String.valueOf(Long.MAX_VALUE))), io.kbench.coordinator.workload.Workload.of("w", Map.of("topics", 1,
                "durationSeconds", 10)));
        UserException e = assertThrows(UserException.class, () -> HeapCheck.check(plan, List.of(id("w", "c", 6 * GB)),
                huge));
        assertTrue(e.getMessage().contains("2 producer(s) and 1 consumer(s) can need 8.0 EB ("), e.getMessage());
    }
}
