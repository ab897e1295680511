package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.MicrosClock;
import io.kbench.worker.WorkerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end latency across workers whose clocks disagree: one worker's clock runs 50 ms ahead. Both
 * workers produce and consume (messages cross from one to the other), so an uncorrected skew would put
 * half the samples 50 ms too high and half 50 ms below zero. The workers run in this JVM, each with its own
 * clock, so the true offsets are known exactly and the coordinator's estimates (taken over gRPC like any
 * other worker's, and re-estimated during the run) can be held to their stated bounds.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClockSkewIT {
    private static final long SKEW = 50_000;

    @TempDir
    Path dir;

    @Test
    void shouldReportEndToEndLatencyWithinTheStatedBoundDespiteA50msSkew() throws Exception {
        Path workload = dir.resolve("skew.yaml");
        Files.writeString(workload, """
                name: skew
                topics: 1
                partitionsPerTopic: 4
                messageSize: 100
                producersPerTopic: 2
                subscriptionsPerTopic: 1
                consumersPerSubscription: 2
                producerRate: 2000
                warmupSeconds: 1
                durationSeconds: 24
                """);
        MicrosClock skewed = new MicrosClock(SKEW);
        MicrosClock straight = new MicrosClock(0);
        long now = System.nanoTime();
        long trueSkewed = skewed.toMicros(now) - MicrosClock.SYSTEM.toMicros(now);
        long trueStraight = straight.toMicros(now) - MicrosClock.SYSTEM.toMicros(now);
        Path out = dir.resolve("out");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             WorkerServer a = WorkerServer.start("127.0.0.1", 0, "skewed", skewed);
             WorkerServer b = WorkerServer.start("127.0.0.1", 0, "straight", straight)) {
            assertEquals(0, Main.execute("run", "--workers", "127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port(),
                    "--bootstrap-servers", kafka.bootstrapServers(), "--output", out.toString(), workload.toString()));
        }
        JsonNode r = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        long error = 0;
        for (JsonNode w : r.get("workers")) {
            long truth = w.get("id").asText().equals("skewed") ? trueSkewed : trueStraight;
            long estimate = w.get("clockOffsetMicros").asLong() + w.get("clockDriftMicros").asLong();
            long bound = w.get("clockUncertaintyMicros").asLong();
            assertTrue(w.get("clockEstimates").asInt() >= 3, "re-estimated during the run: " + w);
            assertTrue(Math.abs(estimate - truth) <= bound,
                    w.get("id").asText() + ": offset " + estimate + " µs, truth " + truth + " ± " + bound);
            assertTrue(w.get("producers").asInt() > 0 && w.get("consumers").asInt() > 0, "both produce and consume");
            error += Math.abs(estimate - truth);
        }
        JsonNode e2e = r.get("summary").get("endToEndLatencyMicros");
        long stated = e2e.get("uncertaintyMicros").asLong();
        assertTrue(stated > 0 && error <= stated, "the offsets' errors (" + error + " µs) are within the stated e2e bound "
                + stated + " µs");
        assertTrue(stated < 10_000, "a useful bound on loopback: " + stated);
        long negative = r.get("summary").get("negativeEndToEnd").asLong();
        assertTrue(negative <= e2e.get("count").asLong() / 1000, negative + " negative samples");
        assertTrue(e2e.get("p50").asLong() < SKEW / 2, "no sample is off by the skew: p50 " + e2e.get("p50"));
        assertTrue(e2e.get("p50").asLong() > 0);
        assertEquals(0, r.get("summary").get("verification").get("lost").asLong());
    }
}
