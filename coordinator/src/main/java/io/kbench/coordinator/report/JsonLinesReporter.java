package io.kbench.coordinator.report;

import java.io.PrintStream;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;

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

    @Override
    public void info(String line) {
        human.info(line);
    }

    @Override
    public void prepared(long prepareStartMicros, long readyMicros, long rebalanceMicros) {
        human.prepared(prepareStartMicros, readyMicros, rebalanceMicros);
    }

    @Override
    public synchronized void saturationThreshold(long micros) {
        saturationMicros = micros;
        human.saturationThreshold(micros);
    }

    @Override
    public synchronized void started(long runStartMicros, long measureStartMicros) {
        this.measureStartMicros = measureStartMicros;
        human.started(runStartMicros, measureStartMicros);
    }

    @Override
    public void clockBound(long micros) {
        human.clockBound(micros);
    }

    @Override
    public synchronized void faults(FaultTimeline timeline) {
        faults = timeline;
        human.faults(timeline);
    }

    @Override
    public synchronized void interval(MergedInterval i) {
        try {
            out.println(ResultDocument.JSON.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(ResultDocument.interval(i, measureStartMicros, saturationMicros, verification,
                            share, faults.downDuring(i.startMicros(), i.endMicros()))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void summary(String title, Summary summary, int subscriptionsPerTopic) {
        human.summary(title, summary, subscriptionsPerTopic);
    }
}
