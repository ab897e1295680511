package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.util.Locale;

import io.kbench.coordinator.diagnosis.Diagnosis;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;

/**
 * Prints what {@code kafka-producer-perf-test} prints, line for line in its shapes (checked against Kafka
 * 4.3.1's ProducerPerformance), so scripts that parse it keep working: a window line per reporting
 * interval and the total line with percentiles. Latency is the tool's: send() to ack. kbench's other
 * lines (and the coordinated-omission-free response time) go to stderr.
 *
 * <p>The workers report every second; a window line covers the seconds of one {@code --reporting-interval}
 * (the unfinished window at the end of the run is not printed, as in the tool). With {@code --warmup-records}: the tool's announcement first,
 * {@code In steady state.} before the first window after the warm-up, the whole run's total line, then the
 * {@code steady state} total line. kbench's steady state starts at the end of the second in which the
 * warm-up count was acknowledged (the tool switches at the record itself). With {@code --print-metrics}:
 * each producer's metrics after the totals.
 */
public final class ProducerPerfReporter extends ToolLinesReporter {
    private static final double MB = 1024.0 * 1024.0;

    private final long warmupRecords;
    private final long windowMicros;
    // the window being gathered
    private long windowStartMicros = -1;
    private long windowAcked;
    private long windowBytes;
    private double windowLatencySum;
    private long windowLatencyMax;
    private long windowEndMicros;
    private boolean announced;
    private boolean steadyNext;

    public ProducerPerfReporter(PrintStream out, PrintStream err) {
        this(out, err, 1000, 0, false);
    }

    /**
     * @param reportingMillis the tool's {@code --reporting-interval}: the span of a window line
     * @param warmupRecords   the tool's {@code --warmup-records} (0: none)
     * @param printMetrics    the tool's {@code --print-metrics}
     */
    public ProducerPerfReporter(PrintStream out, PrintStream err, long reportingMillis, long warmupRecords,
                                boolean printMetrics) {
        super(out, err, printMetrics, java.util.List.of(
                java.util.Map.entry(Diagnosis.WARMUP_KEYS, "(--warmup-records)"),
                java.util.Map.entry(Diagnosis.WARMUP_KEY, "(--warmup-records)"),
                java.util.Map.entry(Diagnosis.PRODUCERS_KEY, "(--producers"),
                java.util.Map.entry("(" + Diagnosis.TRANSACTION_MILLIS_KEY + ", ", "(--transaction-duration-ms, ")));
        this.windowMicros = reportingMillis * 1000;
        this.warmupRecords = warmupRecords;
    }

    @Override
    protected void event(RunEvent event) {
        if (event instanceof RunEvent.Started e) {
            started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
        } else if (event instanceof RunEvent.WholeRun e) {
            wholeRun(e.title(), e.summary());
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary(), e.subscriptionsPerTopic());
        }
    }

    private synchronized void started(long runStartMicros, long measureStartMicros) {
        if (warmupRecords <= 0) {
            return;
        }
        if (!announced) {
            announced = true;
            out.println("Warmup first " + warmupRecords + " records. Steady state results will print after the "
                    + "complete test summary.");
        }
        if (measureStartMicros != Long.MAX_VALUE) {
            // the warm-up by count ended with the interval just gathered: as in the tool, whose steady-state
            // windows start afresh at the switch, the unfinished window is dropped
            resetWindow(windowEndMicros);
            steadyNext = true;
        }
    }

    private synchronized void interval(MergedInterval i) {
        Counters c = i.counters();
        LatencyStats lat = i.stats(Metric.PUBLISH_LATENCY);
        if (windowStartMicros < 0) {
            windowStartMicros = i.startMicros();
        }
        windowAcked += c.acked();
        windowBytes += c.ackedBytes();
        windowLatencySum += lat.mean() * lat.count();
        windowLatencyMax = Math.max(windowLatencyMax, lat.max());
        windowEndMicros = i.endMicros();
        if (i.endMicros() - windowStartMicros >= windowMicros) {
            printWindow();
        }
    }

    /**
     * Prints the window gathered (if it saw acks) and starts the next. As in the tool, only whole windows are
     * printed: not the unfinished one at the end of the warm-up or of the run.
     */
    private void printWindow() {
        long endMicros = windowEndMicros;
        if (windowAcked > 0) {
            if (steadyNext) {
                steadyNext = false;
                out.println("In steady state.");
            }
            double secs = Math.max(1, endMicros - windowStartMicros) / 1e6;
            out.print(String.format(Locale.ROOT, "%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.%n",
                    windowAcked, windowAcked / secs, windowBytes / MB / secs, windowLatencySum / windowAcked / 1000.0,
                    windowLatencyMax / 1000.0));
        }
        resetWindow(endMicros);
    }

    private void resetWindow(long startMicros) {
        windowStartMicros = startMicros;
        windowAcked = 0;
        windowBytes = 0;
        windowLatencySum = 0;
        windowLatencyMax = 0;
    }

    private synchronized void wholeRun(String title, Summary whole) {
        total(whole.acked(), "", whole);
    }

    private synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        if (warmupRecords > 0) {
            total(s.measuredAcked(), " steady state", s);
        } else {
            total(s.acked(), "", s);
        }
        if (metrics != null) {
            metrics.print(out);
        }
        LatencyStats resp = s.stats(Metric.PUBLISH_RESPONSE);
        err.print(String.format(Locale.ROOT, "%s: %,d failed; response time (intended send -> ack) p50 %.2f, p99 %.2f, p99.9 %.2f, max %.2f ms%n",
                title, s.failed(), resp.p50() / 1000.0, resp.p99() / 1000.0, resp.p999() / 1000.0, resp.max() / 1000.0));
    }

    private void total(long records, String which, Summary s) {
        LatencyStats lat = s.stats(Metric.PUBLISH_LATENCY);
        out.print(String.format(Locale.ROOT, "%d%s records sent, %f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, "
                        + "%d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.%n",
                records, which, s.publishRate(), s.publishMBps(), lat.mean() / 1000.0, lat.max() / 1000.0,
                lat.p50() / 1000, lat.p95() / 1000, lat.p99() / 1000, lat.p999() / 1000));
    }
}
