package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.protocol.ClientMetricsDump;

/**
 * Prints what {@code kafka-consumer-perf-test} prints (checked against Kafka 4.3.1's ConsumerPerformance):
 * a header line and one row of {@code start.time, end.time, data.consumed.in.MB, MB.sec,
 * data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec}.
 * Here rebalance time is the longest time a consumer took from subscribing to its first assignment, fetch
 * time from the start instant (consumers are held until then) to the last receipt; start.time is when
 * preparing began and end.time is start.time plus both. kbench's other lines go to stderr.
 *
 * <p>With {@code --show-detailed-stats}: the header {@code time, threadId, ...} and a row per reporting
 * interval instead (threadId 0, as the tool prints; the first row's rebalance time is the join, later ones
 * 0), no total row. With fewer records read than asked, the tool's timeout warning. With
 * {@code --print-metrics}: each consumer's metrics at the end.
 */
public final class ConsumerPerfReporter implements RunReporter {
    private static final double MB = 1024.0 * 1024.0;
    static final String HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";
    static final String DETAILED_HEADER = "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean header;
    private final DateTimeFormatter dates;
    private final long numRecords;
    private final long timeoutMs;
    private final long detailMicros;
    private final MetricsDumpPrinter metrics;
    private long prepareStartMicros;
    private long rebalanceMicros;
    private boolean headerPrinted;
    // --show-detailed-stats: the window being gathered and the totals so far
    private long windowStartMicros = -1;
    private long windowRecords;
    private long windowBytes;
    private long totalRecords;
    private long totalBytes;
    private boolean rebalanceShown;

    public ConsumerPerfReporter(PrintStream out, PrintStream err, boolean header, String dateFormat) {
        this(out, err, header, dateFormat, Long.MAX_VALUE, 10_000, 0, false);
    }

    /**
     * @param numRecords    records asked for (the timeout warning is printed when fewer were read)
     * @param timeoutMs     the tool's {@code --timeout}, for its warning
     * @param detailMillis  the reporting interval of {@code --show-detailed-stats} rows, 0 for the total row
     * @param printMetrics  the tool's {@code --print-metrics}
     */
    public ConsumerPerfReporter(PrintStream out, PrintStream err, boolean header, String dateFormat, long numRecords,
                                long timeoutMs, long detailMillis, boolean printMetrics) {
        this.out = out;
        this.err = err;
        this.header = header;
        this.dates = DateTimeFormatter.ofPattern(dateFormat).withZone(ZoneId.systemDefault());
        this.numRecords = numRecords;
        this.timeoutMs = timeoutMs;
        this.detailMicros = detailMillis * 1000;
        this.metrics = printMetrics ? new MetricsDumpPrinter() : null;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.Info e) {
            onInfo(e.line());
        } else if (event instanceof RunEvent.Prepared e) {
            prepared(e.prepareStartMicros(), e.readyMicros(), e.rebalanceMicros());
        } else if (event instanceof RunEvent.Started e) {
            started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
        } else if (event instanceof RunEvent.ClientMetrics e) {
            clientMetrics(e.dumps());
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary(), e.subscriptionsPerTopic());
        }
    }

    private synchronized void onInfo(String line) {
        err.println(line);
    }

    private synchronized void prepared(long prepareStart, long ready, long rebalance) {
        this.prepareStartMicros = prepareStart;
        this.rebalanceMicros = rebalance;
    }

    private synchronized void started(long runStartMicros, long measureStartMicros) {
        printHeader();
    }

    private void printHeader() {
        if (header && !headerPrinted) {
            out.println(detailMicros > 0 ? DETAILED_HEADER : HEADER);
        }
        headerPrinted = true;
    }

    private synchronized void interval(MergedInterval i) {
        if (detailMicros <= 0) {
            return;
        }
        if (windowStartMicros < 0) {
            windowStartMicros = i.startMicros();
        }
        windowRecords += i.counters().received();
        windowBytes += i.counters().receivedBytes();
        totalRecords += i.counters().received();
        totalBytes += i.counters().receivedBytes();
        long elapsedMicros = i.endMicros() - windowStartMicros;
        if (elapsedMicros < detailMicros || windowRecords == 0) {
            return; // as the tool: a row once an interval has passed and records came in it
        }
        long elapsedMs = elapsedMicros / 1000;
        long joinMs = rebalanceShown ? 0 : rebalanceMicros / 1000;
        rebalanceShown = true;
        // kbench's intervals start once the consumers joined: the first row's span adds the join back, as the
        // tool's first row spans it (and its fetch time leaves it out)
        double spanSec = (elapsedMs + joinMs) / 1000.0;
        double windowMb = windowBytes / MB;
        out.print(String.format(Locale.ROOT, "%s, %d, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f%n",
                dates.format(Instant.ofEpochMilli(i.endMicros() / 1000)), 0, totalBytes / MB, per(windowMb, spanSec),
                totalRecords, per(windowRecords, spanSec), joinMs, elapsedMs, per(windowMb, elapsedMs / 1000.0),
                per(windowRecords, elapsedMs / 1000.0)));
        windowStartMicros = i.endMicros();
        windowRecords = 0;
        windowBytes = 0;
    }

    private void clientMetrics(List<ClientMetricsDump> dumps) {
        if (metrics != null) {
            metrics.add(dumps);
        }
    }

    private synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        printHeader();
        long messages = s.measuredReceived();
        if (s.received() < numRecords) {
            out.print(String.format(Locale.ROOT, "WARNING: Exiting before consuming the expected number of records: timeout (%d ms) "
                    + "exceeded. You can use the --timeout option to increase the timeout.%n", timeoutMs));
        }
        if (detailMicros <= 0) {
            long rebalanceMs = rebalanceMicros / 1000;
            long fetchMs = Math.round(s.measuredSeconds() * 1000);
            double mb = s.measuredReceivedBytes() / MB;
            double totalSec = (rebalanceMs + fetchMs) / 1000.0;
            double fetchSec = fetchMs / 1000.0;
            long startMillis = prepareStartMicros / 1000;
            out.print(String.format(Locale.ROOT, "%s, %s, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f%n",
                    dates.format(Instant.ofEpochMilli(startMillis)),
                    dates.format(Instant.ofEpochMilli(startMillis + rebalanceMs + fetchMs)),
                    mb, per(mb, totalSec), messages, per(messages, totalSec), rebalanceMs, fetchMs,
                    per(mb, fetchSec), per(messages, fetchSec)));
        }
        if (metrics != null) {
            metrics.print(out);
        }
        err.println(title + (s.received() > messages ? String.format(Locale.ROOT,
                " (%,d messages in all; the row counts those read up to the last receipt)", s.received()) : ""));
    }

    private static double per(double amount, double seconds) {
        return seconds <= 0 ? 0 : amount / seconds;
    }
}
