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
        assertEquals("YES: 115.3% of target (a backlog from before the window sent in it)",
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
        assertTrue(csv.get(1).contains(",12,\"YES: 115.3% of target (a backlog from before the window sent in it)\",generator,"),
                csv.get(1));
        assertTrue(csv.get(4).startsWith("131072,COMPLETED,unthrottled,"), csv.get(4));
    }
}
