package io.kbench.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Adding an encoding in place is exactly adding its decoded histogram, for every shape of content. */
class HistogramDecoderTest {
    private static Histogram random(Random r, int samples, double median) {
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < samples; i++) {
            h.recordValue(LatencyHistograms.clamp(Math.max(0, (long) (median * Math.exp(2 * r.nextGaussian())))));
        }
        return h;
    }

    @Test
    void shouldAddExactlyWhatTheLibrarysDecodeAdds() {
        Random r = new Random(3);
        HistogramDecoder decoder = new HistogramDecoder();
        Histogram inPlace = LatencyHistograms.create();
        Histogram viaLibrary = LatencyHistograms.create();
        for (int round = 0; round < 300; round++) {
            Histogram h = switch (round % 6) {
                case 0 -> LatencyHistograms.create(); // empty
                case 1 -> random(r, 1, 1);
                case 2 -> random(r, 5_000, 5_000);
                case 3 -> random(r, 200, 3_000_000); // seconds
                case 4 -> { // the edges: 0, 1, the range's top, a big count in one bucket
                    Histogram e = LatencyHistograms.create();
                    e.recordValue(0);
                    e.recordValue(1);
                    e.recordValueWithCount(2047, 1_000_000_000_000L);
                    e.recordValue(2048);
                    e.recordValue(LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
                    yield e;
                }
                default -> random(r, 100_000, 200);
            };
            byte[] bytes = LatencyHistograms.encode(h);
            long max = decoder.addInto(inPlace, bytes);
            Histogram decoded = LatencyHistograms.decode(bytes);
            viaLibrary.add(decoded);
            assertEquals(decoded.getTotalCount() == 0 ? 0 : decoded.getMaxValue(), max, "round " + round + "'s maximum");
            assertEquals(viaLibrary, inPlace, "after round " + round);
            assertEquals(viaLibrary.getTotalCount(), inPlace.getTotalCount());
            assertEquals(viaLibrary.getMaxValue(), inPlace.getMaxValue());
            assertEquals(viaLibrary.getMinNonZeroValue(), inPlace.getMinNonZeroValue());
        }
        decoder.addInto(inPlace, new byte[0]);
        assertEquals(viaLibrary, inPlace, "an empty encoding adds nothing");
    }

    @Test
    void shouldMapEveryBucketIndexToTheLibrarysValue() {
        Histogram h = LatencyHistograms.create();
        for (long v : new long[] {0, 1, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 1_000_000, 3_599_999_999L}) {
            long lowest = h.lowestEquivalentValue(v);
            Histogram one = LatencyHistograms.create();
            one.recordValue(v);
            Histogram back = LatencyHistograms.create();
            new HistogramDecoder().addInto(back, LatencyHistograms.encode(one));
            assertEquals(lowest, back.getMinValue(), "value " + v);
            assertEquals(one, back);
        }
    }

    @Test
    void shouldTakeTheLibrarysPathForOtherShapesAndRefuseCorruptBytes() {
        HistogramDecoder decoder = new HistogramDecoder();
        Histogram coarse = new Histogram(1, LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
        coarse.recordValue(5_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> decoder.addInto(LatencyHistograms.create(), LatencyHistograms.encode(coarse)));
        assertTrue(e.getMessage().startsWith("a histogram of another shape"), e.getMessage());
        Histogram wide = new Histogram(1, 100L * LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 3);
        wide.recordValue(50L * LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        e = assertThrows(IllegalArgumentException.class,
                () -> decoder.addInto(LatencyHistograms.create(), LatencyHistograms.encode(wide)));
        assertTrue(e.getMessage().startsWith("a histogram of another shape"), e.getMessage());
        byte[] good = LatencyHistograms.encode(random(new Random(1), 1000, 5000));
        for (int cut : new int[] {3, 8, 20, good.length - 1}) {
            byte[] truncated = java.util.Arrays.copyOf(good, cut);
            e = assertThrows(IllegalArgumentException.class, () -> decoder.addInto(LatencyHistograms.create(), truncated),
                    "cut at " + cut);
            assertTrue(e.getMessage().contains("not a compressed HdrHistogram"), e.getMessage());
        }
        byte[] flipped = good.clone();
        flipped[12] ^= 0x5a;
        assertThrows(IllegalArgumentException.class, () -> decoder.addInto(LatencyHistograms.create(), flipped));
        // after refusing, the same decoder still adds good input exactly
        Histogram target = LatencyHistograms.create();
        decoder.addInto(target, good);
        assertEquals(LatencyHistograms.decode(good), target);
    }
}
