package io.kbench.coordinator.run;

import java.time.Duration;

import io.kbench.coordinator.workload.Workload;

/**
 * When a run starts, when its measurement starts and when it is planned to end (coordinator µs).
 *
 * @param runStartMicros     the instant every worker starts, agreed in advance
 * @param measureStartMicros the end of a time warm-up (a warm-up by count ends where the merger finds it)
 * @param plannedEndMicros   a timed run's end of sending; a record-count run's bound (its longest duration)
 */
public record RunWindow(long runStartMicros, long measureStartMicros, long plannedEndMicros) {
    /** Lead time between handing out the start instant and reaching it: every worker gets it in time. */
    public static final Duration START_DELAY = Duration.ofMillis(1500);
    /** The longest a record-count run may take. */
    public static final Duration MAX_RECORDS_RUN = Duration.ofDays(7);

    public static RunWindow of(Workload workload, long nowMicros) {
        long runStart = nowMicros + START_DELAY.toNanos() / 1000;
        long measureStart = runStart + workload.warmupSeconds() * 1_000_000L;
        long plannedEnd = measureStart + (workload.numRecords() > 0 ? MAX_RECORDS_RUN.toNanos() / 1000
                : workload.durationSeconds() * 1_000_000L);
        return new RunWindow(runStart, measureStart, plannedEnd);
    }
}
