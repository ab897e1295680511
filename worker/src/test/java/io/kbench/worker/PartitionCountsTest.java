package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PartitionCountsTest {
    @Test
    void shouldCountByPartitionGrowingToTheHighestSeen() {
        PartitionCounts c = new PartitionCounts();
        assertArrayEquals(new long[0], c.get());
        c.add(2);
        c.add(0);
        c.add(2);
        assertArrayEquals(new long[] {1, 0, 2}, c.get());
        c.add(5);
        c.add(1);
        assertArrayEquals(new long[] {1, 1, 2, 0, 0, 1}, c.get(), "the counts before growing are kept");
    }

    @Test
    void shouldNotCountAPartitionItCannotHold() {
        PartitionCounts c = new PartitionCounts();
        c.add(-1); // a driver that does not know the partition
        c.add(io.kbench.protocol.PartitionAcks.MAX_PARTITIONS);
        c.add(Integer.MAX_VALUE);
        assertArrayEquals(new long[0], c.get());
        c.add(0);
        c.add(-1);
        assertArrayEquals(new long[] {1}, c.get());
    }

    @Test
    void shouldCountEveryAckOfTheProducer() {
        ProducerMetrics m = new ProducerMetrics(io.kbench.driver.NanoClock.SYSTEM, new ErrorSlot());
        for (int i = 0; i < 10; i++) {
            m.onAck(0, 0, 100, i % 3);
        }
        assertArrayEquals(new long[] {4, 3, 3}, m.partitions.get());
        assertEquals(10, m.acked.get());
    }
}
