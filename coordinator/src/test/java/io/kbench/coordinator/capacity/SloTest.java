package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;

class SloTest {
    @Test
    void shouldReadTheIssuesExamplesAndEveryQuantileSpelling() {
        Slo a = Slo.parse("publishResponse.p99<=50ms");
        assertEquals(Metric.PUBLISH_RESPONSE, a.metric());
        assertEquals(99.0, a.percentile());
        assertEquals(50_000, a.limitMicros());
        Slo b = Slo.parse(" endToEnd.p999 <= 200ms ");
        assertEquals(Metric.END_TO_END, b.metric());
        assertEquals(99.9, b.percentile(), 1e-9);
        assertEquals("endToEnd.p999<=200ms", b.text());
        assertEquals(99.9, Slo.parse("endToEnd.p99.9<=1s").percentile(), 1e-9);
        assertEquals(1_000_000, Slo.parse("endToEnd.p99.9<=1s").limitMicros());
        assertEquals(99.99, Slo.parse("publishLatency.p9999<=500us").percentile(), 1e-9);
        assertEquals(500, Slo.parse("publishLatency.p9999<=500us").limitMicros());
        assertEquals(50.0, Slo.parse("publishDelay.p50<=0.5ms").percentile());
        assertEquals(500, Slo.parse("publishDelay.p50<=0.5ms").limitMicros());
        assertEquals(100.0, Slo.parse("transactionCommit.max<=2s").percentile());
        assertEquals(100.0, Slo.parse("transactionCommit.p100<=2s").percentile());
        assertEquals(99.5, Slo.parse("endToEnd.p995<=2s").percentile(), 1e-9);
        assertEquals(99.95, Slo.parse("publishLatency.p9995<=2ms").percentile(), 1e-9);
        assertEquals(49_999, Slo.parse("publishLatency.p99<50ms").limitMicros(), "< is strictly below");
    }

    @Test
    void shouldRefuseWithOneLineSayingWhatIsAllowed() {
        String[][] bad = {
            {"", "not METRIC.QUANTILE<=VALUE"},
            {"p99<=50ms", "not METRIC.QUANTILE<=VALUE"},
            {"latency.p99<=50ms", "unknown metric 'latency'; allowed: endToEnd, publishDelay"},
            {"endToEnd.p99>=50ms", "not METRIC.QUANTILE<=VALUE"},
            {"endToEnd.p99<=50", "give the limit's unit"},
            {"endToEnd.p0<=50ms", "unknown quantile p0; write"},
            {"endToEnd.p950<=50ms", "unknown quantile p950"},
            {"endToEnd.p101<=50ms", "unknown quantile p101"},
            {"endToEnd.p99<=-5ms", "not METRIC.QUANTILE<=VALUE"},
            {"endToEnd.p99<=0ms", "the limit must be 1 µs to 1 hour"},
            {"endToEnd.p99<=99999999999s", "the limit must be 1 µs to 1 hour"},
            {"endToEnd.p99<=5 minutes", "not METRIC.QUANTILE<=VALUE"},
        };
        for (String[] c : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Slo.parse(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
            assertTrue(e.getMessage().startsWith("--slo '"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"));
        }
    }
}
