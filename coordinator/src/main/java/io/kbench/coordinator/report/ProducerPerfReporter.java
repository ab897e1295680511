package io.kbench.coordinator.report;

import java.io.PrintStream;
import java.util.Locale;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.protocol.Counters;
import io.kbench.protocol.Metric;

/**
 * Prints what {@code kafka-producer-perf-test} prints, line for line in its shapes (checked against Kafka
 * 4.3.1's ProducerPerformance), so scripts that parse it keep working: a window line per reporting
 * interval and the total line with percentiles. Latency is the tool's: send() to ack. kbench's other
 * lines (and the coordinated-omission-free response time) go to stderr.
 */
public final class ProducerPerfReporter implements RunReporter {
    private static final double MB = 1024.0 * 1024.0;

    private final PrintStream out;
    private final PrintStream err;

    public ProducerPerfReporter(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public synchronized void info(String line) {
        err.println(line);
    }

    @Override
    public void started(long runStartMicros, long measureStartMicros) {
    }

    @Override
    public synchronized void interval(MergedInterval i) {
        Counters c = i.counters();
        if (c.acked() == 0) {
            return;
        }
        double secs = i.seconds();
        LatencyStats lat = i.stats(Metric.PUBLISH_LATENCY);
        out.printf(Locale.ROOT, "%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.%n",
                c.acked(), c.acked() / secs, c.ackedBytes() / MB / secs, lat.mean() / 1000.0, lat.max() / 1000.0);
    }

    @Override
    public synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        LatencyStats lat = s.stats(Metric.PUBLISH_LATENCY);
        out.printf(Locale.ROOT, "%d records sent, %f records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, "
                        + "%d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.%n",
                s.acked(), s.publishRate(), s.publishMBps(), lat.mean() / 1000.0, lat.max() / 1000.0,
                lat.p50() / 1000, lat.p95() / 1000, lat.p99() / 1000, lat.p999() / 1000);
        LatencyStats resp = s.stats(Metric.PUBLISH_RESPONSE);
        err.printf(Locale.ROOT, "%s: %,d failed; response time (intended send -> ack) p50 %.2f, p99 %.2f, p99.9 %.2f, max %.2f ms%n",
                title, s.failed(), resp.p50() / 1000.0, resp.p99() / 1000.0, resp.p999() / 1000.0, resp.max() / 1000.0);
    }
}
