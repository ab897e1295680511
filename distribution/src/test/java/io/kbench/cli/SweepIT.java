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

/**
 * A two-value sweep runs both combinations against a real broker and ends with its comparison table; a sweep of a
 * broker setting applies it cluster-wide per combination and puts it back, also when stopped by SIGTERM; a setting
 * the brokers cannot change while they run is refused before any load.
 */
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
        Path bad = dir.resolve("static-setting.yaml");
        Files.writeString(bad, """
                producerRate: 100
                durationSeconds: 1
                matrix:
                  broker.num.partitions: [2, 3]
                """);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            assertEquals(0, Main.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--prime", "1s",
                    "--output", out.toString(), workload.toString()));
            // num.partitions is read-only while a broker runs: refused by the cluster's own check, before any load
            assertEquals(2, Main.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    dir.resolve("refused").toString(), bad.toString()));
            assertTrue(!Files.exists(dir.resolve("refused")), "nothing ran, nothing was written");
            // a combination whose producers no heap holds: the whole sweep refused before its first row, not after it
            Path huge = dir.resolve("huge-buffers.yaml");
            Files.writeString(huge, """
                    producerRate: -1
                    durationSeconds: 1
                    matrix:
                      producer.buffer.memory: [33554432, 9223372036854775807]
                    """);
            InProcessRun.Outcome tooBig = InProcessRun.execute("run", "--bootstrap-servers", kafka.bootstrapServers(),
                    "--prime", "0", "--output", dir.resolve("too-big").toString(), huge.toString());
            assertEquals(2, tooBig.exitCode(), tooBig.stderr());
            assertTrue(tooBig.stderr().contains("kbench: sweep combination 2 of 2 (producer.buffer.memory="
                    + "9223372036854775807): worker local-1's share of the run does not fit its heap: "), tooBig.stderr());
            assertTrue(!Files.exists(dir.resolve("too-big")), "no row ran, nothing was written");
        }
        List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
        assertEquals(3, csv.size(), csv.toString());
        assertEquals("producer.acks,status,targetRate,publishRate,publishMBps,brokerInMBps,replicationMBps,consumeMBps,publishP50Ms,"
                + "publishP99Ms,publishP999Ms,publishResponseP99Ms,endToEndP99Ms,saturatedIntervals,fellBehind,limitedBy,result",
                csv.get(0));
        assertTrue(csv.get(1).startsWith("1,COMPLETED,5000,"), csv.get(1));
        assertTrue(csv.get(2).startsWith("all,COMPLETED,5000,"), csv.get(2));

        JsonNode sweep = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertEquals(2, sweep.get("runs").size());
        // primed: the first combination's clients and settings for 1 s, timed although the workload sends a count
        JsonNode priming = sweep.get("priming");
        assertEquals(1, priming.get("seconds").asInt(), priming.toString());
        assertEquals("COMPLETED", priming.get("status").asText());
        JsonNode primer = new ObjectMapper().readTree(Path.of(priming.get("result").asText()).toFile());
        assertEquals(out.resolve("00-priming/result.json").toString(), priming.get("result").asText());
        assertEquals("1", primer.get("profile").get("producer").get("acks").asText(), "the first combination's settings");
        assertEquals(1, primer.get("workload").get("durationSeconds").asInt());
        assertEquals(0, primer.get("workload").get("warmupSeconds").asInt());
        for (int i = 0; i < 2; i++) {
            JsonNode run = sweep.get("runs").get(i);
            assertTrue(run.get("publishLatencyMicros").get("p99").asLong() > 0);
            assertTrue(run.get("consumeMBps").asDouble() > 0, run.toString());
            assertTrue(!run.has("replicationMBps") && !run.has("brokerInMBps"),
                    "a cluster whose brokers were not read: no replication figure, no bytes in " + run);
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
        assertEquals(2, check.get("charts").get("sweep-throughput").asInt(), check.toString());
        assertEquals(2, check.get("charts").get("sweep-saturated").asInt(), check.toString());
        assertTrue(dom.contains("01-producer.acks=1/report.html") || dom.contains("report.html\">report"), "rows link to their reports");
        assertTrue(dom.contains("<th>cons MB/s</th>") && !dom.contains("<th>brokers in MB/s</th>")
                        && !dom.contains("<th>repl MB/s</th>"),
                "the brokers were not read: the table has no columns of blanks for them");
    }

    @Test
    void shouldStartTheEmbeddedClusterWithAReadOnlyBrokerSettingAndAgainForTheNext() throws Exception {
        Path workload = dir.resolve("embedded-broker-sweep.yaml");
        Files.writeString(workload, """
                messageSize: 100
                producerRate: 200
                numRecords: 200
                matrix:
                  broker.num.partitions: [2, 3]
                """);
        Path out = dir.resolve("embedded");
        assertEquals(0, Main.execute("run", "--prime", "2", "--output", out.toString(), workload.toString()));
        for (String combination : List.of("00-priming", "01-broker.num.partitions=2", "02-broker.num.partitions=3")) {
            JsonNode r = new ObjectMapper().readTree(out.resolve(combination).resolve("result.json").toFile());
            assertEquals(combination.startsWith("00") ? "2" : combination.substring(combination.length() - 1), r.get("provenance").get("cluster").get("brokers")
                    .get(0).get("configs").get("num.partitions").asText(), "num.partitions is read-only while a broker runs: "
                    + "the embedded cluster was started with it");
            if (!combination.startsWith("00")) {
                assertEquals(200, r.get("summary").get("received").asLong());
            }
        }
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
                  broker.num.replica.fetchers: [2, 4, 8]
                """);
        Path out = dir.resolve("interrupted");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             KbenchProcesses procs = new KbenchProcesses("sweep-sigterm");
             org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                     java.util.Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            Process run = procs.start("run", "run", "--bootstrap-servers", kafka.bootstrapServers(), "--prime", "0",
                    "--output", out.toString(), workload.toString());
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
            assertTrue(csv.get(1).startsWith("2,COMPLETED,"), csv.get(1));
            assertTrue(csv.get(2).startsWith("4,FAILED,"), csv.get(2));
            assertTrue(csv.get(3).startsWith("8,SKIPPED,"), csv.get(3));
            assertTrue(Files.isRegularFile(out.resolve("sweep.json")));
            assertTrue(!new ObjectMapper().readTree(out.resolve("sweep.json").toFile()).has("priming"), "--prime 0");
            assertTrue(procs.output("run").contains("sweep: 3 combination(s), not primed: the first row ran "
                    + "on JVMs new to this load"), procs.output("run"));
            assertTrue(Files.isRegularFile(out.resolve("report.html")));
            Path second = out.resolve("02-broker.num.replica.fetchers=4/result.json");
            assertTrue(Files.isRegularFile(second), "the interrupted combination keeps what it gathered");
            JsonNode first = new ObjectMapper().readTree(out.resolve("01-broker.num.replica.fetchers=2/result.json").toFile());
            assertEquals("2", first.get("provenance").get("cluster").get("brokers").get(0).get("configs")
                    .get("num.replica.fetchers").asText(), "each result records the setting in force");
            // put back: 4 cannot drop to the broker's own 1 in one step (Kafka halves a thread count at most), so
            // kbench walked back through 2 and then removed the cluster-wide value
            assertTrue(procs.output("run").contains("broker settings restored: num.replica.fetchers=(none: each "
                    + "broker's own)"), procs.output("run"));
            org.apache.kafka.common.config.ConfigResource cluster = new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.BROKER, "");
            org.apache.kafka.clients.admin.ConfigEntry fetchers = admin.describeConfigs(List.of(cluster)).all()
                    .get(30, TimeUnit.SECONDS).get(cluster).get("num.replica.fetchers");
            assertTrue(fetchers == null || fetchers.source()
                    != org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                    "no cluster-wide value is left: " + fetchers);
        }
    }
}
