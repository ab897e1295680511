package io.kbench.coordinator.report.console;

import java.io.PrintStream;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.coordinator.report.result.ResultDocument;

/**
 * {@code kbench run --json}: each interval as one JSON line (NDJSON) on {@code out} — the object
 * {@code result.json} lists under {@code intervals} — and everything meant for people (plan, summary,
 * issues) on {@code human} as usual, so a pipe gets only data.
 */
public final class JsonLinesReporter implements RunReporter {
    private final PrintStream out;
    private final ProgressPrinter human;
    private final boolean verification;
    private final boolean share;
    private long measureStartMicros;
    private long saturationMicros = Long.MAX_VALUE;
    private FaultTimeline faults = new FaultTimeline();

    /** @param verification the workload verifies (each line then carries its verification counts) */
    public JsonLinesReporter(PrintStream out, PrintStream human, boolean verification) {
        this(out, human, verification, false);
    }

    /** @param share the workload has share groups (each line then carries their figures) */
    public JsonLinesReporter(PrintStream out, PrintStream human, boolean verification, boolean share) {
        this.share = share;
        this.out = out;
        this.human = new ProgressPrinter(human);
        this.verification = verification;
    }

    /**
     * Each interval as a JSON line; every other event goes to the human-readable printer whole (its progress lines
     * are the intervals, so those stay here).
     */
    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
            return;
        }
        synchronized (this) {
            if (event instanceof RunEvent.SaturationThreshold e) {
                saturationMicros = e.micros();
            } else if (event instanceof RunEvent.Started e) {
                measureStartMicros = e.measureStartMicros();
            } else if (event instanceof RunEvent.Faults e) {
                faults = e.timeline();
            }
        }
        human.on(event);
    }

    private synchronized void interval(MergedInterval i) {
        try {
            out.println(ResultDocument.JSON.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(ResultDocument.interval(i, measureStartMicros, saturationMicros, verification,
                            share, faults.downDuring(i.startMicros(), i.endMicros()))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
