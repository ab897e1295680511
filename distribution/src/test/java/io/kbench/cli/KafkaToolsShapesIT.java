package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kbench.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kbench producer-perf, consumer-perf, share-consumer-perf and e2e-latency print what Kafka's own tools print: each test runs the
 * tool of the same Kafka version (kafka-tools 4.3.1, a test dependency, in a child JVM) and kbench's
 * command with the same flags against one embedded broker, and compares the shapes of their stdout lines
 * (every number replaced by its kind: integer, or decimal with its count of places; dates are numbers
 * too), and for {@code --print-metrics} the metric names (the client id aside) and the layout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaToolsShapesIT {
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.(\\d+))?(?:E-?\\d+)?");
    private static final Pattern METRIC = Pattern.compile("(\\S+:\\S+:\\{.*?\\}) *: (.*)");

    private EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    void startBroker() throws Exception {
        // share groups hand out assignments on a member's next heartbeat: 1 s here instead of the broker's 5 s
        // default keeps the share-consumer-perf test short (both sides wait the same join)
        kafka = EmbeddedKafka.builder().config("group.share.heartbeat.interval.ms", "1000")
                .config("group.share.min.heartbeat.interval.ms", "1000").start();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("pp-tool", 1, (short) 1), new NewTopic("pp-kbench", 1, (short) 1),
                    new NewTopic("cp", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void producerPerfPrintsTheToolsWarmupWindowTotalSteadyStateAndMetricsLines() throws Exception {
        List<String> tool = tool("org.apache.kafka.tools.ProducerPerformance", "--topic", "pp-tool", "--num-records",
                "30000", "--record-size", "100", "--throughput", "10000", "--warmup-records", "10000",
                "--reporting-interval", "500", "--print-metrics", "--bootstrap-server", kafka.bootstrapServers());
        List<String> kbench = kbench("producer-perf", "--topic", "pp-kbench", "--num-records", "30000", "--record-size",
                "100", "--throughput", "10000", "--warmup-records", "10000", "--reporting-interval", "1000",
                "--print-metrics", "--bootstrap-server", kafka.bootstrapServers(), "--output", dir.resolve("pp").toString());
        assertSameShapes(before(tool, "Metric Name"), before(kbench, "Metric Name"));
        assertSameMetricsBlock(topic(tool, "pp-tool"), topic(kbench, "pp-kbench"));
        assertToolsMetricsLayout(kbench);
        // the steady-state line counts fewer records than the whole run's
        String total = kbench.stream().filter(l -> l.startsWith("30000 records sent")).findFirst().orElseThrow();
        String steady = kbench.stream().filter(l -> l.contains(" steady state records sent")).findFirst().orElseThrow();
        long steadyCount = Long.parseLong(steady.substring(0, steady.indexOf(' ')));
        assertTrue(steadyCount >= 5000 && steadyCount <= 20000, steady + " after " + total);
    }

    @Test
    void consumerPerfPrintsTheToolsRowDetailedRowsTimeoutWarningAndMetrics() throws Exception {
        assertEquals(List.of(), kbenchLines("producer-perf", "--topic", "cp", "--num-records", "50000", "--record-size",
                "100", "--throughput", "-1", "--bootstrap-server", kafka.bootstrapServers(), "--output",
                dir.resolve("fill").toString()).stream().filter(l -> !l.contains("records sent")).toList());
        // the total row, the timeout warning (more records asked for than there are) and the metrics
        List<String> tool = tool("org.apache.kafka.tools.ConsumerPerformance", "--bootstrap-server",
                kafka.bootstrapServers(), "--topic", "cp", "--num-records", "60000", "--timeout", "2000", "--print-metrics");
        List<String> kbench = kbench("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(), "--topic", "cp",
                "--num-records", "60000", "--timeout", "2000", "--print-metrics", "--output", dir.resolve("c1").toString());
        assertSameShapes(before(tool, "Metric Name"), before(kbench, "Metric Name"));
        assertTrue(kbench.get(1).startsWith("WARNING: Exiting before consuming the expected number of records"), kbench.get(1));
        assertSameMetricsBlock(tool, kbench);
        assertToolsMetricsLayout(kbench);
        // --show-detailed-stats: the tool's rows (its 1 ms interval makes it print several) against kbench's. A row is
        // due once a reporting interval has passed with records in it, and kbench reads the 50,000 in a fraction of its
        // 1-s interval and ends: both ask for more than the topic holds and wait 2 s for it (the warning on both sides)
        List<String> toolRows = tool("org.apache.kafka.tools.ConsumerPerformance", "--bootstrap-server",
                kafka.bootstrapServers(), "--topic", "cp", "--num-records", "60000", "--timeout", "2000",
                "--show-detailed-stats", "--reporting-interval", "1");
        List<String> kbenchRows = kbench("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(), "--topic", "cp",
                "--num-records", "60000", "--timeout", "2000", "--show-detailed-stats", "--reporting-interval", "1000",
                "--output", dir.resolve("c2").toString());
        assertTrue(toolRows.size() >= 2 && kbenchRows.size() >= 2, toolRows + " / " + kbenchRows);
        assertSameShapes(toolRows, kbenchRows);
        // --include: every matching topic, --num-records over all of them, the tool's row
        kbenchLines("producer-perf", "--topic", "cp2", "--partitions", "2", "--num-records", "20000", "--record-size",
                "100", "--throughput", "-1", "--bootstrap-server", kafka.bootstrapServers(), "--output",
                dir.resolve("fill2").toString());
        List<String> toolBoth = tool("org.apache.kafka.tools.ConsumerPerformance", "--bootstrap-server",
                kafka.bootstrapServers(), "--include", "cp.*", "--num-records", "70000", "--timeout", "5000");
        List<String> kbenchBoth = kbench("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(), "--include",
                "cp.*", "--num-records", "70000", "--timeout", "5000", "--output", dir.resolve("both").toString());
        assertSameShapes(toolBoth, kbenchBoth);
        assertTrue(kbenchBoth.get(1).contains(", 70000, "), kbenchBoth.toString());
        // --group: a second read of the same group resumes from its committed offsets and finds nothing new
        kbench("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(), "--topic", "cp", "--num-records",
                "50000", "--group", "again", "--output", dir.resolve("g1").toString());
        List<String> again = kbench("consumer-perf", "--bootstrap-server", kafka.bootstrapServers(), "--topic", "cp",
                "--num-records", "50000", "--group", "again", "--timeout", "1000", "--hide-header", "--output",
                dir.resolve("g2").toString());
        assertTrue(again.get(again.size() - 1).contains(", 0.0000, 0.0000, 0, 0.0000, "), again.toString());
    }

    @Test
    void shareConsumerPerfPrintsTheToolsRowsConsumerStatsWarningAndMetrics() throws Exception {
        kbenchLines("producer-perf", "--topic", "scp", "--partitions", "2", "--num-records", "20000", "--record-size",
                "100", "--throughput", "-1", "--bootstrap-server", kafka.bootstrapServers(), "--output",
                dir.resolve("fill-share").toString());
        // the tool leaves the group's share.auto.offset.reset alone (latest by default): set it as kbench does
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.incrementalAlterConfigs(Map.of(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, "tool-share"), List.of(
                    new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                            "share.auto.offset.reset", "earliest"), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
        }
        // the per-consumer lines, the detailed rows, the row, the metrics blocks. Not the timeout warning: Kafka
        // 4.3.1's tool interrupts its own consumers once --timeout + 100 ms have passed since they started (join
        // and read included) and then fails, so it cannot wait --timeout after a last record; kbench's warning
        // is checked in ShareConsumerPerfReporterTest
        String[] flags = {"--bootstrap-server", kafka.bootstrapServers(), "--topic", "scp", "--num-records", "20000",
            "--threads", "2", "--timeout", "20000", "--show-consumer-stats", "--show-detailed-stats",
            "--reporting-interval", "1000", "--print-metrics"};
        List<String> tool = tool("org.apache.kafka.tools.ShareConsumerPerformance",
                concat(flags, "--group", "tool-share"));
        // kbench's consumers join before its clock starts and would read 20,000 waiting records in a fraction of a
        // reporting interval, printing no row (as the tool does for a read that short): they read a topic fed at
        // 4,000 msg/s instead, so that their read spans several intervals whatever the machine's speed
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("scp-fed", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Thread feeder = feed("scp-fed", 20_000, 4_000);
        List<String> kbench;
        try {
            String[] fed = flags.clone();
            fed[java.util.Arrays.asList(fed).indexOf("scp")] = "scp-fed";
            kbench = kbench(concat(new String[] {"share-consumer-perf"}, concat(fed, "--output",
                    dir.resolve("share").toString())));
        } finally {
            feeder.join(30_000);
        }
        assertSameShapes(clientIds(rowsApart(before(tool, "Metric Name"))), clientIds(rowsApart(before(kbench, "Metric Name"))));
        assertSameMetricsBlock(tool, kbench);
        assertToolsMetricsLayout(kbench);
        for (List<String> lines : List.of(tool, kbench)) {
            String row = before(lines, "Metric Name").stream().filter(l -> l.startsWith("20")).reduce((a, b) -> b)
                    .orElseThrow();
            assertTrue(row.matches(".*, 20000, \\d+"), "every record once: " + lines);
            assertEquals(2, lines.stream().filter(l -> l.startsWith("Share consumer ")).count(), lines.toString());
        }
    }

    /** Sends {@code records} of 100 bytes to {@code topic} at {@code perSecond}, on a thread of its own (started). */
    private Thread feed(String topic, int records, int perSecond) {
        Thread t = new Thread(() -> {
            try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> p = new org.apache.kafka.clients.producer
                    .KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "linger.ms", 5),
                    new org.apache.kafka.common.serialization.ByteArraySerializer(),
                    new org.apache.kafka.common.serialization.ByteArraySerializer())) {
                long start = System.nanoTime();
                for (int i = 0; i < records; i++) {
                    long due = start + i * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    p.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, new byte[100]));
                }
                p.flush();
            }
        }, "feed-" + topic);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * The tool's detailed rows one per line: its consumer threads print a row's text and its line end in two calls,
     * so two threads' rows can run together on one line, followed by an empty line.
     */
    private static List<String> rowsApart(List<String> lines) {
        return lines.stream().flatMap(l -> java.util.Arrays.stream(l.split("(?<=for share consumer \\d{1,4})(?=\\d{4}-)")))
                .filter(l -> !l.isEmpty()).toList();
    }

    /** The lines with the tools' client ids (each side names its clients its own way) replaced. */
    private static List<String> clientIds(List<String> lines) {
        return lines.stream().map(l -> l.replaceAll("having client id \\S+", "having client id ID")).toList();
    }

    @Test
    void e2eLatencyPrintsTheToolsLinesForTheNamedAndThePositionalForm() throws Exception {
        List<String> tool = tool("org.apache.kafka.tools.EndToEndLatency", "--bootstrap-server", kafka.bootstrapServers(),
                "--topic", "e2e-tool", "--num-records", "2001", "--producer-acks", "1", "--record-size", "100");
        List<String> kbench = kbench("e2e-latency", "--bootstrap-server", kafka.bootstrapServers(), "--topic",
                "e2e-kbench", "--num-records", "2001", "--producer-acks", "1", "--record-size", "100");
        // progress lines print Double.toString of the milliseconds: their places vary from line to line
        assertSameShapes(topic(tool, "e2e-tool").stream().map(KafkaToolsShapesIT::looseProgress).toList(),
                topic(kbench, "e2e-kbench").stream().map(KafkaToolsShapesIT::looseProgress).toList());
        List<String> positional = kbench("e2e-latency", kafka.bootstrapServers(), "e2e-kbench", "500", "all", "10");
        assertTrue(positional.get(positional.size() - 1).matches("Percentiles: 50th = \\d+, 99th = \\d+, 99\\.9th = \\d+"),
                positional.toString());
        assertFalse(positional.get(0).startsWith("Topic"), "the topic exists now: " + positional);
        // the tool's key and header sizes reach the records themselves
        kbench("e2e-latency", "--bootstrap-server", kafka.bootstrapServers(), "--topic", "e2e-keyed", "--num-records", "20",
                "--producer-acks", "1", "--record-size", "100", "--record-key-size", "8", "--num-headers", "2",
                "--record-header-key-size", "3", "--record-header-size", "5");
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            org.apache.kafka.common.TopicPartition p = new org.apache.kafka.common.TopicPartition("e2e-keyed", 0);
            c.assign(List.of(p));
            c.seekToBeginning(List.of(p));
            List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (read.size() < 20 && System.nanoTime() < deadline) {
                c.poll(java.time.Duration.ofMillis(200)).forEach(read::add);
            }
            assertEquals(20, read.size());
            for (var r : read) {
                assertTrue(new String(r.key(), StandardCharsets.US_ASCII).matches("([A-Z])\\1{7}"), "key of 8 letters");
                assertEquals(100, r.value().length);
                List<String> headers = java.util.Arrays.stream(r.headers().toArray())
                        .map(h -> h.key() + "=" + new String(h.value(), StandardCharsets.US_ASCII)).toList();
                assertEquals(2, headers.size(), headers.toString());
                assertTrue(headers.stream().allMatch(h -> h.matches("([A-Z])\\1{2}=([A-Z])\\2{4}")), headers.toString());
            }
        }
    }

    /** The lines with the topic's name replaced by {@code TOPIC} (each test's tool and kbench use their own). */
    private static List<String> topic(List<String> lines, String topic) {
        return lines.stream().map(l -> l.replace(topic, "TOPIC")).toList();
    }

    /** Lines before the first that starts with {@code marker} (all of them when none does). */
    private static List<String> before(List<String> lines, String marker) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(marker)) {
                break;
            }
            out.add(l);
        }
        return out;
    }

    /** Both print a metrics block with the same metric names, client ids aside. */
    private static void assertSameMetricsBlock(List<String> tool, List<String> kbench) {
        Set<String> missing = new TreeSet<>(metricNames(tool));
        missing.removeAll(metricNames(kbench));
        Set<String> extra = new TreeSet<>(metricNames(kbench));
        extra.removeAll(metricNames(tool));
        assertEquals("", missing.isEmpty() && extra.isEmpty() ? "" : "missing " + missing + ", extra " + extra);
    }

    /**
     * The tool's layout, for each client's block: an empty line, the header, names padded to the block's longest,
     * {@code name : value}.
     */
    private static void assertToolsMetricsLayout(List<String> kbench) {
        int header = kbench.indexOf(kbench.stream().filter(l -> l.startsWith("Metric Name")).findFirst().orElseThrow());
        int blocks = 0;
        while (header >= 0) {
            assertEquals("", kbench.get(header - 1), "an empty line before the header, as the tool prints");
            int width = kbench.get(header).indexOf("Value") - 3;
            int end = header + 1;
            for (; end < kbench.size() && !kbench.get(end).isEmpty(); end++) {
                String l = kbench.get(end);
                Matcher m = METRIC.matcher(l);
                assertTrue(m.matches(), "not a metric line: " + l);
                assertEquals(width, l.indexOf(" : "), "names padded to the longest: " + l);
            }
            blocks++;
            int next = end;
            header = next + 1 < kbench.size() && kbench.get(next + 1).startsWith("Metric Name") ? next + 1 : -1;
            assertTrue(header >= 0 || next >= kbench.size(), () -> "after a block only another block: " + kbench.get(next));
        }
        assertTrue(blocks >= 1);
    }

    private static Set<String> metricNames(List<String> lines) {
        Set<String> names = new TreeSet<>();
        for (String l : lines) {
            Matcher m = METRIC.matcher(l);
            if (m.matches()) {
                names.add(m.group(1).replaceAll("client-id=[^,}]*", "client-id=*"));
            }
        }
        assertFalse(names.isEmpty(), "no metrics in " + lines);
        return names;
    }

    private static void assertSameShapes(List<String> tool, List<String> kbench) {
        Set<String> toolShapes = shapes(tool);
        Set<String> kbenchShapes = shapes(kbench);
        assertEquals(toolShapes, kbenchShapes, "tool:\n" + String.join("\n", tool) + "\nkbench:\n" + String.join("\n", kbench));
    }

    private static Set<String> shapes(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        for (String l : lines) {
            out.add(shape(l));
        }
        return out;
    }

    /** Every number replaced by {@code I} (integer) or {@code D<places>} (decimal). */
    static String shape(String line) {
        Matcher m = NUMBER.matcher(line);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, m.group(1) == null ? "I" : "D" + m.group(1).length());
        }
        m.appendTail(b);
        return b.toString();
    }

    private static String looseProgress(String line) {
        return line.matches("\\d+\t.*") ? line.replaceAll("\t.*", "\tMILLIS") : line;
    }

    /** Runs one of Kafka's tools in a JVM of its own (they call System.exit) on the test class path; its stdout. */
    private List<String> tool(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.logFile=System.err", mainClass));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "tool", ".out");
        Path err = dir.resolve("tool-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertTrue(p.waitFor(90, TimeUnit.SECONDS), mainClass + " did not finish");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), () -> mainClass + " failed: " + tail(out) + tail(err));
        return Files.readAllLines(out, StandardCharsets.UTF_8);
    }

    /** The last lines of a file, for a failure's message. */
    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())) + "\n";
        } catch (IOException e) {
            return file + ": " + e + "\n";
        }
    }

    private static List<String> kbench(String... args) {
        List<String> lines = kbenchLines(args);
        assertFalse(lines.isEmpty(), "kbench " + String.join(" ", args) + " printed nothing");
        return lines;
    }

    private static List<String> kbenchLines(String... args) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int rc;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            rc = Main.execute(args);
        } finally {
            System.setOut(stdout);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, out);
        return out.lines().toList();
    }
}
