package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;

import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Each criterion of a trial, on hand-made intervals: 2 s warm-up, 6 measured, at 1,000 msg/s. */
class TrialVerdictTest {
    private static final long S = 1_000_000;
    private static final Workload W = Workload.timed("t", 1, 6, 100, 1, 1, 1, 1_000, 2, 6);

    private record Trial(long[] sent, long[] acked, long[] lag, long delayMicros, long failed, long received) { }

    private static Trial steady() {
        long[] sent = new long[8];
        java.util.Arrays.fill(sent, 1_000);
        long[] lag = new long[8];
        java.util.Arrays.fill(lag, 20);
        return new Trial(sent, sent.clone(), lag, 500, 0, 8_000);
    }

    private static TrialVerdict judge(Trial t, Workload w, List<Slo> slos) {
        List<MergedInterval> intervals = new ArrayList<>();
        Histogram resp = LatencyHistograms.create();
        for (int i = 0; i < t.sent().length; i++) {
            EnumMap<Metric, Histogram> hs = new EnumMap<>(Metric.class);
            Histogram d = LatencyHistograms.create();
            d.recordValueWithCount(t.delayMicros(), Math.max(1, t.sent()[i]));
            hs.put(Metric.PUBLISH_DELAY, d);
            intervals.add(new MergedInterval(i, i * S, (i + 1) * S, new Counters(t.sent()[i], t.acked()[i], 0,
                    t.acked()[i] * 100, t.acked()[i], t.acked()[i] * 100, 0, 0), MergedInterval.statsOf(hs), 1, List.of(),
                    t.lag()[i], ClientSample.NONE, ClientSample.NONE));
            if (i >= 2) {
                resp.recordValueWithCount(8_000, t.acked()[i]);
            }
        }
        EnumMap<Metric, Histogram> summaryHistograms = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            summaryHistograms.put(m, LatencyHistograms.create());
        }
        summaryHistograms.put(Metric.PUBLISH_RESPONSE, resp);
        Summary s = Summary.of(intervals, 2 * S, 8 * S, w.saturationDelayMillis() * 1000, summaryHistograms);
        long acked = java.util.Arrays.stream(t.acked()).sum();
        s = new Summary(s.sent(), acked, t.failed(), t.received(), 0, 0, s.measuredSeconds(), s.measuredAcked(),
                s.measuredReceived(), s.measuredReceivedBytes(), s.publishRate(), s.publishMBps(), s.consumeRate(),
                s.consumeMBps(), s.histograms(), null, 0, s.saturatedIntervals());
        return TrialVerdict.judge(w, true, null, s, intervals, 2 * S, 8 * S, slos);
    }

    @Test
    void shouldPassASteadyTrialAndToleratePerIntervalAckJitter() {
        assertEquals(List.of(), judge(steady(), W, List.of()).reasons());
        Trial jitter = steady();
        // 1.5% of one interval's acknowledgements land in the next: the window still has them all
        jitter.acked()[4] = 985;
        jitter.acked()[5] = 1_015;
        TrialVerdict v = judge(jitter, W, List.of());
        assertTrue(v.passed(), v.reasons().toString());
        assertEquals(1_000.0, v.achieved());
    }

    @Test
    void shouldFailWhenTheGeneratorOrTheClusterFellBehind() {
        Trial slowSend = steady();
        slowSend.sent()[6] = 990;
        assertEquals(List.of("1 interval(s) sent below 99.5% of the target; the worst 990 msg/s (99.0%) at 7s"),
                judge(slowSend, W, List.of()).reasons());
        Trial edge = steady();
        edge.sent()[6] = 994; // 99.4%, but within one message of 99.5%: 995 - 1
        assertTrue(judge(edge, W, List.of()).passed());
        Trial slowAck = steady();
        for (int i = 2; i < 8; i++) {
            slowAck.acked()[i] = 990;
        }
        TrialVerdict v = judge(new Trial(slowAck.sent(), slowAck.acked(), slowAck.lag(), 500, 0, 7_940), W, List.of());
        assertEquals(List.of("990 msg/s acknowledged over the window, 99.0% of the target"), v.reasons());
        TrialVerdict saturated = judge(new Trial(steady().sent(), steady().acked(), steady().lag(), 12_000, 0, 8_000), W,
                List.of());
        assertEquals(List.of("6 interval(s) saturated (the load generator fell behind its schedule: publish delay p99 "
                + "above 10 ms)"), saturated.reasons());
    }

    @Test
    void shouldFailWhenLagGrowsButNotWhenItWobbles() {
        Trial growing = steady();
        long[] lags = {0, 0, 100, 300, 800, 1_200, 1_800, 2_400};
        System.arraycopy(lags, 0, growing.lag(), 0, 8);
        TrialVerdict v = judge(growing, W, List.of());
        assertFalse(v.passed());
        assertEquals(List.of("consumer lag grew from 200 to 2,100 messages (more than one second of the target)"),
                v.reasons());
        Trial wobbling = steady();
        long[] wobble = {0, 0, 900, 10, 700, 30, 950, 40};
        System.arraycopy(wobble, 0, wobbling.lag(), 0, 8);
        assertTrue(judge(wobbling, W, List.of()).passed());
    }

    @Test
    void shouldFailOnAnythingLostOrAMissedObjective() {
        Trial t = steady();
        TrialVerdict v = judge(new Trial(t.sent(), t.acked(), t.lag(), 500, 3, 7_000), W,
                List.of(Slo.parse("publishResponse.p99<=5ms"), Slo.parse("endToEnd.p99<=1s")));
        assertEquals(List.of("3 send(s) failed", "consumers received 7,000 of the 8,000 messages expected",
                "publishResponse.p99<=5ms missed: 8.00 ms > 5.00 ms", "endToEnd.p99<=1s: no samples"), v.reasons());
        assertEquals(2, v.figures().size());
        assertEquals(8_000, v.figures().get(0).valueMicros(), 8);
        assertFalse(v.figures().get(0).held());
        assertEquals(-1, v.figures().get(1).valueMicros());
        TrialVerdict held = judge(steady(), W, List.of(Slo.parse("publishResponse.p99<=10ms")));
        assertTrue(held.passed());
        assertTrue(held.figures().get(0).held());
    }

    @Test
    void shouldNeverPassAnUnthrottledProbeOrAFailedRun() {
        TrialVerdict probe = judge(steady(), W.withProducerRate(Workload.UNTHROTTLED), List.of());
        assertEquals(List.of("unthrottled probe: no target to sustain"), probe.reasons());
    }
}
