package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.Summary;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepReportTest {
    @TempDir
    Path dir;

    private static Summary summary(double rate, long saturated, long responseP99Micros) {
        EnumMap<Metric, Histogram> h = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            Histogram x = LatencyHistograms.create();
            x.recordValue(m == Metric.PUBLISH_RESPONSE ? responseP99Micros : 2_000);
            h.put(m, x);
        }
        return new Summary(1000, 1000, 0, 1000, 0, 0, 10, 1000, 1000, 100_000, rate, 1.0, rate, 1.0, h, null, 0,
                saturated);
    }

    @Test
    void shouldMarkACombinationOnlyWhenItsWindowMissedTheTargetAndCountSaturatedIntervalsBesideIt() throws Exception {
        SweepReport r = new SweepReport(List.of("producer.batch.size"));
        // the shipped batch-size sweep at 20,000 msg/s x 1 KB: 8 KB sent its warm-up backlog late, above target
        r.add(new SweepReport.Row(Map.of("producer.batch.size", "8192"), "COMPLETED", null,
                summary(23_052.3, 12, 1_541_000), 20_000, "generator"));
        r.add(new SweepReport.Row(Map.of("producer.batch.size", "16384"), "COMPLETED", null,
                summary(19_200.0, 0, 40_000), 20_000, "producer-client"));
        r.add(new SweepReport.Row(Map.of("producer.batch.size", "65536"), "COMPLETED", null,
                summary(19_999.0, 0, 9_000), 20_000, "none"));
        r.add(new SweepReport.Row(Map.of("producer.batch.size", "131072"), "COMPLETED", null,
                summary(250_000, 0, 9_000), -1, null));
        // a healthy rate with two saturated intervals (a pause of the generator's host): counted, not marked
        r.add(new SweepReport.Row(Map.of("producer.batch.size", "32768"), "COMPLETED", null,
                summary(20_001.0, 2, 12_000), 20_000, "none"));
        assertEquals("YES: 115.3% of target (a backlog from before the window acknowledged in it)",
                SweepReport.fellBehind(r.rows().get(0)));
        assertEquals("", SweepReport.fellBehind(r.rows().get(4)), "saturated intervals alone do not mark it");
        assertEquals("YES: 96.0% of target", SweepReport.fellBehind(r.rows().get(1)));
        assertEquals("", SweepReport.fellBehind(r.rows().get(2)), "99.995% of target is on schedule");
        assertEquals("", SweepReport.fellBehind(r.rows().get(3)), "unthrottled has no schedule");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("target msg/s") && table.contains("resp p99 ms") && table.contains("saturated"), table);
        assertTrue(table.lines().anyMatch(l -> l.contains("8192") && l.contains("20000") && l.contains("1541.")
                && l.contains("YES: 115.3% of target") && l.endsWith("generator")), table);
        assertTrue(table.lines().anyMatch(l -> l.contains("fell behind") && l.endsWith("limited by")), table);

        r.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertTrue(csv.get(1).startsWith("8192,COMPLETED,20000,23052.3,"), csv.get(1));
        assertTrue(csv.get(1).contains(",12,YES: 115.3% of target (a backlog from before the window acknowledged in it),generator,"),
                csv.get(1));
        assertTrue(csv.get(4).startsWith("131072,COMPLETED,unthrottled,"), csv.get(4));
    }

    /**
     * The shipped broker-threads-sweep against a cluster whose brokers were not read: every row named producer-client,
     * num.io.threads=1 too. The table marks such names and says why under it; sweep.csv and sweep.json keep the name.
     */
    @Test
    void shouldMarkALimitNamedWithoutTheBrokersFigures() throws Exception {
        SweepReport r = new SweepReport(List.of("broker.num.io.threads"));
        r.add(new SweepReport.Row(Map.of("broker.num.io.threads", "1"), "COMPLETED", null, summary(42_746, 0, 9_000), -1,
                "producer-client", null, null, null, true));
        r.add(new SweepReport.Row(Map.of("broker.num.io.threads", "8"), "COMPLETED", null, summary(144_974, 0, 9_000), -1,
                "producer-client", null, null, null, false));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(3).endsWith("producer-client?"), lines.get(3));
        assertTrue(lines.get(4).endsWith("producer-client"), lines.get(4));
        assertEquals(SweepReport.UNREAD_NOTE, lines.get(5));
        r.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertTrue(csv.get(1).endsWith(",producer-client,"), csv.get(1));
        assertTrue(Files.readString(dir.resolve("sweep.json")).contains("\"limitedBy\" : \"producer-client\""));
        assertTrue(Files.readString(r.writeHtml(dir, "t")).contains("named without the brokers' figures"));
    }

    /**
     * The shipped producer-100k-200kb-batches-gzip sweep asks the reader to watch the brokers' bytes in against the
     * values produced: gzip of half-random 1 KB values took in 30.42 MB/s for 61.82 MB/s of values. The table showed
     * only the values.
     */
    @Test
    void shouldShowProducedTakenInReplicatedAndConsumedThroughputAndTheNetworkShareOnlyWhenGiven() throws Exception {
        SweepReport plain = new SweepReport(List.of("broker.num.replica.fetchers"));
        plain.add(new SweepReport.Row(Map.of("broker.num.replica.fetchers", "1"), "COMPLETED", null,
                summary(10_000, 0, 9_000), 10_000, "none", 0.49, 19.53, null, false));
        plain.add(new SweepReport.Row(Map.of("broker.num.replica.fetchers", "2"), "REFUSED", null, null, 10_000, null));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        plain.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        List<String> lines = table.lines().toList();
        String header = lines.get(2);
        assertTrue(header.contains("prod MB/s brokers in MB/s repl MB/s cons MB/s pub p50 ms"), header);
        assertTrue(!header.contains("net ceiling"), "no bandwidth given, no column: " + header);
        // under each header word, its figure: produced 1.00, taken in 0.49, replicated 19.53, consumed 1.00
        assertEquals("0.49", column(lines, header.indexOf("brokers in MB/s") + "brokers in MB/s".length(), 3));
        assertEquals("19.53", column(lines, header.indexOf("repl MB/s") + "repl MB/s".length(), 3));
        assertEquals("1.00", column(lines, header.indexOf("cons MB/s") + "cons MB/s".length(), 3));
        assertEquals("", column(lines, header.indexOf("repl MB/s") + "repl MB/s".length(), 4), "a refused row has none");

        SweepReport net = new SweepReport(List.of("producer.acks"));
        net.add(new SweepReport.Row(Map.of("producer.acks", "1"), "COMPLETED", null, summary(10_000, 0, 9_000), 10_000,
                "none", null, 0.0123));
        net.add(new SweepReport.Row(Map.of("producer.acks", "all"), "FAILED", null, null, 10_000, null));
        out.reset();
        net.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        header = lines.get(2);
        assertTrue(header.contains("cons MB/s net ceiling % pub p50 ms"), header);
        assertEquals("1.2", column(lines, header.indexOf("net ceiling %") + "net ceiling %".length(), 3));
        assertTrue(!header.contains("brokers in MB/s") && !header.contains("repl MB/s") && header.contains(
                "prod MB/s cons MB/s"), "no row has the brokers' figures: no columns of blanks for them: " + header);
        assertEquals(lines.get(4).trim().split(" +").length, 3, "a row without figures: its values, status, nothing else: "
                + lines.get(4));

        net.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertTrue(csv.get(0).startsWith("producer.acks,status,targetRate,publishRate,publishMBps,brokerInMBps,"
                + "replicationMBps,consumeMBps,networkCeilingPct,publishP50Ms"), csv.get(0));
        assertTrue(csv.get(1).startsWith("1,COMPLETED,10000,10000.0,1.00,,,1.00,1.2,"), csv.get(1));
        assertEquals(csv.get(0).split(",").length, csv.get(2).split(",", -1).length, "every row has every column: " + csv.get(2));
        String json = Files.readString(dir.resolve("sweep.json"));
        assertTrue(json.contains("\"networkShare\" : 0.0123") && json.contains("\"consumeMBps\" : 1.0")
                && !json.contains("replicationMBps") && !json.contains("brokerInMBps"), json);
        plain.write(dir);
        assertTrue(Files.readString(dir.resolve("sweep.json")).contains("\"brokerInMBps\" : 0.49"),
                Files.readString(dir.resolve("sweep.json")));
        String page = Files.readString(plain.writeHtml(dir, "t"));
        int at = page.indexOf("brokerInMBps");
        assertTrue(page.contains("\"brokerInMBps\" : 0.49"), at < 0 ? "none" : page.substring(at - 20, at + 40));
        assertTrue(page.contains("Produced, taken in, replicated and consumed") && page.contains("taken in (brokers)"),
                "the brokers' series when some combination has them");
        // the brokers not read in any combination: their series are not drawn (their legend entries said nothing)
        String unread = Files.readString(net.writeHtml(dir, "t"));
        assertTrue(unread.contains("\"Produced and consumed\"") && !unread.contains("taken in (brokers)")
                && !unread.contains("replicated (brokers)"), unread.substring(unread.indexOf("throughput") - 40,
                unread.indexOf("throughput") + 300));
    }

    /** The right-aligned cell of {@code lines[row]} that ends at column {@code end} (its header's last character). */
    private static String column(List<String> lines, int end, int row) {
        String line = lines.get(row);
        int from = end;
        while (from > 0 && from <= line.length() && line.charAt(from - 1) != ' ') {
            from--;
        }
        return end > line.length() ? "" : line.substring(from, end).trim();
    }

    /** A combination without consumers has no consumed MB/s and no end-to-end latency: blank, not 0.00. */
    @Test
    void shouldLeaveTheConsumersFiguresBlankForACombinationWithoutConsumers() throws Exception {
        Summary s = summary(4_000, 0, 9_000);
        EnumMap<Metric, Histogram> h = new EnumMap<>(s.histograms());
        h.put(Metric.END_TO_END, LatencyHistograms.create());
        Summary noConsumers = new Summary(1000, 1000, 0, 0, 0, 0, 10, 1000, 0, 0, 4_000, 0.38, 0, 0, h, null, 0, 0);
        SweepReport r = new SweepReport(List.of("producersPerTopic"));
        r.add(new SweepReport.Row(Map.of("producersPerTopic", "1"), "COMPLETED", null, noConsumers, 4_000, "none", null, null,
                null, false, false));
        r.add(new SweepReport.Row(Map.of("producersPerTopic", "2"), "COMPLETED", null, s, 4_000, "none", null, null,
                null, false, true));
        r.write(dir);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        List<String> header = List.of(csv.get(0).split(",", -1));
        List<String> without = List.of(csv.get(1).split(",", -1));
        List<String> with = List.of(csv.get(2).split(",", -1));
        assertEquals("", without.get(header.indexOf("consumeMBps")), csv.get(1));
        assertEquals("", without.get(header.indexOf("endToEndP99Ms")), csv.get(1));
        assertEquals("1.00", with.get(header.indexOf("consumeMBps")), csv.get(2));
        assertEquals("2.00", with.get(header.indexOf("endToEndP99Ms")), csv.get(2));
        String json = Files.readString(dir.resolve("sweep.json"));
        assertEquals(1, json.split("\"consumeMBps\"", -1).length - 1, json);
        assertEquals(1, json.split("\"endToEndLatencyMicros\"", -1).length - 1, json);
        String page = r.pageJson(dir, "t", false);
        assertEquals(List.of("null", "1.0"), java.util.regex.Pattern.compile("\"consumeMBps\" ?: ?([^,\\s]*)").matcher(page)
                .results().map(m -> m.group(1)).toList(), page);
        assertEquals(List.of("null", "2.0"), java.util.regex.Pattern.compile("\"e2eP99\" ?: ?([^,\\s]*)").matcher(page)
                .results().map(m -> m.group(1)).toList(), page);

        // a sweep with no consumers at all draws no consumed or end-to-end series: a legend entry without a point
        SweepReport none = new SweepReport(List.of("producersPerTopic"));
        none.add(new SweepReport.Row(Map.of("producersPerTopic", "1"), "COMPLETED", null, noConsumers, 4_000, "none",
                null, null, null, false, false));
        String bare = none.pageJson(dir, "t", false);
        assertTrue(!bare.contains("\"consumed\"") && !bare.contains("\"end-to-end p99\"")
                && bare.contains("\"Produced\""), bare);
        assertTrue(page.contains("\"consumed\"") && page.contains("\"end-to-end p99\""), page);
    }
}
