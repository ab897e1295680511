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
 * kbench producer-perf prints kafka-producer-perf-test's lines. The patterns are the shapes of Kafka 4.3.1's
 * ProducerPerformance output, e.g.
 * {@code 99005 records sent, 49453.0 records/sec (4.72 MB/sec), 307.2 ms avg latency, 660.0 ms max latency.}
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ProducerPerfIT {
    private static final Pattern WINDOW = Pattern.compile(
            "\\d+ records sent, \\d+\\.\\d records/sec \\(\\d+\\.\\d{2} MB/sec\\), \\d+\\.\\d ms avg latency, \\d+\\.\\d ms max latency\\.");
    private static final Pattern TOTAL = Pattern.compile(
            "(\\d+) records sent, (\\d+\\.\\d{6}) records/sec \\(\\d+\\.\\d{2} MB/sec\\), \\d+\\.\\d{2} ms avg latency, "
                    + "\\d+\\.\\d{2} ms max latency, \\d+ ms 50th, \\d+ ms 95th, \\d+ ms 99th, \\d+ ms 99\\.9th\\.");

    @TempDir
    Path dir;

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
