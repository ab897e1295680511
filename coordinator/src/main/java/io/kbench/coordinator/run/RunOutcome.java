package io.kbench.coordinator.run;

import java.nio.file.Path;
import java.util.List;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.files.Written;

/**
 * How a run ended: what {@link RunController#run()} returns.
 *
 * @param completed true when the run ran its course
 * @param resultFile the result.json written (also for a failed run), or null if it could not be written
 * @param error      why it failed, or null
 * @param summary    the run's figures (of what was gathered, for a failed run)
 * @param result     what result.json holds (also when it could not be written)
 * @param intervals  every merged interval, warm-up and drain included
 * @param measureStartMicros end of warm-up, coordinator time
 * @param measureEndMicros   instant the producers stopped, coordinator time
 */
public record RunOutcome(boolean completed, Path resultFile, String error, Summary summary,
                         ResultFile.Run result, List<MergedInterval> intervals,
                         long measureStartMicros, long measureEndMicros, Written written) {
    public RunOutcome {
        intervals = List.copyOf(intervals);
        written = written == null ? new Written() : written;
    }

    /** An outcome whose files were all written (or that wrote none). */
    public RunOutcome(boolean completed, Path resultFile, String error, Summary summary, ResultFile.Run result,
                   List<MergedInterval> intervals, long measureStartMicros, long measureEndMicros) {
        this(completed, resultFile, error, summary, result, intervals, measureStartMicros, measureEndMicros, null);
    }
}
