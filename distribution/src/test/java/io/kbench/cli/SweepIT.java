package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** A two-value sweep runs both combinations against a real broker and ends with its comparison table. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SweepIT {
    @TempDir
    Path dir;

    @Test
    void shouldRunEachCombinationAndWriteTheComparisonTable() throws Exception {
        Path workload = dir.resolve("acks-sweep.yaml");
        Files.writeString(workload, """
                partitionsPerTopic: 3
                messageSize: 200
                producerRate: 5000
                numRecords: 5000
                matrix:
                  producer.acks: [1, all]
                """);
        Path out = dir.resolve("out");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            assertEquals(0, Main.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    out.toString(), workload.toString()));
        }
        List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
        assertEquals(3, csv.size(), csv.toString());
        assertEquals("producer.acks,status,targetRate,publishRate,publishMBps,publishP50Ms,publishP99Ms,publishP999Ms,"
                + "publishResponseP99Ms,endToEndP99Ms,saturatedIntervals,fellBehind,limitedBy,result", csv.get(0));
        assertTrue(csv.get(1).startsWith("1,COMPLETED,5000,"), csv.get(1));
        assertTrue(csv.get(2).startsWith("all,COMPLETED,5000,"), csv.get(2));

        JsonNode sweep = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertEquals(2, sweep.get("runs").size());
        for (int i = 0; i < 2; i++) {
            JsonNode run = sweep.get("runs").get(i);
            assertTrue(run.get("publishLatencyMicros").get("p99").asLong() > 0);
            JsonNode result = new ObjectMapper().readTree(Path.of(run.get("result").asText()).toFile());
            assertEquals(5000, result.get("summary").get("sent").asLong());
            assertEquals(i == 0 ? "1" : "all", result.get("profile").get("producer").get("acks").asText(),
                    "each combination runs with its own profile override");
            assertEquals(result.get("diagnosis").get("limit").asText(), run.get("limitedBy").asText(),
                    "the table names what limited each combination, as its result does");
        }

        // the sweep's own page, opened in headless Chromium: three charts over the two combinations, no errors
        Path page = out.resolve("report.html");
        assertTrue(Files.isRegularFile(page));
        String dom = Chromium.dumpDom(Chromium.require(), page, Files.createDirectories(dir.resolve("chromium")));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<pre id=\"kbench-selfcheck\">([^<]*)</pre>").matcher(dom);
        assertTrue(m.find(), dom.substring(0, Math.min(300, dom.length())));
        JsonNode check = new ObjectMapper().readTree(m.group(1).replace("&quot;", "\""));
        assertEquals(0, check.get("errors").size(), check.toString());
        assertEquals(2, check.get("charts").get("sweep-rate").asInt(), check.toString());
        assertEquals(2, check.get("charts").get("sweep-latency").asInt(), check.toString());
        assertEquals(2, check.get("charts").get("sweep-saturated").asInt(), check.toString());
        assertTrue(dom.contains("01-producer.acks=1/report.html") || dom.contains("report.html\">report"), "rows link to their reports");
    }

    @Test
    void shouldWriteTheTableWithTheRestSkippedWhenStoppedBySigterm() throws Exception {
        Path workload = dir.resolve("interrupted-sweep.yaml");
        Files.writeString(workload, """
                partitionsPerTopic: 1
                messageSize: 100
                producerRate: 1000
                durationSeconds: 4
                matrix:
                  producer.linger.ms: [0, 1, 2]
                """);
        Path out = dir.resolve("interrupted");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             KbenchProcesses procs = new KbenchProcesses("sweep-sigterm")) {
            Process run = procs.start("run", "run", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    out.toString(), workload.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!procs.output("run").contains("=== sweep 2/3")) {
                assertTrue(run.isAlive() && System.nanoTime() < deadline, procs.output("run") + procs.errors("run"));
                Thread.sleep(100);
            }
            Thread.sleep(1500); // the second combination is running
            run.destroy(); // SIGTERM, as Ctrl-C or a CI job's timeout sends
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the coordinator ends after SIGTERM");
            List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
            assertEquals(4, csv.size(), "a row per combination: " + csv);
            assertTrue(csv.get(1).startsWith("0,COMPLETED,"), csv.get(1));
            assertTrue(csv.get(2).startsWith("1,FAILED,"), csv.get(2));
            assertTrue(csv.get(3).startsWith("2,SKIPPED,"), csv.get(3));
            assertTrue(Files.isRegularFile(out.resolve("sweep.json")));
            assertTrue(Files.isRegularFile(out.resolve("report.html")));
            assertTrue(Files.isRegularFile(out.resolve("02-producer.linger.ms=1/result.json")),
                    "the interrupted combination keeps what it gathered");
        }
    }
}
