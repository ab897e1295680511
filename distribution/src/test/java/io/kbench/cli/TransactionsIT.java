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

/** Transactional producers commit every N records; read_committed consumers see every record. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TransactionsIT {
    @TempDir
    Path dir;

    @Test
    void shouldCommitEveryHundredRecordsAndLetReadCommittedConsumersSeeThemAll() throws Exception {
        Path workload = Files.writeString(dir.resolve("txn.yaml"), """
                partitionsPerTopic: 3
                messageSize: 100
                producersPerTopic: 2
                producerRate: 4000
                numRecords: 10000
                transactionRecords: 100
                """);
        JsonNode r;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            r = InProcessRun.run(kafka, workload, dir.resolve("out"));
        }
        JsonNode s = r.get("summary");
        assertEquals(10_000, s.get("acked").asLong());
        assertEquals(10_000, s.get("received").asLong(), "read_committed consumers see every committed record");
        assertEquals("read_committed", r.get("profile").get("consumer").get("isolation.level").asText());
        JsonNode commits = s.get("transactionCommitMicros");
        assertEquals(100, commits.get("count").asLong(), "2 producers x 5,000 records / 100 per transaction");
        assertTrue(commits.get("p50").asLong() > 0, commits.toString());
        long perInterval = 0; // each interval's commits, as the diagnosis reads them (schema 16)
        for (JsonNode i : r.get("intervals")) {
            JsonNode c = i.get("publish").get("transactionCommitMicros");
            perInterval += c == null ? 0 : c.get("count").asLong();
        }
        assertEquals(100, perInterval, "every commit in some interval's publish.transactionCommitMicros");
        assertEquals(0, r.get("issues").size(), r.get("issues").toString());
    }
}
