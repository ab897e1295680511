package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kbench.driver.NanoClock;
import org.junit.jupiter.api.Test;

/** Each message's processing time: its mean and spread by distribution, and the wait on a manual clock. */
class ProcessingTest {
    private long now;
    private final NanoClock clock = new NanoClock() {
        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void park(long nanos) {
            now += Math.min(nanos, 700_000); // parks return early: the wait goes on until the time is up
        }
    };

    private static double[] meanAndMax(Processing p, int n) {
        double sum = 0;
        double max = 0;
        for (int i = 0; i < n; i++) {
            long v = p.nextNanos();
            assertTrue(v >= 0 && v <= Processing.MAX_NANOS, "a time out of range: " + v);
            sum += v;
            max = Math.max(max, v);
        }
        return new double[] {sum / n, max};
    }

    @Test
    void drawsAroundTheMeanAsTheDistributionSays() {
        double[] fixed = meanAndMax(new Processing(2_000, Processing.Distribution.FIXED, 1), 1_000);
        assertEquals(2_000_000, fixed[0], 0);
        assertEquals(2_000_000, fixed[1], 0);
        double[] uniform = meanAndMax(new Processing(2_000, Processing.Distribution.UNIFORM, 2), 100_000);
        assertEquals(2_000_000, uniform[0], 2_000_000 * 0.01, "the mean within 1% over 100,000 draws");
        assertTrue(uniform[1] < 4_000_000 && uniform[1] > 3_990_000, "up to twice the mean: " + uniform[1]);
        double[] exp = meanAndMax(new Processing(2_000, Processing.Distribution.EXPONENTIAL, 3), 100_000);
        assertEquals(2_000_000, exp[0], 2_000_000 * 0.02, "the mean within 2% over 100,000 draws");
        assertTrue(exp[1] > 8 * 2_000_000, "a long tail: the largest of 100,000 is about 11.5x the mean: " + exp[1]);
        double[] capped = meanAndMax(new Processing(50_000_000, Processing.Distribution.EXPONENTIAL, 4), 1_000);
        assertEquals(Processing.MAX_NANOS, capped[1], 0, "each at most a minute");
    }

    @Test
    void theSameSeedDrawsTheSameTimes() {
        Processing a = new Processing(1_000, Processing.Distribution.EXPONENTIAL, 42);
        Processing b = new Processing(1_000, Processing.Distribution.EXPONENTIAL, 42);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.nextNanos(), b.nextNanos());
        }
    }

    @Test
    void waitsTheWholeTimeThoughAParkReturnsEarly() {
        new Processing(2_000, Processing.Distribution.FIXED, 1).process(clock);
        assertEquals(2_000_000, now, 700_000, "at most one park past the time");
        assertTrue(now >= 2_000_000);
        long before = now;
        Processing.NONE.process(clock);
        assertEquals(before, now, "no processing: no wait");
    }

    @Test
    void refusesATimeOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new Processing(-1, Processing.Distribution.FIXED, 1));
        assertThrows(IllegalArgumentException.class, () -> new Processing(60_000_001, Processing.Distribution.FIXED, 1));
    }
}
