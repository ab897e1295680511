package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The brokers' bytes in against what kbench acknowledged, with the figures of real runs. */
class BrokerCrossCheckTest {
    private static final double MB = 1024 * 1024;

    @Test
    void shouldAgreeOnRealRunsFiguresAndSaySoWhenTheyDisagree() {
        // BrokerMetricsIT: 2,000 msg/s x 1,000-byte values, the broker took in 1.92 MB/s
        assertNull(BrokerCrossCheck.check(1.92 * MB, true, 2_000_000, 2_000, Double.NaN));
        // DiagnosisIT's generator run: 10-byte values, 4.66 MB/s acknowledged, 22.5 MB/s in (about 40 B of record
        // and batch headers per record)
        assertNull(BrokerCrossCheck.check(22.5 * MB, true, 4.66 * MB, 466_000, 1.0));
        // compressed to 30%: the brokers see compressed bytes
        assertNull(BrokerCrossCheck.check(0.62 * MB, true, 2_000_000, 2_000, 0.3));
        String low = BrokerCrossCheck.check(1.0 * MB, true, 2_000_000, 2_000, Double.NaN);
        assertTrue(low != null && low.contains("the brokers saw less than kbench counts"), low);
        String high = BrokerCrossCheck.check(4.0 * MB, true, 2_000_000, 2_000, Double.NaN);
        assertTrue(high != null && high.contains("someone else writes to these brokers too"), high);
    }

    @Test
    void shouldNotCompareWhatCannotBeCompared() {
        assertNull(BrokerCrossCheck.check(1.0 * MB, false, 2_000_000, 2_000, Double.NaN), "not every broker read");
        assertNull(BrokerCrossCheck.check(Double.NaN, true, 2_000_000, 2_000, Double.NaN), "no bytes-in figure");
        assertNull(BrokerCrossCheck.check(1.0 * MB, true, 0, 0, Double.NaN), "nothing acknowledged");
    }
}
