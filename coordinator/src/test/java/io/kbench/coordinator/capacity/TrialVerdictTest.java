package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.capacity.TrialVerdict.Cause;
import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Each rule of a trial's verdict on recorded windows: 2 s warm-up and 9 measured intervals at 1,000 msg/s, with
 * per interval the sent and acknowledged counts, the consumers' lag, the publish delay's p50 and p99, and the
 * producers' wait for buffer room.
 */
class TrialVerdictTest {
    private static final long S = 1_000_000;
    private static final int N = 11;
    private static final Workload W = Workload.timed("t", 1, 6, 100, 1, 1, 1, 1_000, 2, 9);

    /** One trial's recorded intervals (index 0 and 1 are warm-up). */
    private record Trial(long[] sent, long[] acked, long[] lag, long[] delayP50, long[] delayP99, double[] waits,
                         long failed, long received, long[] got, double[] blocked, double[] unackedAges) {
        Trial with(java.util.function.Consumer<Trial> change) {
            Trial t = new Trial(sent.clone(), acked.clone(), lag.clone(), delayP50.clone(), delayP99.clone(), waits.clone(),
                    failed, received, got.clone(), blocked.clone(), unackedAges.clone());
            change.accept(t);
            return t;
        }

        Trial received(long r) {
            return new Trial(sent, acked, lag, delayP50, delayP99, waits, failed, r, got, blocked, unackedAges);
        }

        Trial failed(long f) {
            return new Trial(sent, acked, lag, delayP50, delayP99, waits, f, received, got, blocked, unackedAges);
        }

        /** Per interval: received by the consumers; -1 (the default) for as many as were acknowledged. */
        long got(int i) {
            return got[i] < 0 ? acked[i] : got[i];
        }
    }

    private static long[] filled(long v) {
        long[] a = new long[N];
        Arrays.fill(a, v);
        return a;
    }

    private static Trial steady() {
        return new Trial(filled(1_000), filled(1_000), filled(20), filled(500), filled(2_000), new double[N], 0, N * 1_000,
                filled(-1), new double[N], new double[N]);
    }

    private static TrialVerdict judge(Trial t, Workload w, List<Slo> slos) {
        return judge(t, w, slos, null);
    }

    /** {@code stalls}: per interval, how late the load thread woke from a park (µs); null: not measured. */
    private static TrialVerdict judge(Trial t, Workload w, List<Slo> slos, long[] stalls) {
        return judge(t, w, slos, stalls, null);
    }

    /** {@code hostBusy}: per interval, the busiest worker host's share of CPU time running; null: not measured. */
    private static TrialVerdict judge(Trial t, Workload w, List<Slo> slos, long[] stalls, double[] hostBusy) {
        return judge(t, w, slos, stalls, hostBusy, N * S);
    }

