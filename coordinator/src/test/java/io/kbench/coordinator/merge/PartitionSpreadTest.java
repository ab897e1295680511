package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.protocol.PartitionAcks;
import org.junit.jupiter.api.Test;

class PartitionSpreadTest {
    @Test
    void shouldAddTheWorkersUpAndPadEachTopicToItsPartitions() {
        PartitionSpread s = new PartitionSpread();
        s.add(List.of(new PartitionAcks("a", new long[] {10, 30}), new PartitionAcks("b", new long[] {5, 5, 5, 5})));
        s.add(List.of(new PartitionAcks("a", new long[] {10, 30, 0, 20})));
        s.add(List.of()); // a worker without producers
        PartitionSpread.Result r = s.result(Map.of("a", 6, "b", 4));
        assertEquals(2, r.workers());
        assertArrayEquals(new long[] {20, 60, 0, 20, 0, 0}, r.acked().get("a"), "every partition, 0 for none");
        assertArrayEquals(new long[] {5, 5, 5, 5}, r.acked().get("b"));
        // a: 60 of 100 over 6 partitions is 3.6x an even share; b is even
        assertEquals("a", r.topic());
        assertEquals(1, r.partition());
        assertEquals(60, r.busiestAcked());
        assertEquals(0.6, r.share(), 1e-12);
        assertEquals(6, r.partitions());
        assertEquals(3.6, r.skew(), 1e-12);
        assertTrue(r.hot());
    }

    @Test
    void shouldCallAnEvenSpreadAndASinglePartitionNotHot() {
        PartitionSpread even = new PartitionSpread();
        even.add(List.of(new PartitionAcks("a", new long[] {100, 104, 98})));
        PartitionSpread.Result r = even.result(Map.of("a", 3));
        assertEquals(1, r.partition());
        assertEquals(104 * 3 / 302.0, r.skew(), 1e-12);
        assertFalse(r.hot());

        PartitionSpread one = new PartitionSpread();
        one.add(List.of(new PartitionAcks("a", new long[] {100})));
        assertFalse(one.result(Map.of("a", 1)).hot(), "one partition takes everything by definition");
    }

    @Test
    void shouldHaveNothingToSayWithoutCountsOrAcknowledgements() {
        assertNull(new PartitionSpread().result(Map.of("a", 3)), "no worker sent counts");
        PartitionSpread none = new PartitionSpread();
        none.add(List.of(new PartitionAcks("a", new long[] {0, 0})));
        assertNull(none.result(Map.of("a", 3)), "nothing acknowledged");
    }

    @Test
    void shouldKeepAtMostItsBoundOfCounts() {
        PartitionSpread s = new PartitionSpread();
        int big = PartitionAcks.MAX_PARTITIONS;
        long[] counts = new long[big];
        counts[0] = 1;
        for (int t = 0; t < 5; t++) {
            s.add(List.of(new PartitionAcks("t" + t, counts)));
        }
        PartitionSpread.Result r = s.result(Map.of());
        assertEquals(PartitionSpread.MAX_CELLS / big, r.acked().size(), "the topics past the bound are left out");
        assertTrue(r.acked().values().stream().mapToLong(a -> a.length).sum() <= PartitionSpread.MAX_CELLS);
    }
}
