package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A backlog run: consumers wait until the backlog is built, then the catch-up read is measured. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class BacklogIT {
    @TempDir
    Path dir;

    @Test
    void shouldReportTheCatchUpReadRateOfTheBacklog() throws Exception {
        Path workload = Files.writeString(dir.resolve("backlog.yaml"), """
                partitionsPerTopic: 3
                messageSize: 100
                producerRate: 5000
                consumerBacklogRecords: 15000
                durationSeconds: 8
                """);
        JsonNode r;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            r = InProcessRun.run(kafka, workload, dir.resolve("out"));
        }
        JsonNode s = r.get("summary");
        assertEquals(s.get("acked").asLong(), s.get("received").asLong(), "everything read in the end");
        JsonNode c = s.get("catchUp");
        assertTrue(c != null, s.toString());
        assertTrue(c.get("backlogRecords").asLong() >= 15_000, c.toString());
        // the consumers were held: nothing received in the first 3 seconds (15,000 at 5,000 msg/s)
        for (int i = 0; i < 2; i++) {
            assertEquals(0, r.get("intervals").get(i).get("consume").get("received").asLong(), "interval " + i);
        }
        // catching up means reading faster than the producers write
        assertTrue(c.get("rate").asDouble() > 5_000, c.toString());
        assertTrue(c.get("seconds").asDouble() > 0, c.toString());
        assertEquals(0, r.get("issues").size(), r.get("issues").toString());
        // the run's end-to-end figures hold the backlog's wait (15,000 messages held about 3 s); after the catch-up the
        // live latency is kept apart, from the interval after the one in which the backlog was read
        JsonNode after = c.get("endToEndAfterMicros");
        assertTrue(after != null && after.get("count").asLong() > 0, c.toString());
        assertTrue(c.get("afterMillis").asLong() >= c.get("releaseMillis").asLong() + (long) (1000 * c.get("seconds")
                .asDouble()), c.toString());
        assertTrue(after.get("p99").asLong() * 2 < s.get("endToEndLatencyMicros").get("p99").asLong(),
                after + " against " + s.get("endToEndLatencyMicros"));
        assertTrue(after.get("count").asLong() < s.get("endToEndLatencyMicros").get("count").asLong());
    }
}
