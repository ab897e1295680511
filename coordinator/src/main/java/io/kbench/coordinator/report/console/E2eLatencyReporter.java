package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.util.Locale;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.protocol.Metric;
import io.kbench.protocol.RoundTripSample;
import org.HdrHistogram.Histogram;

/**
 * Prints what Kafka's EndToEndLatency prints (checked against 4.3.1): {@code i<TAB>latency} for messages 0, 1000,
 * 2000 ... as their round trips complete, then {@code Avg latency: X ms} and {@code Percentiles: 50th = A, 99th = B,
 * 99.9th = C} in whole milliseconds, as the tool truncates them. A round trip is a message's time from its send to
 * its consumer receiving it, timed by the worker that runs both ends at microsecond resolution (the tool's ends when
 * its poll returns, which it calls once the send was acknowledged). stderr: the same figures in µs with p99.99 and
 * max, the send -> ack latency, and the end-to-end distribution in ms.
 */
public final class E2eLatencyReporter extends ToolLinesReporter {
    /** The run's end-to-end histogram, added up from its intervals (one histogram, whatever the run's length). */
    private final Histogram endToEnd = new Histogram(3);

    public E2eLatencyReporter(PrintStream out, PrintStream err) {
        super(out, err, false, java.util.List.of(java.util.Map.entry(io.kbench.coordinator.diagnosis.Diagnosis.WARM_UP_OR_WORKERS, "workers")));
    }

    @Override
    protected void event(RunEvent event) {
        if (event instanceof RunEvent.RoundTrips e) {
            roundTrips(e);
        } else if (event instanceof RunEvent.IntervalHistograms e) {
            added(e.histograms().get(Metric.END_TO_END));
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary());
        }
    }

    private synchronized void roundTrips(RunEvent.RoundTrips e) {
        for (RoundTripSample s : e.samples()) {
            out.println(s.index() + "\t" + s.latencyMicros() / 1000.0);
        }
    }

    private synchronized void added(Histogram interval) {
        if (interval != null) {
            endToEnd.add(interval);
        }
    }

    private synchronized void summary(String title, Summary s) {
        LatencyStats e2e = s.stats(Metric.END_TO_END);
        if (e2e.count() == 0) {
            return; // as the tool: no figures without a round trip
        }
        out.printf(Locale.ROOT, "Avg latency: %.4f ms%n", e2e.mean() / 1000.0);
        out.printf(Locale.ROOT, "Percentiles: 50th = %d, 99th = %d, 99.9th = %d%n", e2e.p50() / 1000, e2e.p99() / 1000,
                e2e.p999() / 1000);
        err.printf(Locale.ROOT, "%s: %,d round trips; end-to-end (send -> received) µs: mean %.1f, p50 %d, p99 %d, "
                        + "p99.9 %d, p99.99 %d, max %d%n", title, e2e.count(), e2e.mean(), e2e.p50(), e2e.p99(), e2e.p999(),
                e2e.p9999(), e2e.max());
        LatencyStats ack = s.stats(Metric.PUBLISH_LATENCY);
        err.printf(Locale.ROOT, "%s: send -> ack µs: mean %.1f, p50 %d, p99 %d, p99.9 %d, max %d%n", title, ack.mean(),
                ack.p50(), ack.p99(), ack.p999(), ack.max());
        if (endToEnd.getTotalCount() > 0) {
            err.println(title + ": end-to-end distribution (ms):");
            endToEnd.outputPercentileDistribution(err, 5, 1000.0);
        }
    }
}
