package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The interval's figures from two recorded readings of a broker's running totals. */
class BrokerScraperTest {
    private static Map<String, Double> reading(double seconds) {
        Map<String, Double> r = new HashMap<>();
        r.put("bytesInPerSec.count", 1e9 + 5e6 * seconds);
        r.put("messagesInPerSec.count", 1e6 + 5e3 * seconds);
        r.put("Produce.requests.count", 20_000 + 300 * seconds);
        // 4 handler threads idle 3/4 of the time: the meter counts idle ns per thread
        r.put("handlerIdle.count", 0.75e9 * seconds);
        r.put("networkIdle", 0.4);
        r.put("urp", 2.0);
        r.put("underMinIsr", 1.0);
        r.put("isrShrinks.count", 7.0);
        r.put("cpu.nanos", 1.5e9 * seconds);
        r.put("cpu.processors", 2.0);
        r.put("heap.used", 3e8);
        return r;
    }

    @Test
    void shouldTurnRunningTotalsIntoTheIntervalsFigures() {
        Map<String, Double> before = reading(100);
        Map<String, Double> now = reading(102);
        // 300 produce requests in the interval: 100 before it (mean 2 ms), then 400 in all with mean 2.75 ms
        before.put("Produce.TotalTimeMs.count", 100.0);
        before.put("Produce.TotalTimeMs.mean", 2.0);
        now.put("Produce.TotalTimeMs.count", 400.0);
        now.put("Produce.TotalTimeMs.mean", 2.75);
        now.put("Produce.TotalTimeMs.p99", 9.0);
        now.put("isrShrinks.count", 9.0);
        Map<String, Double> f = BrokerScraper.figures(before, now, 2.0);
        assertEquals(5e6, f.get("bytesInPerSec"), 1e-6);
        assertEquals(5e3, f.get("messagesInPerSec"), 1e-6);
        assertEquals(300, f.get("produceRequestsPerSec"), 1e-9);
        assertEquals(0.75, f.get("requestHandlerIdle"), 1e-9);
        assertEquals(0.4, f.get("networkProcessorIdle"), "a gauge as read");
        assertEquals(3.0, f.get("produceTotalTimeMsMean"), 1e-9, "(400 x 2.75 - 100 x 2) / 300: the interval's own mean");
        assertEquals(9.0, f.get("produceTotalTimeMsP99"), "the broker's own reservoir p99");
        assertEquals(2.0, f.get("isrShrinks"), "in the interval");
        assertEquals(0.75, f.get("processCpu"), 1e-9, "1.5 cores of 2");
        assertEquals(2.0, f.get("underReplicatedPartitions"));
        assertEquals(1.0, f.get("underMinIsrPartitions"));
        assertFalse(f.containsKey("replicationBytesInPerSec"), "what the source does not give is absent");
    }

    @Test
    void shouldTakeTheMeanOfSeveralPoolsThatMarkOneSharedIdleMeter() {
        // 3 embedded brokers in one JVM mark one meter: idle 40%, 50% and 60% of the time add up to 1.5 s a second
        Map<String, Double> before = reading(100);
        Map<String, Double> now = reading(102);
        before.put("handlerIdle.count", 1e11);
        now.put("handlerIdle.count", 1e11 + 1.5e9 * 2);
        now.put("handlerIdle.pools", 3.0);
        assertEquals(0.5, BrokerScraper.figures(before, now, 2.0).get("requestHandlerIdle"), 1e-9,
                "their mean, not 150% capped at 100%");
        now.remove("handlerIdle.pools");
        assertEquals(1.0, BrokerScraper.figures(before, now, 2.0).get("requestHandlerIdle"), 1e-9,
                "one pool (a broker of its own): capped at all idle");
    }

    @Test
    void shouldTakeTheNetworkThreadsIdleFromTheirOwnIdleTimeWhenTheSourceHasIt() {
        Map<String, Double> before = reading(100);
        Map<String, Double> now = reading(102);
        // 3 processors, 2 s: 6 s of processor time, 4.5 s of it waiting in select
        before.put("networkWait.nanos", 7e10);
        before.put("networkWait.processors", 3.0);
        now.put("networkWait.nanos", 7e10 + 4.5e9);
        now.put("networkWait.processors", 3.0);
        assertEquals(0.75, BrokerScraper.figures(before, now, 2.0).get("networkProcessorIdle"), 1e-9,
                "exact over the interval, not the trailing gauge (0.4)");
        now.put("networkWait.processors", 4.0); // a listener added in between: the totals do not compare
        assertEquals(0.4, BrokerScraper.figures(before, now, 2.0).get("networkProcessorIdle"), "the gauge instead");
    }

    @Test
    void shouldCountAMetricRegisteredDuringTheIntervalFromZeroAndNeverGoNegative() {
        Map<String, Double> before = reading(10);
        Map<String, Double> now = reading(11);
        before.remove("Produce.requests.count"); // Kafka registers it at the first produce request
        now.put("Produce.requests.count", 250.0);
        now.put("FetchConsumer.TotalTimeMs.count", 50.0);
        now.put("FetchConsumer.TotalTimeMs.mean", 4.0);
        before.put("bytesOutPerSec.count", 500.0);
        now.put("bytesOutPerSec.count", 100.0); // a restarted broker's counters start again
        Map<String, Double> f = BrokerScraper.figures(before, now, 1.0);
        assertEquals(250, f.get("produceRequestsPerSec"), 1e-9);
        assertEquals(4.0, f.get("fetchConsumerTotalTimeMsMean"), 1e-9);
        assertFalse(f.containsKey("bytesOutPerSec"), "a counter that went back is not a figure");
        assertFalse(BrokerScraper.figures(before, new HashMap<>(), 1.0).containsKey("bytesInPerSec"),
                "nothing read now: nothing said");
    }
}