    /** {@code measureEnd}: when the producers stopped (a record-count run's falls inside its last interval). */
    private static TrialVerdict judge(Trial t, Workload w, List<Slo> slos, long[] stalls, double[] hostBusy,
                                      long measureEnd) {
        List<MergedInterval> intervals = new ArrayList<>();
        Histogram resp = LatencyHistograms.create();
        for (int i = 0; i < N; i++) {
            EnumMap<Metric, Histogram> hs = new EnumMap<>(Metric.class);
            Histogram d = LatencyHistograms.create();
            long n = Math.max(100, t.sent()[i]);
            d.recordValueWithCount(t.delayP50()[i], n - n / 50); // 98% at the p50 ...
            d.recordValueWithCount(t.delayP99()[i], n / 50);     // ... 2% at the p99
            hs.put(Metric.PUBLISH_DELAY, d);
            Histogram latency = LatencyHistograms.create(); // every acknowledgement in 20 ms
            if (t.acked()[i] > 0) {
                latency.recordValueWithCount(20_000, t.acked()[i]);
            }
            hs.put(Metric.PUBLISH_LATENCY, latency);
            ClientSample producers = new ClientSample(1, Map.of("kbench-buffer-wait-ratio", t.waits()[i],
                    TrialVerdict.BLOCKED_METRIC, t.blocked()[i], TrialVerdict.UNACKED_AGE_METRIC, t.unackedAges()[i]));
            // a workload of share groups only: what its consumers got they accepted
            boolean share = w.subscriptionsPerTopic() == 0 && w.shareGroups().groupsPerTopic() > 0;
            Counters c = share ? new Counters(t.sent()[i], t.acked()[i], 0, t.acked()[i] * 100, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    t.got(i), t.got(i) * 100, 0, t.got(i), 0, 0)
                    : new Counters(t.sent()[i], t.acked()[i], 0, t.acked()[i] * 100, t.got(i), t.got(i) * 100, 0, 0);
            intervals.add(new MergedInterval(i, i * S, (i + 1) * S, c, MergedInterval.statsOf(hs), 1, List.of(),
                    t.lag()[i], producers, ClientSample.NONE, stalls == null ? io.kbench.coordinator.merge.HostFigures.NONE
                    : new io.kbench.coordinator.merge.HostFigures(1, 0.5, 0.5, "w1", 0, -1, stalls[i],
                    hostBusy == null ? -1 : hostBusy[i], -1, -1)));
            if (i >= 2) {
                resp.recordValueWithCount(8_000, t.acked()[i]);
            }
        }
        EnumMap<Metric, Histogram> summaryHistograms = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            summaryHistograms.put(m, LatencyHistograms.create());
        }
        summaryHistograms.put(Metric.PUBLISH_RESPONSE, resp);
        Summary s = Summary.of(intervals, 2 * S, measureEnd, w.saturationDelayMillis() * 1000, summaryHistograms);
        long acked = Arrays.stream(t.acked()).sum();
        s = new Summary(s.sent(), acked, t.failed(), t.received(), 0, 0, s.measuredSeconds(), s.measuredAcked(),
                s.measuredReceived(), s.measuredReceivedBytes(), s.publishRate(), s.publishMBps(), s.consumeRate(),
                s.consumeMBps(), s.histograms(), null, 0, s.saturatedIntervals(), s.totals(), s.window());
        return TrialVerdict.judge(w, true, null, s, intervals, 2 * S, measureEnd, slos);
    }

    /** An interval whose producers reported {@code metrics}. */
    private static MergedInterval withProducerMetrics(Map<String, Double> metrics) {
        return new MergedInterval(0, 0, S, new Counters(1_000, 1_000, 0, 100_000, 1_000, 100_000, 0, 0),
                MergedInterval.statsOf(new EnumMap<>(Metric.class)), 1, List.of(), 0, new ClientSample(1, metrics),
                ClientSample.NONE, io.kbench.coordinator.merge.HostFigures.NONE);
    }

    private static TrialVerdict judge(Trial t) {
        return judge(t, W, List.of());
    }

    @Test
    void shouldPassASteadyTrialAndToleratePerIntervalAckJitter() {
        TrialVerdict steady = judge(steady());
        assertEquals(List.of(), steady.reasons());
        assertEquals(Cause.none, steady.cause());
        assertEquals(List.of(), steady.notes());
        // 1.5% of one interval's acknowledgements land in the next: the window still has them all
        TrialVerdict v = judge(steady().with(t -> {
            t.acked()[4] = 985;
            t.acked()[5] = 1_015;
        }));
        assertTrue(v.passed(), v.reasons().toString());
        assertEquals(1_000.0, v.achieved());
    }

    @Test
    void shouldCountARecordCountRunsLastIntervalOnlyToTheProducersStop() {
        // the producers send their last record 5 ms into the last interval and stop: 8 whole intervals and 5 ms,
        // 8,005 sent at 1,000 msg/s — the target met, although 9 intervals were touched
        Trial stopped = steady().with(t -> {
            t.sent()[N - 1] = 5;
            t.acked()[N - 1] = 5;
        });
        TrialVerdict v = judge(stopped, W, List.of(), null, null, (N - 1) * S + 5_000);
        assertTrue(v.passed(), v.reasons().toString());
        assertEquals(Cause.none, v.cause());
        assertEquals(List.of(), v.notes());
        assertEquals(0, v.shortIntervals());
        // the same counts judged as if the window ran to the interval's end: 8,005 of 9,000 expected, and the
        // last interval 5 of 1,000 — the shortfall the rule reports when it is real
        TrialVerdict whole = judge(stopped, W, List.of(), null, null, N * S);
        assertEquals(Cause.generator, whole.cause());
        assertEquals(List.of("the load generator sent 889 msg/s over the window, 88.9% of the target"),
                whole.generatorReasons());
        // and sent short inside the window (the stop noted later than the last send): still the generator's
        TrialVerdict late = judge(stopped.with(t -> t.sent()[5] = 900), W, List.of(), null, null, (N - 1) * S + 5_000);
        assertEquals(Cause.generator, late.cause());
    }

    @Test
    void shouldNotFailAHealthyRateForAPauseOfTheGeneratorsHostButNoteIt() {
        // a 30 ms GC pause in interval 5: its publish delay p99 above the 10 ms threshold, 1% of its sends made up
        // in the next interval; the window's totals are whole and the typical delay does not move
        TrialVerdict v = judge(steady().with(t -> {
            t.delayP99()[5] = 28_000;
            t.sent()[5] = 990;
            t.sent()[6] = 1_010;
            t.delayP99()[8] = 12_000;
        }));
        assertTrue(v.passed(), v.reasons().toString());
        assertEquals(2, v.saturatedIntervals());
        assertEquals(1, v.shortIntervals());
        assertEquals(List.of("1 interval(s) sent below 99.5% of the target; the worst 990 msg/s (99.0%) at 6s",
                "2 of 9 interval(s) saturated (publish delay p99 above 10 ms)"), v.notes());
        // the same, with the load thread's late wake-ups measured: the note says which of them a pause explains
        long[] stalls = new long[N];
        Arrays.fill(stalls, 900);
        stalls[5] = 31_000; // the 30 ms pause
        stalls[8] = 9_999;  // just under the threshold: not counted
        TrialVerdict measured = judge(steady().with(t -> {
            t.delayP99()[5] = 28_000;
            t.delayP99()[8] = 12_000;
        }), W, List.of(), stalls);
        assertTrue(measured.passed(), measured.reasons().toString());
        assertEquals(List.of("2 of 9 interval(s) saturated (publish delay p99 above 10 ms), 1 of them with a load "
                + "thread woken 10 ms or more late (a pause, or no core in time)"), measured.notes());
        // and the host's CPU read too: how busy it was in the stalled intervals (the one at 5), not in the others
        double[] busy = new double[N];
        Arrays.fill(busy, 0.30);
        busy[5] = 0.97;
        busy[8] = 0.99; // saturated, but its stall was under the threshold: not in the mean
        TrialVerdict crowded = judge(steady().with(t -> {
            t.delayP99()[5] = 28_000;
            t.delayP99()[8] = 12_000;
        }), W, List.of(), stalls, busy);
        assertEquals(List.of("2 of 9 interval(s) saturated (publish delay p99 above 10 ms), 1 of them with a load "
                + "thread woken 10 ms or more late (a pause, or no core in time; the host 97% busy in them on average)"),
                crowded.notes());
        // every interval saturated but the generator on schedule in the window: still noted, not failed
        TrialVerdict all = judge(steady().with(t -> Arrays.fill(t.delayP99(), 15_000)));
        assertTrue(all.passed(), all.reasons().toString());
        assertEquals(9, all.saturatedIntervals());
    }

    @Test
    void shouldFailAGeneratorThatFellBehindPersistentlyAndNameIt() {
        // the generator manages 95% of the target and its delay grows all along: the cluster acknowledges all sent
        TrialVerdict slow = judge(steady().with(t -> {
            Arrays.fill(t.sent(), 950);
            Arrays.fill(t.acked(), 950);
            for (int i = 0; i < N; i++) {
                t.delayP50()[i] = 50_000L * (i + 1);
                t.delayP99()[i] = 50_000L * (i + 1) + 5_000;
            }
        }).received(N * 950));
        assertFalse(slow.passed());
        assertEquals(Cause.generator, slow.cause());
        assertEquals(2, slow.reasons().size(), slow.reasons().toString());
        assertEquals("the load generator sent 950 msg/s over the window, 95.0% of the target", slow.reasons().get(0),
                "the acknowledgements short of the target are the generator's shortfall, not the cluster's");
        // HdrHistogram keeps 3 significant digits: 200 ms is read back as 200.0xx ms
        assertTrue(slow.reasons().get(1).matches("the load generator fell further behind their schedule: publish delay "
                + "p50 rose from 200(\\.\\d+)? ms to 500(\\.\\d+)? ms"), slow.reasons().get(1));
        // delay growing while the total is still (barely) whole: fails on the growth alone
        TrialVerdict growing = judge(steady().with(t -> {
            for (int i = 0; i < N; i++) {
                t.delayP50()[i] = 2_000L + 4_000L * i;
            }
        }));
        assertEquals(Cause.generator, growing.cause());
        assertEquals(1, growing.reasons().size(), growing.reasons().toString());
        assertTrue(growing.reasons().get(0).matches("the load generator fell further behind their schedule: publish delay "
                + "p50 rose from 14(\\.\\d+)? ms to 38(\\.\\d+)? ms"), growing.reasons().get(0));
    }

    @Test
    void shouldBlameTheClusterWhenTheProducersWaitedForItsAcknowledgements() {
        // the same shortfall, but the producers waited for buffer room 40% of the time: backpressure
        TrialVerdict v = judge(steady().with(t -> {
            Arrays.fill(t.sent(), 900);
            Arrays.fill(t.acked(), 900);
            Arrays.fill(t.waits(), 0.4);
        }).received(N * 900));
        assertEquals(Cause.cluster, v.cause());
        assertEquals(List.of("the producers sent 900 msg/s over the window, 90.0% of the target",
                "the producers waited for buffer room 40.0% of the window: the cluster did not acknowledge fast enough"),
                v.reasons());
        // either side of the 1% boundary: a 0.9% wait is the generator's own, 1.1% the cluster's
        Trial shortfall = steady().with(t -> {
            Arrays.fill(t.sent(), 900);
            Arrays.fill(t.acked(), 900);
        }).received(N * 900);
        assertEquals(Cause.generator, judge(shortfall.with(t -> Arrays.fill(t.waits(), 0.009))).cause());
        assertEquals(Cause.cluster, judge(shortfall.with(t -> Arrays.fill(t.waits(), 0.011))).cause());
    }

    @Test
    void shouldBlameTheClusterWhenTheSendsBlockedForMetadataEvenIfTheWindowCaughtUp() {
        // the only broker down for 4 of the 9 measured seconds: the sends blocked (nothing sent or acknowledged), then
        // what fell due went out at once when it answered: the window's totals are on target, its saturated
        // intervals and the delays are the outage's
        TrialVerdict v = judge(steady().with(t -> {
            for (int i = 3; i <= 6; i++) {
                t.sent()[i] = 0;
                t.acked()[i] = 0;
                t.blocked()[i] = 1.0;
            }
            t.sent()[7] = 5_000;
            t.acked()[7] = 5_000;
            t.delayP99()[7] = 4_000_000;
            t.delayP50()[7] = 2_000_000;
        }));
        assertEquals(Cause.cluster, v.cause(), v.reasons().toString());
        assertEquals(List.of("the cluster acknowledged nothing in 4 of the window's 9 interval(s) while the producers "
                + "had messages outstanding or blocked in send()", "the producers' sends blocked 44.4% of the window (4 of "
                + "9 interval(s) half or more) and not for buffer room: waiting for the cluster's metadata (no broker "
                + "answering, or a partition without a leader)"), v.reasons());
        // a broker frozen with its connections open: sends went out (and then waited for room), nothing acknowledged
        TrialVerdict frozen = judge(steady().with(t -> {
            for (int i = 3; i <= 6; i++) {
                t.acked()[i] = 0;
                t.waits()[i] = i == 3 ? 0 : 1.0;
                t.blocked()[i] = i == 3 ? 0 : 1.0;
            }
            t.acked()[7] = 5_000;
        }));
        assertEquals(Cause.cluster, frozen.cause(), frozen.reasons().toString());
        assertTrue(frozen.reasons().contains("the cluster acknowledged nothing in 4 of the window's 9 interval(s) while "
                + "the producers had messages outstanding or blocked in send()"), frozen.reasons().toString());
        // waiting inside send() for the client's buffer pool is a wait for room, not for metadata
        assertEquals(0.0, TrialVerdict.unavailableShare(withProducerMetrics(Map.of(TrialVerdict.BLOCKED_METRIC, 0.4,
                "bufferpool-wait-ratio", 0.4))), 1e-9);
        assertEquals(0.3, TrialVerdict.unavailableShare(withProducerMetrics(Map.of(TrialVerdict.BLOCKED_METRIC, 0.4,
                "bufferpool-wait-ratio", 0.1, "kbench-buffer-wait-ratio", 0.5))), 1e-9, "kbench's own wait is not in it");
        assertTrue(Double.isNaN(TrialVerdict.unavailableShare(withProducerMetrics(Map.of()))), "a result before it");
        // 0.9% blocked: below the threshold
        assertEquals(Cause.none, judge(steady().with(t -> Arrays.fill(t.blocked(), 0.009))).cause());
    }

    /**
     * One partition not served (no leader, too few in-sync replicas for acks=all) while the others are: the window's
     * acknowledgements fall short by its share, and its oldest send waits on while younger ones are acknowledged in 20
     * ms — no latency figure holds it until it completes.
     */
    @Test
    void shouldBlameTheClusterForASendLeftWaitingWhileYoungerOnesWereAcknowledged() {
        TrialVerdict v = judge(steady().with(t -> {
            for (int i = 4; i < N; i++) {
                t.acked()[i] = 900; // a tenth of the sends go to the stalled partition
                t.unackedAges()[i] = (i - 3) * 1_000.0 + 500; // waiting since 3.5 s
            }
        }));
        assertEquals(Cause.cluster, v.cause(), v.reasons().toString());
        assertTrue(v.reasons().contains("in 7 of the window's 9 interval(s) a send waited the whole interval while younger "
                + "ones were acknowledged: one waited 7.5 s unacknowledged, when the interval's slowest acknowledgement "
                + "took 20.0 ms (a partition without a leader, or without enough in-sync replicas for acks=all, while the "
                + "others were served)"), v.reasons().toString());
        // a send that waited less than an interval and the slowest acknowledgement together may be in a queue: not named
        assertEquals(Cause.none, judge(steady().with(t -> Arrays.fill(t.unackedAges(), 1_010.0))).cause());
    }

    @Test
    void shouldTellASendLeftWaitingFromAQueueByTheIntervalsSlowestAcknowledgement() {
        // 1-s intervals whose slowest acknowledgement took 150 ms (its histogram's highest equivalent value: 150.0x ms)
        assertFalse(TrialVerdict.leftWaiting(acknowledgedIn(150_000, 1_140.0)), "sent during the interval's slowest");
        assertTrue(TrialVerdict.leftWaiting(acknowledgedIn(150_000, 1_160.0)), "sent before every acknowledged one");
        assertTrue(TrialVerdict.leftWaiting(acknowledgedIn(150_000, 57_000.0)));
        assertFalse(TrialVerdict.leftWaiting(acknowledgedIn(-1, 57_000.0)), "nothing acknowledged: servedNothing's case");
        assertFalse(TrialVerdict.leftWaiting(withProducerMetrics(Map.of())), "no such metric (a result before it)");
        List<MergedInterval> run = new ArrayList<>();
        double[] ages = {0, 900, 1_500, 2_500, 3_500, 0};
        for (int i = 0; i < ages.length; i++) {
            MergedInterval a = acknowledgedIn(i == 3 ? -1 : 20_000, ages[i]);
            run.add(new MergedInterval(i, i * S, (i + 1) * S, a.counters(), a.stats(), 1, List.of(), 0,
                    a.producerClients(), ClientSample.NONE));
        }
        TrialVerdict.Unserved u = TrialVerdict.unserved(run, S, 5 * S);
        assertEquals(1, u.intervals(), "interval 3 acknowledged nothing");
        assertEquals(2, u.partly(), "intervals 2 and 4 left a send waiting");
        assertEquals(2 * S, u.partlyFirstMicros());
        assertEquals(5 * S, u.partlyLastMicros());
        assertEquals(3_500.0, u.oldestUnackedMillis(), 1e-9);
        assertEquals(1_000.0, u.intervalMillis(), 1e-9);
        assertEquals(20.0, u.latencyMaxMillis(), 0.02);
    }

    /** A 1-s interval: 1,000 sent, 999 acknowledged in up to {@code maxMicros} (-1: none), the oldest waiting {@code ageMs}. */
    private static MergedInterval acknowledgedIn(long maxMicros, double ageMs) {
        EnumMap<Metric, Histogram> hs = new EnumMap<>(Metric.class);
        Histogram latency = LatencyHistograms.create();
        if (maxMicros > 0) {
            latency.recordValueWithCount(5_000, 998);
            latency.recordValue(maxMicros);
        }
        hs.put(Metric.PUBLISH_LATENCY, latency);
        return new MergedInterval(0, 0, S, new Counters(1_000, maxMicros > 0 ? 999 : 0, 0, 99_900, 999, 99_900, 0, 0),
                MergedInterval.statsOf(hs), 1, List.of(), 0, new ClientSample(1, Map.of(TrialVerdict.UNACKED_AGE_METRIC,
                ageMs)), ClientSample.NONE, io.kbench.coordinator.merge.HostFigures.NONE);
    }

    @Test
    void shouldFailABacklogFromBeforeTheWindowSentInIt() {
        // the warm-up fell behind and its backlog went out in the first measured seconds: 5% over the target
        TrialVerdict v = judge(steady().with(t -> {
            t.sent()[2] = 1_300;
            t.sent()[3] = 1_150;
            t.acked()[2] = 1_300;
            t.acked()[3] = 1_150;
        }).received(N * 1_000 + 450));
        assertEquals(Cause.generator, v.cause());
        assertEquals(List.of("the load generator sent 105.0% of the target over the window: a backlog from before the "
                + "window was sent in it"), v.reasons());
    }

    @Test
    void shouldFailTheClusterWhenAcknowledgementsFallShortOfWhatWasSent() {
        TrialVerdict v = judge(steady().with(t -> {
            for (int i = 2; i < N; i++) {
                t.acked()[i] = 990;
            }
        }).received(N * 1_000 - 90));
        assertEquals(Cause.cluster, v.cause());
        assertEquals(List.of("990 msg/s acknowledged over the window, 99.0% of the target"), v.reasons());
    }

    @Test
    void shouldHoldTheBoundariesToOneMessage() {
        // 99.5% of 9,000 is 8,955; one message less is allowed
        Trial edge = steady().with(t -> {
            t.sent()[6] = 1_000 - 46;
            t.acked()[6] = 1_000 - 46;
        }).received(N * 1_000 - 46);
        assertTrue(judge(edge).passed(), judge(edge).reasons().toString());
        Trial over = steady().with(t -> {
            t.sent()[6] = 1_000 - 47;
            t.acked()[6] = 1_000 - 47;
        }).received(N * 1_000 - 47);
        assertEquals(Cause.generator, judge(over).cause());
        // the delay's growth must exceed the threshold (10 ms) and the last third must be above it
        Trial flatHigh = steady().with(t -> Arrays.fill(t.delayP50(), 30_000)); // late but not falling further behind
        assertTrue(judge(flatHigh).passed(), judge(flatHigh).reasons().toString());
    }

    @Test
    void shouldFailWhenTheConsumersFallBehindByTheCountsWhateverTheirSampledLag() {
        // 1,000 acknowledged a second, 800 received: 1,800 more unread over the 9-s window, while the consumers' own
        // lag, counting down from their last fetch, reads the same at both ends
        long[] sawtooth = {0, 0, 900, 10, 700, 30, 950, 40, 900, 20, 800};
        Trial behind = steady().with(t -> {
            System.arraycopy(sawtooth, 0, t.lag(), 0, N);
            Arrays.fill(t.got(), 800);
        });
        TrialVerdict v = judge(behind);
        assertEquals(Cause.consumers, v.cause());
        assertEquals(List.of("a group's consumers left 1,800 of the messages acknowledged in the window unread (more "
                + "than one second of the target)"), v.reasons());
        // the same sampled lag with every message read: it wobbles, nothing more
        assertTrue(judge(steady().with(t -> System.arraycopy(sawtooth, 0, t.lag(), 0, N))).passed());
        // a second of the target unread at the window's end is tolerated (messages in flight there)
        assertTrue(judge(steady().with(t -> t.got()[N - 1] = 1)).passed(), "999 unread");
        // a group that catches up on a backlog from before the window reads more than was acknowledged in it
        assertTrue(judge(steady().with(t -> Arrays.fill(t.got(), 2, N, 1_200))).passed());
    }

    /**
     * A group reading 11% too slowly leaves 999 messages unread in a 9-s window — less than a second of the target —
     * but falls behind without end: the trend of the exact counts fails it. Measured: a hot partition's one consumer,
     * 5% short at 2,156 msg/s in a 15-s window, passed the max-rate search before.
     */
    @Test
    void shouldFailAGroupThatReadsAFewPercentTooSlowlyInAShortWindow() {
        TrialVerdict slow = judge(steady().with(t -> Arrays.fill(t.got(), 2, N, 889)));
        assertEquals(Cause.consumers, slow.cause());
        assertEquals(List.of("a group's consumers fell behind by 111 msg/s (11.1% of the target): their unread messages "
                + "grew from 222 to 888 (medians of the window's first and last thirds)"), slow.reasons());
        // 0.5% short is within the acknowledgements' own tolerance; a pause at one interval's end moves no median
        assertTrue(judge(steady().with(t -> Arrays.fill(t.got(), 2, N, 995))).passed());
        assertTrue(judge(steady().with(t -> {
            t.got()[6] = 100;
            t.got()[7] = 1_900;
        })).passed(), "a stall of most of one interval, caught up in the next");
    }

    /**
     * A share group of 4 consumers at 1 ms a message takes at most 4,000 msg/s; the max-rate search passed it at 16,000
     * (its trials were diagnosed 'consumers' and passed): the verdict judged the consumers only when the workload had
     * classic ones. A share group's settled messages are judged alike.
     */
    @Test
    void shouldFailAShareGroupThatFallsBehindAsAClassicGroupWould() {
        Workload share = Workload.of("t", Map.of("partitionsPerTopic", 4, "messageSize", 100, "producerRate", 1_000,
                "warmupSeconds", 2, "durationSeconds", 9, "subscriptionsPerTopic", 0, "shareGroupsPerTopic", 1,
                "consumersPerShareGroup", 4));
        TrialVerdict behind = judge(steady().with(t -> Arrays.fill(t.got(), 250)), share, List.of());
        assertEquals(Cause.consumers, behind.cause());
        assertEquals(List.of("a group's consumers left 6,750 of the messages acknowledged in the window unread (more "
                + "than one second of the target)", "the share groups accepted or rejected 2,750 of the 11,000 messages "
                + "expected"), behind.reasons());
        TrialVerdict slow = judge(steady().with(t -> Arrays.fill(t.got(), 2, N, 889)), share, List.of());
        assertFalse(slow.passed(), "11% too slowly, by the trend: " + slow.reasons());
        assertTrue(judge(steady(), share, List.of()).passed(), "a share group that kept up");
    }

    @Test
    void shouldJudgeTheSampledLagWhereTheCountsCannotTellTheBacklog() {
        // consumers held for a backlog, then catching up: their growth is the workload's design, and only the
        // sampled lag is judged
        Workload backlog = Workload.of("t", Map.of("partitionsPerTopic", 6, "messageSize", 100, "producerRate", 1_000,
                "warmupSeconds", 2, "durationSeconds", 9, "consumerBacklogRecords", 1_000));
        long[] lags = {0, 0, 100, 300, 800, 1_200, 1_800, 2_400, 2_900, 3_500, 4_000};
        TrialVerdict v = judge(steady().with(t -> {
            System.arraycopy(lags, 0, t.lag(), 0, N);
            Arrays.fill(t.got(), 0);
        }), backlog, List.of());
        assertEquals(List.of("consumer lag grew from 400 to 3,467 messages (more than one second of the target)"),
                v.reasons());
        long[] wobble = {0, 0, 900, 10, 700, 30, 950, 40, 900, 20, 800};
        assertTrue(judge(steady().with(t -> {
            System.arraycopy(wobble, 0, t.lag(), 0, N);
            Arrays.fill(t.got(), 0);
        }), backlog, List.of()).passed());
    }

    @Test
    void shouldFailOnAnythingLostOrAMissedObjective() {
        TrialVerdict v = judge(steady().failed(3).received(7_000), W,
                List.of(Slo.parse("publishResponse.p99<=5ms"), Slo.parse("endToEnd.p99<=1s")));
        assertEquals(Cause.cluster, v.cause());
        assertEquals(List.of("3 send(s) failed", "consumers received 7,000 of the 11,000 messages expected",
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
    void shouldNeverPassAnUnthrottledProbe() {
        TrialVerdict probe = judge(steady(), W.withProducerRate(Workload.UNTHROTTLED), List.of());
        assertEquals(List.of("unthrottled probe: no target to sustain"), probe.reasons());
        assertEquals(Cause.run, probe.cause());
    }
}
