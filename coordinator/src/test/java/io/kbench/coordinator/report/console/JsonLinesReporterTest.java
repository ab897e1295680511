package io.kbench.coordinator.report.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

/**
 * {@code run --json}: stdout carries only the intervals, one JSON object a line; every other event reaches the
 * human-readable printer on stderr whole (a reporter that passes events on cannot drop one of them).
 */
class JsonLinesReporterTest {
    private static final long S = 1_000_000;

    @Test
    void shouldWriteIntervalsAsJsonLinesAndPassEverythingElseToThePrinter() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream human = new ByteArrayOutputStream();
        JsonLinesReporter r = new JsonLinesReporter(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(human, true, StandardCharsets.UTF_8), false);
        r.on(new RunEvent.Begin("r1", Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 1, 2)));
        r.info("run r1: the plan");
        r.on(new RunEvent.SaturationThreshold(10_000));
        r.on(new RunEvent.Started(0, 1 * S));
        for (int i = 0; i < 3; i++) {
            r.on(new RunEvent.Interval(new MergedInterval(i, i * S, (i + 1) * S, new Counters(1000, 1000, 0, 100_000,
                    1000, 100_000, 0, 0), MergedInterval.noStats(), 1, List.of())));
        }
        r.info("result: out/result.json");
        List<String> json = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(3, json.size(), "one line per interval and nothing else: " + json);
        for (int i = 0; i < 3; i++) {
            JsonNode n = ResultDocument.JSON.readTree(json.get(i));
            assertEquals(i, n.get("index").asInt(), json.get(i));
            assertEquals(i == 0, n.get("warmup").asBoolean(), "the first second is the warm-up: " + json.get(i));
        }
        String text = human.toString(StandardCharsets.UTF_8);
        assertEquals(List.of("run r1: the plan", "result: out/result.json"), text.lines().toList(),
                "info lines on stderr; the intervals only on stdout");
        assertTrue(!text.contains("{"), text);
    }
}
