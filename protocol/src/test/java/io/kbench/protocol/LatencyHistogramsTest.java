package io.kbench.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The shape's counts-array layout, against HdrHistogram's own. */
class LatencyHistogramsTest {

    /**
     * Counts are indexed as HdrHistogram indexes kbench's shape: every index's lowest value is a bucket's lowest
     * equivalent value, it indexes back to itself, and the bucket's highest value too; the next index starts where
     * HdrHistogram's next bucket does. So a value moved by index (a worker's recorders, the decoder) lands in the bucket
     * it was recorded in.
     */
    @Test
    void shouldIndexEveryBucketAsHdrHistogramDoes() {
        Histogram shape = LatencyHistograms.create();
        int last = LatencyHistograms.countsIndex(LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        assertTrue(last < LatencyHistograms.COUNTS_LENGTH, "the range's top fits: " + last);
        for (int i = 0; i <= last; i++) {
            long v = LatencyHistograms.valueAtIndex(i);
            assertEquals(v, shape.lowestEquivalentValue(v), "index " + i);
            assertEquals(i, LatencyHistograms.countsIndex(v), "value " + v);
            assertEquals(i, LatencyHistograms.countsIndex(shape.highestEquivalentValue(v)), "top of index " + i);
            if (i < last) {
                assertEquals(shape.nextNonEquivalentValue(v), LatencyHistograms.valueAtIndex(i + 1), "after index " + i);
            }
        }
        assertEquals(0, LatencyHistograms.countsIndex(0));
    }
}
