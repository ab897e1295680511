package io.kbench.coordinator.report;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;

/**
 * Prints what {@code kafka-consumer-perf-test} prints (checked against Kafka 4.3.1's ConsumerPerformance):
 * a header line and one row of {@code start.time, end.time, data.consumed.in.MB, MB.sec,
 * data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec}.
 * Here rebalance time is the longest time a consumer took from subscribing to its first assignment, fetch
 * time from the start instant (consumers are held until then) to the last receipt; start.time is when
 * preparing began and end.time is start.time plus both. kbench's other lines go to stderr.
 */
public final class ConsumerPerfReporter implements RunReporter {
    private static final double MB = 1024.0 * 1024.0;
    static final String HEADER = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
            + "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean header;
    private final DateTimeFormatter dates;
    private long prepareStartMicros;
    private long rebalanceMicros;

    public ConsumerPerfReporter(PrintStream out, PrintStream err, boolean header, String dateFormat) {
        this.out = out;
        this.err = err;
        this.header = header;
        this.dates = DateTimeFormatter.ofPattern(dateFormat).withZone(ZoneId.systemDefault());
    }

    @Override
    public synchronized void info(String line) {
        err.println(line);
    }

    @Override
    public synchronized void prepared(long prepareStart, long ready, long rebalance) {
        this.prepareStartMicros = prepareStart;
        this.rebalanceMicros = rebalance;
    }

    @Override
    public void started(long runStartMicros, long measureStartMicros) {
    }

    @Override
    public void interval(MergedInterval interval) {
    }

    @Override
    public synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        long rebalanceMs = rebalanceMicros / 1000;
        long fetchMs = Math.round(s.measuredSeconds() * 1000);
        double mb = s.measuredReceivedBytes() / MB;
        long messages = s.measuredReceived();
        double totalSec = (rebalanceMs + fetchMs) / 1000.0;
        double fetchSec = fetchMs / 1000.0;
        long startMillis = prepareStartMicros / 1000;
        if (header) {
            out.println(HEADER);
        }
        out.printf(Locale.ROOT, "%s, %s, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f%n",
                dates.format(Instant.ofEpochMilli(startMillis)),
                dates.format(Instant.ofEpochMilli(startMillis + rebalanceMs + fetchMs)),
                mb, per(mb, totalSec), messages, per(messages, totalSec), rebalanceMs, fetchMs,
                per(mb, fetchSec), per(messages, fetchSec));
        err.println(title + (s.received() > messages ? String.format(Locale.ROOT,
                " (%,d messages in all; the row counts those read up to the last receipt)", s.received()) : ""));
    }

    private static double per(double amount, double seconds) {
        return seconds <= 0 ? 0 : amount / seconds;
    }
}
