package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import io.kbench.driver.ManualNanoClock;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What a producer records, paced and unthrottled, as the snapshot carries it. */
class ProducerMetricsTest {
    private final ManualNanoClock clock = new ManualNanoClock(0);

    private IntervalSnapshot oneInterval(boolean paced) {
        ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), paced);
        for (int i = 0; i < 100; i++) {
            long intended = i * 1_000_000L;
            long sent = intended + (paced ? 300_000 : 0); // sent 300 µs late when paced
            m.onSent(paced ? intended : sent, sent);
            clock.set(sent + 2_000_000 + i * 1_000); // acknowledged 2 ms (+ i µs) after the send
            m.onAck(paced ? intended : sent, sent, 100, 0);
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
        clock.set(500_000_000L);
        m.onAck(100, 200, 100, 0);
        // intended in the warm-up (0.9 s), sent late and acknowledged after it: latency yes, response no
        m.onSent(900_000_000L, 1_200_000_000L);
        clock.set(1_300_000_000L);
        m.onAck(900_000_000L, 1_200_000_000L, 100, 0);
        // intended in the window: timed
        m.onSent(1_250_000_000L, 1_250_000_000L);
        clock.set(1_260_000_000L);
        m.onAck(1_250_000_000L, 1_250_000_000L, 100, 0);
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

    @Test
    void shouldNoteTheSentCountAtEachBoundaryItPasses() {
        ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), true);
        m.intervals(0, 1_000);
        for (long t : new long[] {100, 500, 999}) {
            m.onSent(t, t);
        }
        assertEquals(3, m.sentBefore(1), "not passed yet: everything counted was before it");
        m.onSent(1_000, 1_000); // on the boundary: the next interval's
        m.onSent(1_500, 1_500);
        assertEquals(3, m.sentBefore(1));
        assertEquals(5, m.sentBefore(2), "not passed yet");
        m.onSent(5_200, 5_200); // a stall: boundaries 2 to 5 passed at once
        for (long b = 2; b <= 5; b++) {
            assertEquals(5, m.sentBefore(b), "boundary " + b);
        }
        assertEquals(6, m.sentBefore(6));
        for (long t = 6_000; t < 6_000 + 1_000L * ProducerMetrics.BOUNDARY_MARKS; t += 1_000) {
            m.onSent(t, t);
        }
        assertEquals(6 + ProducerMetrics.BOUNDARY_MARKS, m.sentBefore(1),
                "a boundary further back than the marks reach: the live count, as before");
    }

    /**
     * An interval's publish delays are those of the messages it sent, as its sent count is: a send after the boundary
     * and before the late harvest is the next interval's in both (at 1 msg/s on a whole-second schedule every
     * window's first send came just after its boundary, and the summary's delay count read 9 of 10).
     */
    @Test
    void shouldKeepAnIntervalsDelaysWithItsSentCountWhenTheHarvestComesLate() {
        ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), true);
        m.intervals(0, 1_000_000);
        Snapshotter s = new Snapshotter("w", List.of(m), List.of(), List.of());
        for (long t = 0; t < 1_000_000; t += 100_000) {
            m.onSent(t, t + 1_000); // 10 in interval 0, each sent 1 µs late
        }
        m.onSent(1_000_000, 1_000_000 + 5_000); // on the boundary, 5 µs late, before the harvest of interval 0
        IntervalSnapshot first = s.harvest(0, 0, 1_000, false, 0, false, "");
        assertEquals(10, first.counters().sent());
        assertEquals(10, h(first, Metric.PUBLISH_DELAY).getTotalCount(), "the delays of the sends it counted");
        assertEquals(1, h(first, Metric.PUBLISH_DELAY).getMaxValue());
        m.onSent(1_500_000, 1_500_000);
        IntervalSnapshot second = s.harvest(1, 1_000, 2_000, false, 0, false, "");
        assertEquals(2, second.counters().sent());
        assertEquals(2, h(second, Metric.PUBLISH_DELAY).getTotalCount());
        assertEquals(5, h(second, Metric.PUBLISH_DELAY).getMaxValue());
        m.onSent(2_000_000, 2_000_000);
        m.onSent(3_000_000, 3_000_000); // interval 3's, sent before interval 2 is harvested: a harvest a whole interval late
        IntervalSnapshot third = s.harvest(2, 2_000, 3_000, false, 0, false, "");
        assertEquals(1, third.counters().sent());
        assertEquals(1, h(third, Metric.PUBLISH_DELAY).getTotalCount());
        IntervalSnapshot last = s.harvest(3, 3_000, 3_500, true, 0, true, "");
        assertEquals(1, last.counters().sent());
        assertEquals(1, h(last, Metric.PUBLISH_DELAY).getTotalCount(), "the last harvest takes what is left");
    }

    /**
     * An interval's acknowledgements — their count, bytes, latencies and response times — are those the I/O thread
     * took in it, not those recorded until the snapshot thread harvested it: an ack just after the boundary and before
     * a late harvest is the next interval's (with 5-s intervals the quickstart's window held 99,939 response times for
     * its 100,000 messages, 61 of them harvested into the warm-up's last interval).
     */
    @Test
    void shouldKeepAnIntervalsAcknowledgementsWithinItsBoundaries() {
        for (boolean paced : new boolean[] {true, false}) {
            ProducerMetrics m = new ProducerMetrics(clock, new ErrorSlot(), paced);
            m.intervals(0, 1_000_000);
            Snapshotter s = new Snapshotter("w", List.of(m), List.of(), List.of());
            for (long t = 0; t < 1_000_000; t += 100_000) {
                m.onSent(t, t);
                clock.set(t + 2_000); // acknowledged 2 µs later, in interval 0
                m.onAck(t, t, 100, 0);
            }
            m.onSent(999_000, 999_000);
            clock.set(1_000_500); // its acknowledgement comes after the boundary, before the harvest of interval 0
            m.onAck(999_000, 999_000, 700, 0);
            IntervalSnapshot first = s.harvest(0, 0, 1_000, false, 0, false, "");
            assertEquals(10, first.counters().acked(), "paced " + paced);
            assertEquals(1_000, first.counters().ackedBytes(), "the bytes of the acknowledgements it counted");
            assertEquals(10, h(first, Metric.PUBLISH_LATENCY).getTotalCount());
            assertEquals(10, h(first, Metric.PUBLISH_RESPONSE).getTotalCount());
            assertEquals(2, h(first, Metric.PUBLISH_LATENCY).getMaxValue());
            clock.set(1_500_000);
            m.onSent(1_500_000, 1_500_000);
            m.onAck(1_500_000, 1_500_000, 100, 0);
            IntervalSnapshot second = s.harvest(1, 1_000, 2_000, false, 0, false, "");
            assertEquals(2, second.counters().acked());
            assertEquals(800, second.counters().ackedBytes());
            assertEquals(2, h(second, Metric.PUBLISH_RESPONSE).getTotalCount());
            assertEquals(1, h(second, Metric.PUBLISH_LATENCY).getMaxValue(), "the late one's 1.5 µs, floored to 1");
            clock.set(2_500_000);
            m.onSent(2_500_000, 2_500_000);
            m.onAck(2_500_000, 2_500_000, 100, 0);
            IntervalSnapshot last = s.harvest(2, 2_000, 2_600, true, 0, true, "");
            assertEquals(1, last.counters().acked(), "the last harvest takes what is left");
            assertEquals(100, last.counters().ackedBytes());
            clock.set(0);
        }
    }

    @Test
    void shouldEndAnIntervalsSentCountAtItsBoundaryWhenTheHarvestComesLate() {
        ProducerMetrics a = new ProducerMetrics(clock, new ErrorSlot(), true);
        ProducerMetrics b = new ProducerMetrics(clock, new ErrorSlot(), true);
        a.intervals(0, 1_000_000);
        b.intervals(0, 1_000_000);
        for (long t = 0; t < 1_020_000; t += 10_000) { // 100 messages each in interval 0, 2 more before the late harvest
            a.onSent(t, t);
            b.onSent(t + 5_000, t + 5_000);
        }
        Snapshotter s = new Snapshotter("w", List.of(a, b), List.of(), List.of());
        assertEquals(200, s.harvest(0, 0, 1_000, false, 0, false, "").counters().sent(), "interval 0 ends at its boundary");
        for (long t = 1_020_000; t < 2_000_000; t += 10_000) {
            a.onSent(t, t);
        }
        // a's 100 of interval 1 (2 of them sent before interval 0 was harvested) and b's 2: b stopped sending, so no
        // boundary passed since and its live count is exact; then the last harvest takes the rest
        assertEquals(100 + 2, s.harvest(1, 1_000, 2_000, false, 0, false, "").counters().sent());
        a.onSent(2_000_000, 2_000_000);
        assertEquals(1, s.harvest(2, 2_000, 2_500, true, 0, true, "").counters().sent());
    }
}
