package io.kbench.coordinator.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.result.ResultSchema;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.coordinator.run.RunOutcome;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole search — probe, trials, verdicts, table, result.json — against a simulated system: a queue with a
 * known capacity. Below it every interval acknowledges its target and the response time grows as
 * {@code base / (1 - rate / capacity)}; above it the producers wait for buffer room (their sends fall behind,
 * saturated intervals) and the acknowledged rate stays at the capacity. A generator of limited speed sends at
 * most {@code generatorMax} msg/s, without waiting for the cluster.
 */
class MaxRateSearchTest {
    private static final long S = 1_000_000;
    private static final int WARMUP = 2;
    private static final int DURATION = 5;

    @TempDir
    Path dir;

    /** A simulated cluster of {@code capacity} msg/s; {@code trials} counts the runs it was asked for. */
    private static final class Simulated implements MaxRateSearch.Trials {
        final long capacity;
        final long baseMicros;
        final long generatorMax;
        final List<Long> rates = new ArrayList<>();
        /** The diagnosis each trial's result carries (null: none), as the run's would name it. */
        ResultFile.Diagnosis diagnosis;
        /** A rate whose first trial passes whatever the capacity (a lucky trial); 0: none. */
        long lucky;
        /** The most the consumers read a second (their work per message); above it they fall behind. */
        long consumerMax = Long.MAX_VALUE;

        Simulated(long capacity, long baseMicros) {
            this(capacity, baseMicros, Long.MAX_VALUE);
        }

        Simulated(long capacity, long baseMicros, long generatorMax) {
            this.capacity = capacity;
            this.baseMicros = baseMicros;
            this.generatorMax = generatorMax;
        }

        @Override
        public boolean interrupted() {
            return false;
        }

