package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kbench run --json}: stdout carries exactly one JSON object per interval; intervals.csv one row per interval. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JsonOutputIT {
    @TempDir
    Path dir;

    @Test
    void shouldPrintOneJsonLinePerIntervalAndNothingElseOnStdout() throws Exception {
        Path workload = Files.writeString(dir.resolve("w.yaml"), """
                name: json
                topics: 1
                partitionsPerTopic: 3
                messageSize: 100
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                consumersPerSubscription: 1
                producerRate: 1000
                warmupSeconds: 1
                durationSeconds: 3
                """);
        Path out = dir.resolve("out");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int code;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            code = Main.execute("run", "--json", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    out.toString(), workload.toString());
        } finally {
            System.setOut(saved);
        }
        assertEquals(0, code);
        List<String> lines = stdout.toString(StandardCharsets.UTF_8).lines().toList();
        JsonNode result = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals(result.get("intervals").size(), lines.size(), String.join("\n", lines));
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = new ObjectMapper().readTree(lines.get(i));
            assertEquals(i, line.get("index").asInt());
            assertEquals(result.get("intervals").get(i).get("publish").get("acked"), line.get("publish").get("acked"));
        }
        assertFalse(lines.stream().anyMatch(l -> l.contains("COMPLETED")), "the summary goes to stderr");
        List<String> csv = Files.readAllLines(out.resolve("intervals.csv"));
        assertEquals(lines.size() + 1, csv.size());
        assertTrue(csv.get(0).startsWith("index,startMillis,endMillis,warmup,saturated"), csv.get(0));
    }
}
