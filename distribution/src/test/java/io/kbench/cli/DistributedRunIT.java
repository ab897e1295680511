package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walking skeleton end to end: a real KRaft broker, two workers and the coordinator, each in its own
 * JVM, talking gRPC over loopback.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DistributedRunIT {
    /**
     * The whole target, over both workers: what two new worker JVMs, the coordinator and the broker keep on 2 shared
     * cores (20,000 fell 4% short over warm-up and window together on the slower VM of 2026-11-28); how fast a
     * worker can go is benchmarks/'s question, this test's is the distributed run.
     */
    private static final long RATE = 10_000;
    /** The measured window: every figure below is checked over it, and 12 s hold them as 20 s did (suite time). */
    private static final int SECONDS = 12;

    @TempDir
    Path dir;

    @Test
    void shouldRunTwoWorkerProcessesAtTheTargetRateWithoutLosingAMessage() throws Exception {
        Path workload = dir.resolve("two-topics.yaml");
        Files.writeString(workload, """
                name: two-topics
                topics: 2
                partitionsPerTopic: 3
                messageSize: 100
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                consumersPerSubscription: 2
                producerRate: %d
                warmupSeconds: 2
                durationSeconds: %d
                """.formatted(RATE, SECONDS));
        Path out = dir.resolve("out");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             KbenchProcesses procs = new KbenchProcesses("distributed-run")) {
            int p1 = KbenchProcesses.freePort();
            int p2 = KbenchProcesses.freePort();
            Process w1 = procs.start("worker-1", "worker", "--bind", "127.0.0.1", "--port", "" + p1, "--id", "w1");
            Process w2 = procs.start("worker-2", "worker", "--bind", "127.0.0.1", "--port", "" + p2, "--id", "w2");
            KbenchProcesses.awaitListening(p1, w1);
            KbenchProcesses.awaitListening(p2, w2);

            Process coordinator = procs.start("coordinator", "run", "--workers", "127.0.0.1:" + p1 + ",127.0.0.1:" + p2,
                    "--bootstrap-servers", kafka.bootstrapServers(), "--output", out.toString(), workload.toString());
            assertTrue(coordinator.waitFor(150, TimeUnit.SECONDS), "coordinator did not finish");
            assertEquals(0, coordinator.exitValue(), () -> "coordinator failed:\n" + read(procs, "coordinator"));

            String console = procs.output("coordinator");
            assertTrue(console.lines().filter(l -> l.contains("| pub ")).count() >= SECONDS, console);

            JsonNode result = new ObjectMapper().readTree(out.resolve("result.json").toFile());
            assertEquals("COMPLETED", result.get("status").asText());
            JsonNode s = result.get("summary");
            long sent = s.get("sent").asLong();
            assertTrue(sent >= RATE * (SECONDS + 2) * 0.98, "sent " + sent);
            assertEquals(sent, s.get("acked").asLong(), "acked");
            assertEquals(sent, s.get("received").asLong(), "received (1 subscription)");
            assertEquals(0, s.get("failed").asLong());

            JsonNode workers = result.get("workers");
            assertEquals(2, workers.size());
            for (String counter : new String[] {"sent", "acked", "received"}) {
                long sum = 0;
                for (JsonNode w : workers) {
                    assertTrue(w.get(counter).asLong() > 0, "worker " + w.get("id") + " " + counter);
                    sum += w.get(counter).asLong();
                }
                assertEquals(s.get(counter).asLong(), sum, "per-worker " + counter + " must sum to the total");
            }
            double rate = s.get("publishRate").asDouble();
            assertTrue(Math.abs(rate - RATE) <= RATE * 0.02, "publish rate " + rate + " not within 2% of " + RATE);

            for (String metric : new String[] {"publishLatencyMicros", "publishResponseMicros", "publishDelayMicros",
                    "endToEndLatencyMicros"}) {
                JsonNode m = s.get(metric);
                assertTrue(m.get("count").asLong() > 0, metric + " empty");
                long previous = 0;
                for (String p : new String[] {"p50", "p75", "p95", "p99", "p999", "p9999", "max"}) {
                    long v = m.get(p).asLong();
                    assertTrue(v > 0 && v >= previous && v < LatencyHistograms.HIGHEST_TRACKABLE_MICROS,
                            metric + "." + p + " = " + v);
                    previous = v;
                }
                Histogram h = LatencyHistograms.decode(Base64.getDecoder().decode(result.get("histograms").get(metric).asText()));
                assertEquals(m.get("count").asLong(), h.getTotalCount(), metric + " histogram count");
            }
            assertTrue(result.get("intervals").size() >= SECONDS + 2);
            // the raw interval histograms: one log per metric, each worker's lines tagged, the cluster's untagged;
            // each adds up to the run's acks
            for (String metric : new String[] {"publishLatencyMicros", "publishResponseMicros", "publishDelayMicros",
                    "endToEndLatencyMicros"}) {
                assertTrue(Files.exists(out.resolve(metric + ".hlog")), metric);
            }
            long logged = 0;
            java.util.Map<String, Long> perTag = new java.util.HashMap<>();
            org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(
                    out.resolve("publishLatencyMicros.hlog").toFile());
            org.HdrHistogram.EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                perTag.merge(String.valueOf(h.getTag()), ((Histogram) h).getTotalCount(), Long::sum);
            }
            assertEquals(java.util.Set.of("null", "w1", "w2"), perTag.keySet());
            assertEquals(perTag.get("null"), perTag.get("w1") + perTag.get("w2"), "the untagged lines are the workers' added");
            logged = perTag.get("null");
            assertEquals(s.get("acked").asLong(), logged, "acks in the .hlog files");
            // the only issue such a run may have is a short warm-up: two new worker JVMs on 2 cores shared with the
            // broker may send a fraction of a percent of the warm-up late (seen: 99.4%), which the measured window
            // does not inherit (its producers skip what is left, and the window's counts are checked above)
            for (JsonNode issue : result.get("issues")) {
                assertTrue(issue.asText().startsWith("the warm-up sent "), result.get("issues").toString());
            }
        }
    }

    private static String read(KbenchProcesses procs, String name) {
        try {
            return procs.output(name) + procs.errors(name);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
