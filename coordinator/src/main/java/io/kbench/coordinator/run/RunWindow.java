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
    /**
     * Most lead time between handing out the start instant and reaching it; {@link #lead} gives each run its
     * own, from its workers' count and round trips.
     */
    public static final Duration START_DELAY = Duration.ofMillis(1500);
    /** Least lead time: the workers' load threads are started and parked before the start instant. */
    public static final Duration MIN_LEAD = Duration.ofMillis(250);
    /** The longest a record-count run may take. */
    public static final Duration MAX_RECORDS_RUN = Duration.ofDays(7);

    public static RunWindow of(Workload workload, long nowMicros) {
        return of(workload, nowMicros, START_DELAY.toNanos() / 1000);
    }

    /**
     * The lead time a run needs so that every worker has its start instant before it is reached: the Run calls
     * go out to all workers at once (each answered within a round trip), and each worker starts its load threads
     * — {@link #MIN_LEAD}, plus a millisecond per worker for the calls' fan-out, plus four round trips of the
     * slowest worker (twice its clock uncertainty is one round trip), at most {@link #START_DELAY}.
     *
     * @param maxUncertaintyMicros the largest clock uncertainty (half the best round trip) of the run's workers
     */
    public static long lead(int workers, long maxUncertaintyMicros) {
        long micros = MIN_LEAD.toNanos() / 1000 + 1_000L * workers + 8 * Math.max(0, maxUncertaintyMicros);
        return Math.min(micros, START_DELAY.toNanos() / 1000);
    }

    /** A window whose start instant is {@code leadMicros} from now. */
    public static RunWindow of(Workload workload, long nowMicros, long leadMicros) {
        long runStart = nowMicros + leadMicros;
        long measureStart = runStart + workload.warmupSeconds() * 1_000_000L;
        long plannedEnd = measureStart + (workload.numRecords() > 0 ? MAX_RECORDS_RUN.toNanos() / 1000
                : workload.durationSeconds() * 1_000_000L);
        return new RunWindow(runStart, measureStart, plannedEnd);
    }
}
