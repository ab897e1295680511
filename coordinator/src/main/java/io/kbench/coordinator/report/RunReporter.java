package io.kbench.coordinator.report;

/**
 * What a run shows its user while it goes: kbench's own progress lines ({@link ProgressPrinter}), the Kafka perf
 * tools' line shapes, the NDJSON stream, the live dashboard. It hears every {@link RunEvent} and acts on those it
 * shows; one that wraps another passes each event on whole. Called from the coordinator's thread and from gRPC
 * threads as intervals complete; implementations serialize their output.
 */
@FunctionalInterface
public interface RunReporter {
    /** One event of the run. */
    void on(RunEvent event);

    /** Reports an {@link RunEvent.Info} line (the most frequent event, so it has a shorthand). */
    default void info(String line) {
        on(new RunEvent.Info(line));
    }
}
