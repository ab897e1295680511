package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kbench producer-perf and consumer-perf print the Kafka tools' lines. The patterns are the shapes of Kafka
 * 4.3.1's ProducerPerformance and ConsumerPerformance output, e.g.
 * {@code 99005 records sent, 49453.0 records/sec (4.72 MB/sec), 307.2 ms avg latency, 660.0 ms max latency.}
 * and {@code 2026-11-22 11:43:07:412, 2026-11-22 11:43:08:709, 28.6102, 22.0588, 300000, 231303.0069, 648, 649,
 * 44.0836, 462249.6148}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PerfToolsIT {
    private static final Pattern WINDOW = Pattern.compile(
            "\\d+ records sent, \\d+\\.\\d records/sec \\(\\d+\\.\\d{2} MB/sec\\), \\d+\\.\\d ms avg latency, \\d+\\.\\d ms max latency\\.");
    private static final Pattern TOTAL = Pattern.compile(
            "(\\d+) records sent, (\\d+\\.\\d{6}) records/sec \\(\\d+\\.\\d{2} MB/sec\\), \\d+\\.\\d{2} ms avg latency, "
                    + "\\d+\\.\\d{2} ms max latency, \\d+ ms 50th, \\d+ ms 95th, \\d+ ms 99th, \\d+ ms 99\\.9th\\.");

    private static final String CONSUMER_HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, "
            + "data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";
    private static final Pattern CONSUMER_ROW = Pattern.compile(
            "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d:\\d{3}, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d:\\d{3}, "
                    + "(\\d+\\.\\d{4}), \\d+\\.\\d{4}, (\\d+), \\d+\\.\\d{4}, \\d+, \\d+, \\d+\\.\\d{4}, \\d+\\.\\d{4}");

    @TempDir
    Path dir;

    private static String captureStdout(String... args) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            int rc = Main.execute(args);
            assertEquals(0, rc, captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldPrintTheConsumerToolsHeaderAndRowForACatchUpRead() {
        try (io.kbench.embedded.EmbeddedKafka kafka = io.kbench.embedded.EmbeddedKafka.builder().start()) {
            captureStdout("producer-perf", "--topic", "cp", "--partitions", "3", "--num-records", "10000",
                    "--record-size", "100", "--throughput", "-1", "--bootstrap-server", kafka.bootstrapServers(),
                    "--output", dir.resolve("fill").toString());
            // a console nobody reads: stdout into a pipe this test never drains (it holds 64 KB; 8 producers' metrics
            // dumps are about 95 KB, printed on the snapshot path). The run must end and write its files all the same.
            java.nio.file.Path out = dir.resolve("unread");
            try {
                Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m", "-jar", java.nio.file.Path.of(System.getProperty("basedir", ".")).resolve("target/kbench.jar")
                                .toString(), "producer-perf", "--topic", "unread", "--partitions", "2", "--num-records", "4000",
                        "--record-size", "100", "--throughput", "2000", "--producers", "8", "--print-metrics",
                        "--bootstrap-server", kafka.bootstrapServers(), "--output", out.toString())
                        .redirectError(dir.resolve("unread.err").toFile()).start();
                boolean ended = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
                if (!ended) {
                    p.destroyForcibly();
                }
                assertTrue(ended, "the run ended although nobody read its console: "
                        + java.nio.file.Files.readString(dir.resolve("unread.err")));
                assertEquals(0, p.exitValue(), java.nio.file.Files.readString(dir.resolve("unread.err")));
                assertTrue(java.nio.file.Files.isRegularFile(out.resolve("result.json")));
                p.getInputStream().close();
            } catch (java.io.IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
            // producer-perf sends plain records, as the Kafka tool does: no stamp header on the broker's disk
            java.util.Map<String, Object> props = java.util.Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "group.id", "check-headers", "auto.offset.reset", "earliest");
            try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c = new org.apache.kafka.clients.consumer
                    .KafkaConsumer<>(props, new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
                c.subscribe(List.of("cp"));
                int seen = 0;
                long deadline = System.currentTimeMillis() + 30_000;
                while (seen < 100 && System.currentTimeMillis() < deadline) {
                    for (var r : c.poll(java.time.Duration.ofMillis(500))) {
                        assertEquals(0, r.headers().toArray().length, "a header on record " + r.offset());
                        assertEquals(100, r.value().length);
                        seen++;
                    }
                }
                assertTrue(seen >= 100, "read " + seen + " records");
            }
            // transactions as the tool takes them: the lines are unchanged, and every producer commits by age
            String tx = captureStdout("producer-perf", "--topic", "tx", "--partitions", "1", "--num-records", "3000",
                    "--record-size", "100", "--throughput", "1000", "--transactional-id", "t1",
                    "--transaction-duration-ms", "500", "--bootstrap-server", kafka.bootstrapServers(),
                    "--output", dir.resolve("tx").toString());
            List<String> txLines = tx.lines().toList();
            assertTrue(TOTAL.matcher(txLines.get(txLines.size() - 1)).matches(), tx);
            try {
                com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(dir.resolve("tx/result.json").toFile());
                long commits = r.get("summary").get("transactionCommitMicros").get("count").asLong();
                assertTrue(commits >= 4 && commits <= 8, "about one commit per 500 ms over 3 s: " + commits);
                assertEquals(500, r.get("workload").get("transactionMillis").asLong());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            List<String> lines = captureStdout("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(),
                    "--topic", "cp", "--messages", "10000", "--output", dir.resolve("read").toString()).lines().toList();
            assertEquals(2, lines.size(), lines.toString());
            assertEquals(CONSUMER_HEADER, lines.get(0));
            Matcher row = CONSUMER_ROW.matcher(lines.get(1));
            assertTrue(row.matches(), "not a consumer-perf row: " + lines.get(1));
            assertEquals("10000", row.group(2));
            assertEquals(10000 * 100 / 1048576.0, Double.parseDouble(row.group(1)), 0.0001);
            try {
                // the tool's socket buffer (2 MB), not the client's 64 KB, as the tool asks for it
                assertEquals("2097152", new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                        dir.resolve("read/result.json").toFile()).path("profile").path("consumer")
                        .path("receive.buffer.bytes").asText());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Test
    void shouldPrintTheKafkaToolsLinesOnTheEmbeddedDefault() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int rc;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            rc = Main.execute("producer-perf", "--topic", "perf", "--num-records", "20000", "--record-size", "100",
                    "--throughput", "5000", "--reporting-interval", "1000", "--output", dir.toString());
        } finally {
            System.setOut(stdout);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, out);
        List<String> lines = out.lines().toList();
        assertTrue(lines.size() >= 4, out);
        for (String window : lines.subList(0, lines.size() - 1)) {
            assertTrue(WINDOW.matcher(window).matches(), "not a window line: " + window);
        }
        Matcher total = TOTAL.matcher(lines.get(lines.size() - 1));
        assertTrue(total.matches(), "not a total line: " + lines.get(lines.size() - 1));
        assertEquals("20000", total.group(1));
        double rate = Double.parseDouble(total.group(2));
        assertTrue(Math.abs(rate - 5000) < 5000 * 0.05, "records/sec " + rate);
    }
}
