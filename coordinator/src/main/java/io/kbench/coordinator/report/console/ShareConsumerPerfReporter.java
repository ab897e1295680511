package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.protocol.ConsumerTotal;

/**
 * Prints what {@code kafka-share-consumer-perf-test} prints (checked against Kafka 4.3.1's ShareConsumerPerformance):
 * a header and one row of {@code start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg,
 * fetch.time.ms} for the share group. Records are deliveries (a redelivered record counts again, as the tool counts
 * what its polls return); start.time is the start instant (the share consumers are held until then, so joining the
 * group is part of the fetch time, as in the tool), end.time the last delivery. kbench's other lines go to stderr.
 *
 * <p>With {@code --show-consumer-stats}: before the group's row, one line per share consumer
 * ({@code Share consumer N having client id ID consumption metrics- ...}, N from 1 in the order of the consumers'
 * indexes) over the
 * group's span. With {@code --show-detailed-stats}: a row per reporting interval, for the whole group (numbered
 * share consumer 0; the tool prints a row per consumer, numbered from 1). With fewer records than asked, the tool's
 * timeout warning. With {@code --print-metrics}: each share consumer's metrics after the row.
 */
public final class ShareConsumerPerfReporter extends ToolLinesReporter {
    private static final double MB = 1024.0 * 1024.0;
    static final String HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, "
            + "fetch.time.ms";

    private final boolean header;
    private final DateTimeFormatter dates;
    private final long numRecords;
    private final long timeoutMs;
    private final boolean consumerStats;
    private final List<ConsumerTotal> totals = new ArrayList<>();
    private long startMicros = -1;
    private boolean headerPrinted;
    // --show-detailed-stats: the window being gathered and the totals so far
    /** The detailed rows' window; null without them. */
    private final DetailRows rows;

    /**
     * @param numRecords    records asked for (the timeout warning is printed when fewer were delivered)
     * @param timeoutMs     the tool's {@code --timeout}, for its warning
     * @param detailMillis  the reporting interval of {@code --show-detailed-stats} rows, 0 for none
     * @param consumerStats the tool's {@code --show-consumer-stats}
     * @param printMetrics  the tool's {@code --print-metrics}
     */
    public ShareConsumerPerfReporter(PrintStream out, PrintStream err, boolean header, String dateFormat,
                                     long numRecords, long timeoutMs, long detailMillis, boolean consumerStats,
                                     boolean printMetrics) {
        super(out, err, printMetrics, java.util.List.of(java.util.Map.entry(io.kbench.coordinator.diagnosis.Diagnosis.WARM_UP_OR_WORKERS, "workers")));
        this.header = header;
        this.dates = DateTimeFormatter.ofPattern(dateFormat).withZone(ZoneId.systemDefault());
        this.numRecords = numRecords;
        this.timeoutMs = timeoutMs;
        this.rows = detailMillis > 0 ? new DetailRows(detailMillis * 1000) : null;
        this.consumerStats = consumerStats;
    }

    @Override
    protected void event(RunEvent event) {
        if (event instanceof RunEvent.Started e) {
            started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
        } else if (event instanceof RunEvent.ConsumerTotals e) {
            consumerTotals(e.totals());
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary(), e.subscriptionsPerTopic());
        }
    }

    private synchronized void started(long runStartMicros, long measureStartMicros) {
        if (startMicros < 0) {
            startMicros = runStartMicros;
        }
        printHeader();
    }

    private void printHeader() {
        if (header && !headerPrinted) {
            out.println(HEADER);
        }
        headerPrinted = true;
    }

    private synchronized void interval(MergedInterval i) {
        if (rows == null || !rows.add(i.startMicros(), i.endMicros(), i.counters().shareDelivered(),
                i.counters().shareDeliveredBytes())) {
            return;
        }
        double elapsedMs = (i.endMicros() - rows.windowStartMicros()) / 1000.0;
        out.print(String.format(Locale.ROOT, "%s, %s, %.4f, %.4f, %.4f, %d, %d for share consumer 0%n",
                date(rows.windowStartMicros()), date(i.endMicros()), rows.totalBytes() / MB,
                1000.0 * (rows.windowBytes() / MB) / elapsedMs, 1000.0 * rows.windowRecords() / elapsedMs,
                rows.totalRecords(), Math.round(elapsedMs)));
        rows.rowPrinted(i.endMicros());
    }

    private synchronized void consumerTotals(List<ConsumerTotal> workerTotals) {
        for (ConsumerTotal t : workerTotals) {
            if (t.share()) {
                totals.add(t);
            }
        }
    }

    private synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        printHeader();
        long fetchMs = Math.round(s.measuredSeconds() * 1000);
        long startMillis = (startMicros < 0 ? 0 : startMicros) / 1000;
        long endMillis = startMillis + fetchMs;
        double seconds = fetchMs / 1000.0;
        if (consumerStats) {
            totals.sort(Comparator.comparingInt(ConsumerTotal::index));
            for (int n = 0; n < totals.size(); n++) {
                ConsumerTotal t = totals.get(n);
                out.print(String.format(Locale.ROOT, "Share consumer %d having client id %s consumption metrics- %s, %s, %.4f, "
                        + "%.4f, %.4f, %d, %d%n", n + 1, t.clientId(), date(startMillis * 1000), date(endMillis * 1000), t.bytes() / MB,
                        per(t.bytes() / MB, seconds), per(t.records(), seconds), t.records(), fetchMs));
            }
        }
        if (s.totals().shareDelivered() < numRecords) {
            out.print(String.format(Locale.ROOT, "WARNING: Exiting before consuming the expected number of records: timeout (%d ms) "
                    + "exceeded. You can use the --timeout option to increase the timeout.%n", timeoutMs));
        }
        long records = s.window().shareDelivered();
        double mb = s.window().shareDeliveredBytes() / MB;
        out.print(String.format(Locale.ROOT, "%s, %s, %.4f, %.4f, %.4f, %d, %d%n", date(startMillis * 1000), date(endMillis * 1000),
                mb, per(mb, seconds), per(records, seconds), records, fetchMs));
        if (metrics != null) {
            metrics.print(out);
        }
        err.println(title + (s.totals().shareDelivered() > records ? String.format(Locale.ROOT,
                " (%,d deliveries in all; the row counts those up to the last delivery)", s.totals().shareDelivered())
                : ""));
    }

    private String date(long micros) {
        return dates.format(Instant.ofEpochMilli(micros / 1000));
    }

    private static double per(double amount, double seconds) {
        return seconds <= 0 ? 0 : amount / seconds;
    }
}
