package io.kbench.coordinator.report.console;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

/** Each progress line says how long the producers have left by plan, then that the run drains. */
class ProgressPrinterTest {
    private static final long S = 1_000_000;
    private static final long START = 1_800_000_000L * S;

    private static List<String> lines(Workload w, int... endSeconds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgressPrinter p = new ProgressPrinter(new PrintStream(out, true, StandardCharsets.UTF_8));
        p.on(new RunEvent.Begin("r", w));
        p.on(new RunEvent.Started(START, START + w.warmupSeconds() * S));
        for (int end : endSeconds) {
            p.on(new RunEvent.Interval(new MergedInterval(end - 1, START + (end - 1) * S, START + end * S, Counters.ZERO,
                    MergedInterval.noStats(), 1, List.of())));
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldCountDownTheTimedRunThenSayItDrains() {
        List<String> l = lines(Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, 2, 10), 1, 11, 12, 13, 14);
        assertTrue(l.get(0).endsWith(" | 11 s left"), l.get(0));
        assertTrue(l.get(1).endsWith(" | 1 s left"), l.get(1));
        assertTrue(l.get(2).endsWith(" | 0 s left"), "the last second of sending: " + l.get(2));
        assertTrue(l.get(3).endsWith(" | draining"), l.get(3));
        assertTrue(l.get(4).endsWith(" | draining"), l.get(4));
    }

    @Test
    void shouldCountARecordRunAtItsRateAndSayNothingWhenUnthrottledOrWithoutProducers() {
        Workload records = Workload.of("t", java.util.Map.of("producerRate", 1000, "numRecords", 5000));
        assertTrue(lines(records, 1).get(0).endsWith(" | 4 s left"), "5,000 records at 1,000 msg/s");
        assertFalse(lines(records.withProducerRate(Workload.UNTHROTTLED), 1).get(0).contains("left"));
        Workload readers = Workload.of("t", java.util.Map.of("producersPerTopic", 0, "topicNames", List.of("t"),
                "existingTopics", true, "numRecords", 5000));
        assertFalse(lines(readers, 1).get(0).contains("left"), "no producers: no plan to count down");
    }
}
