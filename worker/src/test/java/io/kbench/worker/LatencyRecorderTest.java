package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
