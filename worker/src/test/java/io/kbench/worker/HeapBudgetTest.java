package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.driver.DriverConfig;
import io.kbench.protocol.HeapNeed;
import org.junit.jupiter.api.Test;

/** The heap a worker's share takes at the least, against its JVM's, before any client is built. */
class HeapBudgetTest {
    private static final long GB = 1L << 30;

    /** Producer settings whose batches take nothing: the recorders' and clients' count alone. */
    private static final Map<String, String> NO_BATCHES = Map.of("buffer.memory", "0", "batch.size", "0",
            "delivery.timeout.ms", "0");

    /** Consumer settings whose fetches take nothing. */
    private static final Map<String, String> NO_FETCHES = Map.of("max.partition.fetch.bytes", "0");

    static RunSpec spec(String runId, int paced, int unthrottled, int consumers, int shareConsumers) {
        return spec(runId, paced, unthrottled, consumers, shareConsumers, NO_BATCHES, List.of());
    }

    static RunSpec spec(String runId, int paced, int unthrottled, int consumers, int shareConsumers,
                        Map<String, String> producerSettings, List<io.kbench.driver.TopicSpec> created) {
        List<RunSpec.Producer> producers = new ArrayList<>();
        for (int i = 0; i < paced + unthrottled; i++) {
            producers.add(new RunSpec.Producer(i, "t", i < paced ? 10 : -1, 0));
        }
        List<RunSpec.Consumer> cs = new ArrayList<>();
        for (int i = 0; i < consumers + shareConsumers; i++) {
            cs.add(new RunSpec.Consumer(i, "t", i < consumers ? "g" : "s", i >= consumers));
        }
        return new RunSpec(runId, "coord:1", "wl", 0, "fake", new DriverConfig(Map.of(), producerSettings,
                producerSettings == NO_BATCHES ? NO_FETCHES : Map.of(), Map.of()), created, List.of(), producers, cs, 1_000_000, RunSpec.Values.generated(100, 0), RunSpec.KeyChoice.NONE,
                RunSpec.ConsumerStart.AT_END, RunSpec.Transactions.NONE, false, true, "digest-" + runId, false, List.of(),
                RunSpec.Share.NONE, RunSpec.ConsumerWork.NONE, false);
    }

    @Test
    void shouldCountEachRolesRecordersAndClient() {
        long r = HeapNeed.RECORDER_BYTES;
        assertEquals(188_416, r, "two arrays of 23,552 ints");
        assertEquals(6 * r + HeapNeed.PRODUCER_CLIENT_BYTES, HeapBudget.need(spec("a", 1, 0, 0, 0)).bytes());
        assertEquals(2 * r + HeapNeed.PRODUCER_CLIENT_BYTES, HeapBudget.need(spec("a", 0, 1, 0, 0)).bytes());
        assertEquals(2 * r + HeapNeed.CONSUMER_CLIENT_BYTES, HeapBudget.need(spec("a", 0, 0, 1, 0)).bytes());
        assertEquals(4 * r + HeapNeed.CONSUMER_CLIENT_BYTES, HeapBudget.need(spec("a", 0, 0, 0, 1)).bytes());
        assertEquals(new HeapNeed(2, 3, 4, 5), HeapBudget.need(spec("a", 2, 3, 4, 5)));
        assertEquals(0, HeapBudget.need(spec("a", 0, 0, 0, 0)).bytes());
    }

    /**
     * 3,000 paced producers (what exhausted a 6-GB heap before the recorders and completion rings shrank) fit in it
     * now; 10,000 do not, and are refused in one line that says what they need, what the JVM has and what to do.
     */
    @Test
    void shouldRefuseAShareTheHeapCannotHoldAndSayWhatItNeeds() {
        try (HeapBudget.Reservation fits = HeapBudget.reserve(spec("a", 3_000, 0, 0, 0), 6 * GB)) {
            assertTrue(fits != null);
        }
        WorkerException e = assertThrows(WorkerException.class,
                () -> HeapBudget.reserve(spec("b", 10_000, 0, 2, 0), 6 * GB));
        assertEquals(WorkerException.Kind.INVALID, e.kind());
        assertEquals("its share of the run does not fit its heap: 10,000 producer(s) and 2 consumer(s) can need "
                + "14.3 GB (latency recorders and Kafka clients: 1.5 MB a paced producer, 0.8 MB an unthrottled "
                + "one, 0.7 MB a consumer, 1.0 MB a share consumer), more than 85% of the 6.0 GB its JVM may use; spread "
                + "the clients over more `kbench worker` processes (--workers), or give the JVM more heap "
                + "(KBENCH_JAVA_OPTS=-Xmx...)", e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    /** In-process workers share a JVM: what one holds counts against the next, and comes back when its run ends. */
    @Test
    void shouldCountTheJvmsOtherWorkersUntilTheirRunsEnd() {
        RunSpec half = spec("a", 1_800, 0, 0, 0); // 2.6 GB of 6 GB
        HeapBudget.Reservation first = HeapBudget.reserve(half, 6 * GB);
        WorkerException e = assertThrows(WorkerException.class, () -> HeapBudget.reserve(half, 6 * GB));
        assertTrue(e.getMessage().contains(", besides the 2.6 GB this JVM's other in-process workers hold,"),
                e.getMessage());
        first.close();
        first.close(); // once only
        HeapBudget.reserve(half, 6 * GB).close();
    }

    /** An unthrottled producer's pool fills to buffer.memory; a paced one holds its records of delivery.timeout.ms. */
    @Test
    void shouldCountTheProducersBatches() {
        List<io.kbench.driver.TopicSpec> sixPartitions = List.of(new io.kbench.driver.TopicSpec("t", 6, 1, Map.of()));
        HeapNeed unthrottled = HeapBudget.need(spec("a", 0, 2, 0, 0, Map.of(), sixPartitions));
        assertEquals(2L * (32 << 20), unthrottled.producerBatches(), "Kafka's default buffer.memory each");
        HeapNeed paced = HeapBudget.need(spec("a", 3, 0, 0, 0, Map.of("delivery.timeout.ms", "30000"), sixPartitions));
        assertEquals(3L * (10 * 170 * 30 + 6 * 16_384), paced.producerBatches(),
                "10 msg/s of 100-byte values (170 bytes a record) for 30 s, and a batch per partition");
        assertEquals(2L * (1 << 20), HeapBudget.need(spec("a", 0, 2, 0, 0, Map.of("buffer.memory", "1048576"),
                sixPartitions)).producerBatches());
        WorkerException e = assertThrows(WorkerException.class,
                () -> HeapBudget.reserve(spec("c", 0, 100, 0, 0, Map.of(), sixPartitions), GB));
        assertTrue(e.getMessage().contains("besides, up to 3.1 GB of producer batches"), e.getMessage());
    }

    /** The worker counts a consumer's fetches at one partition (how its group splits is the coordinator's to count). */
    @Test
    void shouldCountAConsumersFetchesAtOnePartitionAtTheLeast() {
        assertEquals(3L * 2 * (1 << 20), HeapBudget.need(spec("a", 0, 0, 3, 0, Map.of(), List.of())).consumerFetches());
    }
}