        @Override
        public RunOutcome run(Workload w, Path out) {
            long capacity = w.producerRate() == lucky && !rates.contains(lucky) ? lucky : this.capacity;
            rates.add(w.producerRate());
            long rate = w.producerRate() < 0 ? Math.min(capacity, generatorMax) : w.producerRate();
            long sendable = Math.min(rate, generatorMax);
            boolean over = sendable > capacity;
            boolean behind = rate > generatorMax;
            long acked = Math.min(sendable, capacity);
            long read = Math.min(acked, consumerMax);
            ClientSample producers = new ClientSample(2, java.util.Map.of("kbench-buffer-wait-ratio",
                    over ? 1 - (double) capacity / sendable : 0.0));
            double load = Math.min(0.999, (double) acked / capacity);
            long response = (long) (baseMicros / (1 - load)) + (over ? 2 * S : 0);
            Histogram resp = LatencyHistograms.create();
            Histogram delay = LatencyHistograms.create();
            List<MergedInterval> intervals = new ArrayList<>();
            for (int i = 0; i < WARMUP + DURATION; i++) {
                Histogram d = LatencyHistograms.create();
                d.recordValueWithCount(over || behind ? 50_000L * (i + 1) : 200, acked);
                Histogram r = LatencyHistograms.create();
                r.recordValueWithCount(response, acked);
                if (i >= WARMUP) {
                    resp.add(r);
                    delay.add(d);
                }
                EnumMap<Metric, Histogram> hs = new EnumMap<>(Metric.class);
                hs.put(Metric.PUBLISH_DELAY, d);
                hs.put(Metric.PUBLISH_RESPONSE, r);
                intervals.add(new MergedInterval(i, i * S, (i + 1) * S, new Counters(acked, acked, 0, acked * 100, read,
                        read * 100, 0, 0), MergedInterval.statsOf(hs), 1, List.of(), 10, producers,
                        ClientSample.NONE));
            }
            EnumMap<Metric, Histogram> summaryHistograms = new EnumMap<>(Metric.class);
            for (Metric m : Metric.values()) {
                summaryHistograms.put(m, LatencyHistograms.create());
            }
            summaryHistograms.put(Metric.PUBLISH_RESPONSE, resp);
            summaryHistograms.put(Metric.PUBLISH_DELAY, delay);
            Summary summary = Summary.of(intervals, WARMUP * S, (WARMUP + DURATION) * S,
                    w.saturationDelayMillis() * 1000, summaryHistograms);
            ResultFile.Run result = ResultDocument.build(String.format("20260101-000000-%04x", rates.size()), "COMPLETED", null, Instant.EPOCH, w,
                    Profile.defaults(), List.of(), List.of("t"), 0, WARMUP * S, (WARMUP + DURATION) * S, intervals,
                    summary, null, 0, List.of(), List.of(), new FaultTimeline(), null, io.kbench.protocol.ShareSpread.NONE);
            if (diagnosis != null) {
                result = result.withDiagnosis(behind || read < acked ? diagnosis : new ResultFile.Diagnosis("none", 0.0, List.of(),
                        List.of(), List.of()));
            }
            try {
                return new RunOutcome(true, ResultDocument.write(out, result), null, summary, result, intervals,
                        WARMUP * S, (WARMUP + DURATION) * S);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static Workload workload(long rate) {
        Workload w = Workload.timed("sim", 1, 6, 100, 2, 1, 2, 1000, WARMUP, DURATION);
        return w.withProducerRate(rate);
    }

    private MaxRateSearch.Found search(Simulated sim, long rate, List<Slo> slos, ByteArrayOutputStream console) {
        return new MaxRateSearch(workload(rate), slos, 0.02, 20, dir,
                new PrintStream(console, true, StandardCharsets.UTF_8), sim).run();
    }

    /** A search without objectives from {@code rate}, and what it printed. */
    private record Searched(MaxRateSearch.Found found, String text) {
        long max() {
            return found.search().maxSustainableRate();
        }

        String limitedBy() {
            return found.search().limitedBy();
        }
    }

    /**
     * A search on workers in its own process (the embedded default) answers for a JVM its trials warmed: a plain run at
     * the answer, a fresh JVM, is told what it needs. Not for workers that stay up, nor for an answer from trial 1.
     */
    @Test
    void shouldSayThatAPlainRunAtTheAnswerStartsColdWhenTheTrialsRanInThisProcess() {
        java.util.function.Function<String, ResultFile.Worker> worker = address -> new ResultFile.Worker("w", address, 0,
                0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, null);
        String note = MaxRateSearch.warmNote(20, List.of(worker.apply("in-process:local-1")), 5, 790_000);
        assertEquals("warm: trial 20 ran in this process after 19 trial(s) had warmed it (the JIT had compiled the "
                + "load's code); a plain run at 790,000 msg/s starts a fresh process, slower for its first half minute or "
                + "so: give it warmupSeconds: 30 or more (this workload has 5 s), or workers that stay up (kbench worker, "
                + "--workers) — docs/capacity.md#reading-the-answer", note);
        assertTrue(MaxRateSearch.warmNote(3, List.of(worker.apply("in-process:local-1")), 30, 1_000)
                .contains("warmupSeconds: 30 or more (as this workload has)"));
        assertTrue(MaxRateSearch.warmNote(3, List.of(worker.apply("in-process:local-1")), 0, 1_000)
                .contains("warmupSeconds: 30 or more (this workload has none)"));
        assertNull(MaxRateSearch.warmNote(20, List.of(worker.apply("10.0.0.1:7070")), 5, 790_000), "workers stay up");
        assertNull(MaxRateSearch.warmNote(20, List.of(worker.apply("in-process:local-1"), worker.apply("10.0.0.1:7070")),
                5, 790_000), "one of them stays up: said of the in-process ones alone it would mislead");
        assertNull(MaxRateSearch.warmNote(1, List.of(worker.apply("in-process:local-1")), 5, 790_000),
                "the first trial ran cold as a plain run does");
    }

    private Searched searched(Simulated sim, long rate) {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        MaxRateSearch.Found found = search(sim, rate, List.of(), console);
        return new Searched(found, console.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldFindTheCapacityWithoutObjectivesAndLessUnderATightOne() throws Exception {
        Simulated free = new Simulated(50_000, 2_000);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        MaxRateSearch.Found found = search(free, 5_000, List.of(), console);
        long max = found.search().maxSustainableRate();
        assertTrue(max <= 50_000 && max >= 49_000, max + " after " + free.rates);
        assertTrue(found.search().converged());
        assertEquals(5_000L, free.rates.get(0), "starts at the workload's rate");

        // response time 2 ms / (1 - load): p99 <= 10 ms holds up to 80% load
        Simulated slo = new Simulated(50_000, 2_000);
        MaxRateSearch.Found under = search(slo, 5_000, List.of(Slo.parse("publishResponse.p99<=10ms")),
                new ByteArrayOutputStream());
        long limited = under.search().maxSustainableRate();
        assertTrue(limited <= 40_000 && limited >= 39_000, limited + " after " + slo.rates);
        String text = console.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("max sustainable rate: " + String.format("%,d", max) + " msg/s (converged"), text);
        assertTrue(text.contains("max-rate search trials:"), text);
        assertTrue(text.contains("FAIL (cluster): the producers sent 50,000 msg/s over the window"), text);
        assertTrue(text.contains("limited by the cluster at "), text);
        assertEquals("cluster", found.search().limitedBy());
        assertTrue(found.search().confidence().matches(String.format("%,d", max) + " msg/s passed 2 of 2 trial\\(s\\); "
                + "[0-9,]+ msg/s failed 2 of 2"), found.search().confidence());
    }

    @Test
    void shouldDecideTheRateFoundWithTheLastTrials() throws Exception {
        // capacity 100,000, but the first trial at 160,000 passes: the last two trials run it again, and it fails both
        Simulated sim = new Simulated(100_000, 2_000);
        sim.lucky = 160_000;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        MaxRateSearch.Found found = search(sim, 10_000, List.of(), console);
        assertEquals(List.of(160_000L, 160_000L), sim.rates.subList(18, 20), sim.rates.toString());
        ResultFile.RateSearch r = found.search();
        assertEquals(80_000L, r.maxSustainableRate(), "160,000 passed 1 of 3: " + sim.rates);
        assertFalse(r.converged(), "stopped on --max-trials");
        assertEquals("80,000 msg/s passed 1 of 1 trial(s); 160,000 msg/s failed 2 of 3", r.confidence());
        String text = console.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("max sustainable rate: 80,000 msg/s (stopped after 20 trial(s) (--max-trials): the "
                + "maximum lies between 80,000 and 160,000 msg/s)"), text);
        JsonNode doc = ResultDocument.JSON.readTree(dir.resolve("result.json").toFile());
        assertEquals(80_000L, doc.get("workload").get("producerRate").asLong(), "the answer's own trial's result");
        assertFalse(doc.get("rateSearch").get("converged").asBoolean());
        assertEquals(List.of(), ResultSchema.validate(Files.readString(dir.resolve("result.json"))));
    }

    /**
     * Six trials: 10,000 to 80,000 pass (80,000 twice) and 160,000 fails once, not run again. No rate was ruled out,
     * but "nothing found" would deny the failed trial beside it: the line says what failed there, as one failure.
     */
    @Test
    void shouldSayWhatFailedAboveTheAnswerWhenTheSearchStoppedBeforeConfirmingIt() {
        Simulated sim = new Simulated(100_000, 2_000);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        MaxRateSearch.Found found = new MaxRateSearch(workload(10_000), List.of(), 0.02, 6, dir,
                new PrintStream(console, true, StandardCharsets.UTF_8), sim).run();
        assertEquals(List.of(10_000L, 20_000L, 40_000L, 80_000L, 80_000L, 160_000L), sim.rates);
        assertEquals(80_000L, found.search().maxSustainableRate());
        assertEquals("cluster", found.search().limitedBy());
        String text = console.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("nothing found"), text);
        assertTrue(text.contains("limited by the cluster at 160,000 msg/s: "), text);
        assertTrue(text.contains(" (one failed trial at 160,000 msg/s, not confirmed: the search stopped before running "
                + "that rate again)"), text);
    }

    @Test
    void shouldSayTheLoadGeneratorNotTheClusterLimitedTheSearch() {
        // the cluster takes 100,000 msg/s, the generator sends at most 30,000 without ever waiting for the cluster
        Simulated sim = new Simulated(100_000, 2_000, 30_000);
        Searched s = searched(sim, 5_000);
        long max = s.max();
        assertTrue(max <= 30_000 && max >= 29_000, max + " after " + sim.rates);
        assertEquals("generator", s.limitedBy());
        assertTrue(s.text().contains("limited by the load generator (worker CPU) at "), s.text());
        assertTrue(s.text().contains("add workers or cores (the cluster took at least " + String.format("%,d", max)
                + " msg/s)"), s.text());
        for (ResultFile.Trial t : s.found().search().trials()) {
            assertEquals(t.passed() ? "none" : "generator", t.cause(), t.toString());
        }
    }

    @Test
    void shouldSayTheCommitsLimitedTheSearchWhenTheTrialsDiagnosesSaySo() {
        // the same generator-bound search, each trial that fell behind diagnosed "transactions" by its run
        Simulated sim = new Simulated(100_000, 2_000, 30_000);
        sim.diagnosis = new ResultFile.Diagnosis("transactions", 0.7, List.of(new ResultFile.Evidence(
                "commitBlockedShare", 0.41, null, null, "2,003 commit(s) in the window (100/s), 8.21 ms on average")),
                List.of("more messages per transaction"), List.of());
        Searched searched = searched(sim, 5_000);
        assertEquals("transactions", searched.limitedBy());
        String text = searched.text();
        assertTrue(text.contains("limited by the producers' transaction commits at "), text);
        assertTrue(text.contains("; 2,003 commit(s) in the window (100/s), 8.21 ms on average — each "
                + "commitTransaction() blocks its producer's sends"), text);
        assertFalse(text.contains("add workers or cores"), text);
    }

    /**
     * Consumers that read at most 3,480 msg/s (4 share consumers at 1 ms a message, measured), on a cluster that takes
     * 100,000: the trials above fail for the consumers, and their diagnoses name them — the search says the consumers,
     * not the cluster, kept the rate down.
     */
    @Test
    void shouldSayTheConsumersLimitedTheSearchWhenTheTrialsDiagnosesSaySo() {
        Simulated sim = new Simulated(100_000, 2_000);
        sim.consumerMax = 3_480;
        sim.diagnosis = new ResultFile.Diagnosis("consumers", 0.5, List.of(new ResultFile.Evidence(
                "consumerLagGrowthSeconds", 5.0, ">", 1.0, "a group's consumers left unread")), List.of("more consumers"),
                List.of());
        Searched s = searched(sim, 1_000);
        long max = s.max();
        assertTrue(max <= 3_480 && max >= 3_000, max + " after " + sim.rates);
        assertEquals("consumers", s.limitedBy());
        assertTrue(s.text().contains("limited by the consumers at "), s.text());
        assertTrue(s.text().contains("not the cluster (it took at least " + String.format("%,d", max) + " msg/s)"),
                s.text());
        // the same with the brokers unread: the line does not claim they had room
        Simulated unread = new Simulated(100_000, 2_000);
        unread.consumerMax = 3_480;
        unread.diagnosis = new ResultFile.Diagnosis("consumers", 0.5, List.of(new ResultFile.Evidence(
                "consumerLagGrowthSeconds", 5.0, ">", 1.0, "a group's consumers left unread"), new ResultFile.Evidence(
                "brokers", null, null, null, "the brokers were not read (--broker-jmx, --broker-metrics): they may be "
                + "the cause")), List.of("more consumers"), List.of());
        Searched u = searched(unread, 1_000);
        assertEquals("consumers", u.limitedBy());
        String said = u.text();
        assertTrue(said.contains("a limit of theirs would look the same from the consumers") && !said.contains("with room"),
                said);
        // the same consumers with diagnoses that found a broker limit: the cluster's
        Simulated broker = new Simulated(100_000, 2_000);
        broker.consumerMax = 3_480;
        broker.diagnosis = new ResultFile.Diagnosis("broker-network-threads", 0.5, List.of(), List.of(), List.of());
        assertEquals("cluster", searched(broker, 1_000).limitedBy());
    }

    @Test
    void shouldProbeUnthrottledWhenTheWorkloadHasNoRateAndWriteTheBestTrialsResultWithTheSearch() throws Exception {
        Simulated sim = new Simulated(20_000, 1_000);
        MaxRateSearch.Found found = search(sim, Workload.UNTHROTTLED, List.of(Slo.parse("publishResponse.p99<=5ms")),
                new ByteArrayOutputStream());
        assertEquals(-1L, sim.rates.get(0), "the probe runs unthrottled");
        assertEquals(20_000L, sim.rates.get(1), "the search starts at the probe's rate");
        long max = found.search().maxSustainableRate();
        assertTrue(max <= 16_000 && max >= 15_600, max + " after " + sim.rates);
        JsonNode doc = ResultDocument.JSON.readTree(dir.resolve("result.json").toFile());
        JsonNode search = doc.get("rateSearch");
        assertEquals(max, search.get("maxSustainableRate").asLong());
        assertEquals(max, doc.get("workload").get("producerRate").asLong(), "the result is the passing trial's own");
        assertEquals("probe", search.get("trials").get(0).get("phase").asText());
        assertFalse(search.get("trials").get(0).get("passed").asBoolean());
        int trials = search.get("trials").size();
        assertEquals(sim.rates.size(), trials);
        for (JsonNode t : search.get("trials")) {
            assertTrue(Files.exists(dir.resolve(t.get("result").asText())), t.toString());
            assertTrue(t.get("summary").has("publishRate"));
            assertEquals(t.get("passed").asBoolean(), t.get("reasons").isEmpty(), t.toString());
            if (t.get("targetRate").asLong() > max) {
                assertFalse(t.get("passed").asBoolean(), "a rate above the one reported failed: " + t);
            }
        }
        assertEquals("publishResponse.p99<=5ms", search.get("slos").get(0).asText());
        assertTrue(Files.exists(dir.resolve("report.html")));
        assertEquals(List.of(), ResultSchema.validate(Files.readString(dir.resolve("result.json"))));
    }

    @Test
    void shouldReportNoRateWhenEvenOneMessagePerProducerMissesTheObjective() {
        Simulated sim = new Simulated(10_000, 5_000);
        MaxRateSearch.Found found = search(sim, 1_000, List.of(Slo.parse("publishResponse.p99<=1ms")),
                new ByteArrayOutputStream());
        assertNull(found.search().maxSustainableRate());
        assertFalse(found.found());
        assertEquals(2L, sim.rates.get(sim.rates.size() - 1), "down to 1 msg/s per producer");
        assertTrue(found.search().outcome().startsWith("no rate passed"), found.search().outcome());
        assertTrue(Files.exists(dir.resolve("result.json")), "the last trial's result carries the search");
    }

    @Test
    void shouldRefuseWhatItCannotSearchBeforeAnyTrial() {
        Workload none = Workload.timed("x", 1, 1, 100, 1, 0, 1, 100, 0, 5);
        UserException e = assertThrows(UserException.class, () -> MaxRateSearch.check(none,
                List.of(Slo.parse("endToEnd.p99<=5ms"))));
        assertTrue(e.getMessage().contains("end-to-end latency needs consumers"), e.getMessage());
        e = assertThrows(UserException.class, () -> MaxRateSearch.check(workload(100),
                List.of(Slo.parse("transactionCommit.p99<=5ms"))));
        assertTrue(e.getMessage().contains("transactional workload"), e.getMessage());
    }
}
