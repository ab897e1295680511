package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The brokers' bytes in against what kbench acknowledged, with the figures of real runs. */
class BrokerCrossCheckTest {
    private static final double MB = 1024 * 1024;

    @Test
    void shouldAgreeOnRealRunsFiguresAndSaySoWhenTheyDisagree() {
        // BrokerMetricsIT: 2,000 msg/s x 1,000-byte values, the broker took in 1.92 MB/s
        assertNull(BrokerCrossCheck.check(1.92 * MB, true, 2_000_000, 2_000, Double.NaN, 60, 0.01));
        // DiagnosisIT's generator run: 10-byte values, 4.66 MB/s acknowledged, 22.5 MB/s in (about 40 B of record
        // and batch headers per record)
        assertNull(BrokerCrossCheck.check(22.5 * MB, true, 4.66 * MB, 466_000, 1.0, 60, 0.01));
        // compressed to 30%: the brokers see compressed bytes
        assertNull(BrokerCrossCheck.check(0.62 * MB, true, 2_000_000, 2_000, 0.3, 60, 0.01));
        String low = BrokerCrossCheck.check(1.0 * MB, true, 2_000_000, 2_000, Double.NaN, 60, 0.01);
        assertTrue(low != null && low.contains("the brokers saw less than kbench counts"), low);
        String high = BrokerCrossCheck.check(4.0 * MB, true, 2_000_000, 2_000, Double.NaN, 60, 0.01);
        assertTrue(high != null && high.contains("someone else writes to these brokers too"), high);
    }

    @Test
    void shouldNotCompareWhatCannotBeCompared() {
        assertNull(BrokerCrossCheck.check(1.0 * MB, false, 2_000_000, 2_000, Double.NaN, 60, 0.01), "not every broker read");
        assertNull(BrokerCrossCheck.check(Double.NaN, true, 2_000_000, 2_000, Double.NaN, 60, 0.01), "no bytes-in figure");
        assertNull(BrokerCrossCheck.check(1.0 * MB, true, 0, 0, Double.NaN, 60, 0.01), "nothing acknowledged");
    }

    @Test
    void shouldWidenTheBoundsByWhatTheWindowsEdgesMakeUncertain() {
        // a 1-s quickstart run (2026-11-27): 5,000 records of 1 KB acknowledged (4.85 MB/s), the longest publish
        // latency 133 ms, the broker read 4.06 MB/s over its interval: records near the edges counted by one side only
        assertNull(BrokerCrossCheck.check(4.06 * MB, true, 4.85 * MB, 5_000, Double.NaN, 1.0, 0.133));
        // the same figures over a minute are a real disagreement
        String minute = BrokerCrossCheck.check(4.06 * MB, true, 4.85 * MB, 5_000, Double.NaN, 60, 0.133);
        assertTrue(minute != null && minute.contains("saw less than kbench counts") && minute.contains("1% wider for the "
                + "window's edges"), minute);
        assertEquals((0.133 + 0.5) / 60, BrokerCrossCheck.edgeShare(60, 0.133), 1e-12);
        assertEquals(1.0, BrokerCrossCheck.edgeShare(0.5, 0.2), "at most the whole window");
        assertEquals(0.5 / 10, BrokerCrossCheck.edgeShare(10, Double.NaN), 1e-12, "no latency: the read lag alone");
        assertNull(BrokerCrossCheck.check(1.0 * MB, true, 2_000_000, 2_000, Double.NaN, 0, 0.01), "no window");
    }
}
