package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;

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
public final class ConsumerPerfReporter extends ToolLinesReporter {
    private static final double MB = 1024.0 * 1024.0;
    static final String HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";
    static final String DETAILED_HEADER = "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";

    private final boolean header;
    private final DateTimeFormatter dates;
    private final long numRecords;
    private final long timeoutMs;
    private long prepareStartMicros;
    private long rebalanceMicros;
    private boolean headerPrinted;
    // --show-detailed-stats: the window being gathered and the totals so far
    /** The detailed rows' window; null without them. */
    private final DetailRows rows;
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
        super(out, err, printMetrics, java.util.List.of(java.util.Map.entry(io.kbench.coordinator.diagnosis.Diagnosis.WARM_UP_OR_WORKERS, "workers")));
        this.header = header;
        this.dates = DateTimeFormatter.ofPattern(dateFormat).withZone(ZoneId.systemDefault());
        this.numRecords = numRecords;
        this.timeoutMs = timeoutMs;
        this.rows = detailMillis > 0 ? new DetailRows(detailMillis * 1000) : null;
    }

    @Override
    protected void event(RunEvent event) {
        if (event instanceof RunEvent.Prepared e) {
            prepared(e.prepareStartMicros(), e.readyMicros(), e.rebalanceMicros());
        } else if (event instanceof RunEvent.Started e) {
            started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary(), e.subscriptionsPerTopic());
        }
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
            out.println(rows != null ? DETAILED_HEADER : HEADER);
        }
        headerPrinted = true;
    }

    private synchronized void interval(MergedInterval i) {
        if (rows == null || !rows.add(i.startMicros(), i.endMicros(), i.counters().received(),
                i.counters().receivedBytes())) {
            return;
        }
        long elapsedMs = (i.endMicros() - rows.windowStartMicros()) / 1000;
        long joinMs = rebalanceShown ? 0 : rebalanceMicros / 1000;
        rebalanceShown = true;
        // kbench's intervals start once the consumers joined: the first row's span adds the join back, as the
        // tool's first row spans it (and its fetch time leaves it out)
        double spanSec = (elapsedMs + joinMs) / 1000.0;
        double windowMb = rows.windowBytes() / MB;
        out.print(String.format(Locale.ROOT, "%s, %d, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f%n",
                dates.format(Instant.ofEpochMilli(i.endMicros() / 1000)), 0, rows.totalBytes() / MB,
                per(windowMb, spanSec), rows.totalRecords(), per(rows.windowRecords(), spanSec), joinMs, elapsedMs,
                per(windowMb, elapsedMs / 1000.0), per(rows.windowRecords(), elapsedMs / 1000.0)));
        rows.rowPrinted(i.endMicros());
    }

    private synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        printHeader();
        long messages = s.measuredReceived();
        if (s.received() < numRecords) {
            out.print(String.format(Locale.ROOT, "WARNING: Exiting before consuming the expected number of records: timeout (%d ms) "
                    + "exceeded. You can use the --timeout option to increase the timeout.%n", timeoutMs));
        }
        if (rows == null) {
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
