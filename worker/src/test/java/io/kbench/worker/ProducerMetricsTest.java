package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What a producer records, paced and unthrottled, as the snapshot carries it. */
class ProducerMetricsTest {
    private long now;
    private final NanoClock clock = new NanoClock() {
        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void park(long nanos) {
            now += nanos;
        }
    };

    private IntervalSnapshot oneInterval(boolean paced) {
        ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), paced);
        for (int i = 0; i < 100; i++) {
            long intended = i * 1_000_000L;
            long sent = intended + (paced ? 300_000 : 0); // sent 300 µs late when paced
            m.onSent(paced ? intended : sent, sent);
            now = sent + 2_000_000 + i * 1_000;           // acknowledged 2 ms (+ i µs) after the send
            m.onAck(paced ? intended : sent, sent, 100);
        }
        return new Snapshotter("w", List.of(m), List.of(), List.of()).harvest(0, 0, 1_000_000, false, 0, false, "");
    }

    private static Histogram h(IntervalSnapshot s, Metric m) {
        return LatencyHistograms.decode(s.histogram(m));
    }

    @Test
    void shouldRecordDelayAndResponseWhenPaced() {
        IntervalSnapshot s = oneInterval(true);
        assertEquals(100, h(s, Metric.PUBLISH_DELAY).getTotalCount());
        assertEquals(300, h(s, Metric.PUBLISH_DELAY).getValueAtPercentile(50), 1);
        assertEquals(2_349, h(s, Metric.PUBLISH_RESPONSE).getValueAtPercentile(50), 3);
        assertEquals(2_049, h(s, Metric.PUBLISH_LATENCY).getValueAtPercentile(50), 3);
    }

    @Test
    void shouldCountButNotTimeTheResponseOfAWarmupMessageAcknowledgedAfterTheWarmup() {
        ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), true);
        long measure = 1_000_000_000L;
        m.measureFrom(measure);
        // intended in the warm-up, acknowledged in it: timed as always
        m.onSent(100, 200);
        now = 500_000_000L;
        m.onAck(100, 200, 100);
        // intended in the warm-up (0.9 s), sent late and acknowledged after it: latency yes, response no
        m.onSent(900_000_000L, 1_200_000_000L);
        now = 1_300_000_000L;
        m.onAck(900_000_000L, 1_200_000_000L, 100);
        // intended in the window: timed
        m.onSent(1_250_000_000L, 1_250_000_000L);
        now = 1_260_000_000L;
        m.onAck(1_250_000_000L, 1_250_000_000L, 100);
        IntervalSnapshot s = new Snapshotter("w", List.of(m), List.of(), List.of()).harvest(0, 0, 1_000_000, false, 0,
                false, "");
        assertEquals(3, h(s, Metric.PUBLISH_LATENCY).getTotalCount(), "every acknowledgement counts");
        assertEquals(2, h(s, Metric.PUBLISH_RESPONSE).getTotalCount(), "not the warm-up message acknowledged late");
        Histogram response = h(s, Metric.PUBLISH_RESPONSE);
        assertEquals(0, response.getCountBetweenValues(390_000, 410_000), "the late warm-up message's 400 ms is out");
        assertEquals(1, response.getCountBetweenValues(9_990, 10_010), "the window's message: 10 ms");
    }

    @Test
    void shouldTakeLatencyAsResponseAndRecordNoDelayWhenUnthrottled() {
        IntervalSnapshot s = oneInterval(false);
        assertEquals(0, h(s, Metric.PUBLISH_DELAY).getTotalCount(), "a send at its intended time has no delay to record");
        assertEquals(100, h(s, Metric.PUBLISH_LATENCY).getTotalCount());
        assertEquals(h(s, Metric.PUBLISH_LATENCY), h(s, Metric.PUBLISH_RESPONSE));
        assertEquals(100, s.counters().sent());
        assertEquals(100, s.counters().acked());
    }
}
