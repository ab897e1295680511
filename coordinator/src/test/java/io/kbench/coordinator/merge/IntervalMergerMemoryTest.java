package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The merger's memory is bounded by the run's shape (workers, metrics), not its length: what it retains
 * after merging 10,000 intervals from 8 workers is what it retains after 10.
 */
class IntervalMergerMemoryTest {
    private static final int WORKERS = 8;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    @Test
    void shouldRetainTheSameHeapAfter10000IntervalsAsAfter10() {
        // a handful of realistic encoded histograms, reused so the test spends its time merging
        Random random = new Random(42);
        byte[][] encoded = new byte[16][];
        for (int i = 0; i < encoded.length; i++) {
            Histogram h = LatencyHistograms.create();
            for (int k = 0; k < 2_000; k++) {
                h.recordValue((long) Math.exp(random.nextDouble() * Math.log(1e6)));
            }
            encoded[i] = LatencyHistograms.encode(h);
        }
        long tenRetained = retained(10, encoded);
        long manyRetained = retained(10_000, encoded);
        System.out.printf("merger retained after GC: %,d bytes after 10 intervals, %,d after 10,000 (8 workers)%n",
                tenRetained, manyRetained);
        assertTrue(tenRetained > 0, "the measurement saw the merger");
        assertTrue(Math.abs(manyRetained - tenRetained) <= tenRetained / 10,
                "retained " + manyRetained + " bytes after 10,000 intervals, " + tenRetained + " after 10");
    }

    /** Heap still in use after a full GC while a merger that merged {@code intervals} intervals is alive. */
    private static long retained(int intervals, byte[][] encoded) {
        long before = usedAfterGc();
        IntervalMerger merger = merge(intervals, encoded);
        long after = usedAfterGc();
        assertEquals((long) intervals * WORKERS * 100, merger.totals().acked());
        assertTrue(merger.issues().isEmpty(), merger.issues().toString());
        return after - before;
    }

    private static IntervalMerger merge(int intervals, byte[][] encoded) {
        List<String> ids = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            ids.add("w" + w);
        }
        IntervalMerger merger = new IntervalMerger(ids, SummaryHistograms.from(0));
        int emitted = 0;
        for (int i = 0; i < intervals; i++) {
            for (int w = 0; w < WORKERS; w++) {
                byte[] e = encoded[(i * WORKERS + w) % encoded.length];
                byte[] none = new byte[0]; // the other metrics empty: the test's time goes to intervals, not decoding
                emitted += merger.add(new IntervalSnapshot("w" + w, i, i * 1_000_000L, (i + 1) * 1_000_000L,
                        new Counters(100, 100, 0, 10_000, 100, 10_000, 0, 0), e, none, none, none, none, true, 0, 0,
                        i == intervals - 1, "")).size();
            }
        }
        assertEquals(intervals, emitted);
        return merger;
    }

    private static long usedAfterGc() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            min = Math.min(min, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return min;
    }
}
