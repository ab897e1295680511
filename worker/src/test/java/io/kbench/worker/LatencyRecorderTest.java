package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void shouldClampValuesAboveTheRangeAndCountThem() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(5);
        r.record(LatencyHistograms.HIGHEST_TRACKABLE_MICROS * 10);
        Histogram h = LatencyHistograms.create();
        r.addIntervalTo(h);
        assertEquals(2, h.getTotalCount(), "a clamped value is recorded, not dropped");
        assertEquals(1, r.clamped());
        assertEquals(true, h.valuesAreEquivalent(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, h.getMaxValue()));
    }

    @Test
    void shouldRecordNegativeValuesAsZeroAndCountThem() {
        LatencyRecorder r = new LatencyRecorder();
        r.record(-300);
        Histogram h = LatencyHistograms.create();
        r.addIntervalTo(h);
        assertEquals(1, h.getTotalCount());
        assertEquals(0, h.getMaxValue());
        assertEquals(1, r.negative());
    }

    @Test
    void shouldPutEachSampleInExactlyOneInterval() {
        LatencyRecorder r = new LatencyRecorder();
        Histogram first = LatencyHistograms.create();
        Histogram second = LatencyHistograms.create();
        r.record(10);
        r.addIntervalTo(first);
        r.record(20);
        r.record(30);
        r.addIntervalTo(second);
        assertEquals(1, first.getTotalCount());
        assertEquals(2, second.getTotalCount());
    }

    /** A recorder harvested before it is written harvests nothing, then each interval's samples in their interval. */
    @Test
    void shouldHarvestNothingUntilWrittenAndThenEachIntervalsSamples() {
        LatencyRecorder r = new LatencyRecorder();
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < 3; i++) {
            r.addIntervalTo(h);
        }
        assertEquals(0, h.getTotalCount());
        for (int interval = 1; interval <= 4; interval++) {
            for (int i = 0; i < interval; i++) {
                r.record(1_000L * interval);
            }
            Histogram got = LatencyHistograms.create();
            r.addIntervalTo(got);
            assertEquals(interval, got.getTotalCount());
            assertEquals(1_000L * interval, got.getMaxValue(), interval);
        }
    }

    /** What the recorder harvests is what HdrHistogram would have recorded, count for count, interval by interval. */
    @Test
    void shouldHarvestExactlyWhatAHistogramOfTheShapeRecords() {
        java.util.Random random = new java.util.Random(42);
        LatencyRecorder r = new LatencyRecorder();
        for (int interval = 0; interval < 20; interval++) {
            Histogram expected = LatencyHistograms.create();
            int samples = interval % 5 == 0 ? 0 : random.nextInt(5_000);
            int magnitude = 1 + random.nextInt(32); // some intervals of small values, some up to and past the range
            for (int k = 0; k < samples; k++) {
                long v = (random.nextLong() >>> 1) % (1L << magnitude);
                r.record(v);
                expected.recordValue(LatencyHistograms.clamp(v));
            }
            Histogram got = LatencyHistograms.create();
            Histogram also = LatencyHistograms.create();
            also.recordValue(7); // added to, not replaced
            r.addIntervalTo(got, also);
            assertEquals(expected, got, "interval " + interval);
            assertEquals(expected.getTotalCount() + 1, also.getTotalCount());
            assertEquals(expected.getMaxValue(), got.getMaxValue());
            assertEquals(expected.getValueAtPercentile(99.9), got.getValueAtPercentile(99.9));
        }
        Histogram empty = LatencyHistograms.create();
        r.addIntervalTo(empty);
        assertEquals(0, empty.getTotalCount(), "each sample once");
    }

    /** A writer recording while the snapshot thread harvests: every sample in exactly one harvest, none lost. */
    @Test
    void shouldLoseNoSampleToAConcurrentHarvest() throws Exception {
        LatencyRecorder r = new LatencyRecorder();
        int n = 2_000_000;
        Thread writer = new Thread(() -> {
            for (int k = 0; k < n; k++) {
                r.record(k % 100_000);
            }
        });
        writer.start();
        Histogram all = LatencyHistograms.create();
        int harvests = 0;
        while (writer.isAlive()) {
            r.addIntervalTo(all);
            harvests++;
        }
        writer.join();
        r.addIntervalTo(all);
        assertEquals(n, all.getTotalCount(), harvests + " harvests");
        assertEquals(n / 100_000, all.getCountAtValue(1_234), "a value of unit resolution: recorded 20 times");
    }
}
