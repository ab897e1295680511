package io.kbench.coordinator.report.console;

import java.io.PrintStream;
import java.util.Locale;

import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.report.RunReporter;
import io.kbench.protocol.Metric;

/**
 * Console output: one line per merged interval while the run goes, and the final summary. Rates are per
 * second over the interval; MB is 1,048,576 bytes, as the Kafka tools print it; latencies in milliseconds.
 *
 * <p>Threads: called from gRPC threads as intervals complete; synchronized so lines never interleave.
 */
public final class ProgressPrinter implements RunReporter {
    private static final double MB = 1024.0 * 1024.0;

    private final PrintStream out;
    private long runStartMicros;
    private long measureStartMicros;
    private long saturationMicros = Long.MAX_VALUE;
    private long clockBoundMicros;
    private FaultTimeline faults = new FaultTimeline();
    /** The producers' planned sending time from the start (µs); -1 when not known. */
    private long plannedMicros = -1;
    /** The producers' target rate, msg/s; 0 or less when unthrottled or without producers. */
    private long targetRate;
    /** The run has producers (from its workload): a consumer-only run prints no publish lines of zeros. */
    private boolean producers = true;
    /** Set once the coordinator said the run failed: the intervals still to come are its stop's. */
    private boolean stopping;
    /** What the run's classic groups have not read, exactly, where its counts tell it. */
    private io.kbench.coordinator.report.UnreadCount unread = new io.kbench.coordinator.report.UnreadCount(0);
    /** Messages sent and neither acknowledged nor failed, by the end of the last interval printed. */
    private long outstanding;

    public ProgressPrinter(PrintStream out) {
        this.out = out;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.Begin e) {
            begin(e.runId(), e.workload());
        } else if (event instanceof RunEvent.Info e) {
            onInfo(e.line());
        } else if (event instanceof RunEvent.SaturationThreshold e) {
            saturationThreshold(e.micros());
        } else if (event instanceof RunEvent.Started e) {
            started(e.runStartMicros(), e.measureStartMicros());
        } else if (event instanceof RunEvent.ClockBound e) {
            clockBound(e.micros());
        } else if (event instanceof RunEvent.Faults e) {
            faults(e.timeline());
        } else if (event instanceof RunEvent.Interval e) {
            interval(e.interval());
        } else if (event instanceof RunEvent.Summarized e) {
            summary(e.title(), e.summary(), e.subscriptionsPerTopic());
        }
    }

    private synchronized void begin(String runId, io.kbench.coordinator.workload.Workload w) {
        producers = w.producerCount() > 0;
        targetRate = w.producerCount() > 0 ? w.producerRate() : 0;
        unread = new io.kbench.coordinator.report.UnreadCount(io.kbench.coordinator.report.UnreadCount.classicGroups(w));
        outstanding = 0;
        plannedMicros = w.plannedSendingMicros();
    }

    private synchronized void started(long runStart, long measureStart) {
        this.runStartMicros = runStart;
        this.measureStartMicros = measureStart;
    }

    /**
     * " | 12 s left" at the end of an interval in which the producers had planned sending (0 s for the last such),
     * " | draining" for the intervals after — or, when such an interval still sent more than 10 ms of the target (a
     * generator behind its schedule sends every message the window intended, late), that they are still sending;
     * "" when not known.
     */
    private String timeLeft(long startMicros, long endMicros, long sent) {
        if (stopping) {
            return " | stopped"; // the run failed: its workers were told to stop at once, nothing is left to send
        }
        if (plannedMicros < 0 || runStartMicros == 0) {
            return "";
        }
        long plannedEnd = runStartMicros + plannedMicros;
        if (startMicros >= plannedEnd) {
            return targetRate > 0 && sent > targetRate / 100 ? " | still sending: the producers are behind their schedule"
                    : " | draining";
        }
        long left = Math.max(0, plannedEnd - endMicros);
        long s = (left + 999_999) / 1_000_000;
        return s < 3600 ? String.format(Locale.ROOT, " | %d s left", s)
                : String.format(Locale.ROOT, " | %d:%02d:%02d left", s / 3600, s / 60 % 60, s % 60);
    }

    private synchronized void saturationThreshold(long micros) {
        this.saturationMicros = micros;
    }

    private synchronized void clockBound(long micros) {
        this.clockBoundMicros = micros;
    }

    private synchronized void faults(FaultTimeline timeline) {
        this.faults = timeline;
    }

    private synchronized void interval(MergedInterval i) {
        double secs = i.seconds();
        var c = i.counters();
        LatencyStats lat = i.stats(Metric.PUBLISH_LATENCY);
        LatencyStats resp = i.stats(Metric.PUBLISH_RESPONSE);
        LatencyStats e2e = i.stats(Metric.END_TO_END);
        String phase = i.startMicros() < measureStartMicros ? " warmup" : "";
        // what the classic groups have not read: exact from the counts where they tell it (the consumers' own lag
        // is as of their last fetch, and reads near 0 while they work through a backlog that grows)
        long notRead = unread.after(c.acked(), c.received());
        String backlog = notRead > 0 ? String.format(Locale.ROOT, " unread %,d", notRead)
                : notRead < 0 && i.consumerLag() > 0 ? String.format(Locale.ROOT, " lag %,d", i.consumerLag()) : "";
        StringBuilder notes = new StringBuilder();
        if (c.failed() > 0) {
            notes.append(String.format(Locale.ROOT, " | %,d failed", c.failed()));
        }
        for (String down : faults.downDuring(i.startMicros(), i.endMicros())) {
            notes.append(" | ").append(down);
        }
        if (c.lost() + c.duplicated() + c.outOfOrder() > 0) {
            notes.append(String.format(Locale.ROOT, " | %,d lost %,d dup %,d out-of-order", c.lost(), c.duplicated(),
                    c.outOfOrder()));
        }
        if (c.shareDelivered() > 0 || c.shareAccepted() > 0 || i.shareBacklog() > 0) {
            notes.append(String.format(Locale.ROOT, " | share %,9.0f dlv/s %,9.0f acc/s%s dlv p99 %s acc p99 %s ms%s",
                    c.shareDelivered() / secs, c.shareAccepted() / secs,
                    c.shareRedelivered() > 0 ? String.format(Locale.ROOT, " %,d redelivered", c.shareRedelivered()) : "",
                    p99(i.stats(Metric.SHARE_DELIVERY)), p99(i.stats(Metric.SHARE_ACCEPT)),
                    i.shareBacklog() > 0 ? String.format(Locale.ROOT, " backlog %,d", i.shareBacklog()) : ""));
        }
        outstanding += c.sent() - c.acked() - c.failed();
        double blocked = io.kbench.coordinator.capacity.TrialVerdict.unavailableShare(i);
        if (blocked >= 0.5) {
            // the producers' load threads held in send() by the client, waiting for the cluster's metadata: while it
            // lasts no send completes, so no delay is recorded and the interval cannot show as saturated
            notes.append(String.format(Locale.ROOT, " | SENDS BLOCKED %.0f%% of the interval (waiting for the "
                    + "cluster's metadata: no broker answering?)", 100 * blocked));
        } else if (io.kbench.coordinator.capacity.TrialVerdict.servedNothing(c.acked(), outstanding, null)) {
            // a broker frozen or cut off while its connections stay open: what was sent waits for request.timeout.ms
            notes.append(String.format(Locale.ROOT, " | NOTHING ACKNOWLEDGED (%,d outstanding: the cluster does not "
                    + "answer?)", outstanding));
        } else if (io.kbench.coordinator.capacity.TrialVerdict.leftWaiting(i)) {
            // a partition without a leader or enough in-sync replicas: its sends wait (until delivery.timeout.ms) while
            // the others' are acknowledged, and no latency figure holds them until they complete
            notes.append(String.format(Locale.ROOT, " | A SEND WAITING %,.1f s (younger ones acknowledged in at most "
                    + "%s ms: a partition not served?)", i.producerClients().values()
                    .get(io.kbench.coordinator.capacity.TrialVerdict.UNACKED_AGE_METRIC) / 1e3,
                    ms(i.stats(Metric.PUBLISH_LATENCY).max())));
        }
        if (i.saturated(saturationMicros)) {
            long stall = i.hosts().stallMicrosMax();
            double busy = i.hosts().hostBusyMax();
            double steal = i.hosts().hostStealMax();
            notes.append(String.format(Locale.ROOT, " | GENERATOR SATURATED (publish delay p99 %s ms%s%s)",
                    ms(i.stats(Metric.PUBLISH_DELAY).p99()),
                    stall < 0 ? "" : "; a load thread woke " + ms(stall) + " ms late",
                    busy < 0 ? "" : String.format(Locale.ROOT, "; host %.0f%% busy%s", 100 * busy,
                            steal >= 0.0005 ? String.format(Locale.ROOT, ", %.1f%% stolen", 100 * steal) : "")));
        }
        notes.append(timeLeft(i.startMicros(), i.endMicros(), c.sent()));
        out.println(String.format(Locale.ROOT,
                "%5.0fs%s | pub %,9.0f msg/s %7.2f MB/s lat p50 %s p99 %s resp p99 %s ms | con %,9.0f msg/s %7.2f MB/s e2e p50 %s p99 %s%s ms%s%s",
                (i.endMicros() - runStartMicros) / 1e6, phase,
                c.acked() / secs, c.ackedBytes() / MB / secs, p50(lat), p99(lat), p99(resp),
                c.received() / secs, c.receivedBytes() / MB / secs, p50(e2e), p99(e2e),
                clockBoundMicros > 0 ? " ±" + ms(clockBoundMicros) : "",
                backlog, notes));
        for (String e : i.errors()) {
            out.println("        error: " + e);
        }
    }

    private synchronized void summary(String title, Summary s, int subscriptionsPerTopic) {
        out.println();
        out.println(title);
        // the rates are the measured window's; the counts the whole run's (warm-up and drain included), which the
        // verification needs: say which is which, so that nobody divides one by the other
        // a consumer-only run (producersPerTopic: 0, reading existing topics): no lines of zeros for its producers
        boolean producing = producers || s.sent() > 0;
        if (producing) {
            out.println(String.format(Locale.ROOT, "  publish : %,.1f msg/s, %.2f MB/s acked over the %.1f-s measured "
                            + "window%s; whole run: %,d sent, %,d acked, %,d failed",
                    s.publishRate(), s.publishMBps(), s.measuredSeconds(), sentInWindow(s), s.sent(), s.acked(),
                    s.failed()));
        } else {
            out.println(String.format(Locale.ROOT, "  publish : none (no producers); the %.1f-s measured window is the "
                    + "consumers'", s.measuredSeconds()));
        }
        boolean classic = subscriptionsPerTopic > 0 || s.received() > 0; // a run without classic consumers: no line of zeros
        if (classic) {
            out.println(String.format(Locale.ROOT, "  consume : %,.1f msg/s, %.2f MB/s over the window; whole run: %,d "
                            + "received (%d subscription(s) per topic)",
                    s.consumeRate(), s.consumeMBps(), s.received(), subscriptionsPerTopic));
        }
        out.println(String.format(Locale.ROOT, "  %-17s %11s %9s %9s %9s %9s %9s %9s %9s %9s",
                "latency (ms)", "count", "mean", "p50", "p75", "p95", "p99", "p99.9", "p99.99", "max"));
        if (producing) {
            row("publish latency", s.stats(Metric.PUBLISH_LATENCY));
            row("publish response", s.stats(Metric.PUBLISH_RESPONSE));
            row("publish delay", s.stats(Metric.PUBLISH_DELAY));
        }
        if (classic || s.stats(Metric.END_TO_END).count() > 0) {
            row("end-to-end", s.stats(Metric.END_TO_END));
        }
        if (s.endToEndUncertaintyMicros() > 0 && s.stats(Metric.END_TO_END).count() > 0) {
            out.println(String.format(Locale.ROOT, "  end-to-end p99 = %s ms ± %s ms (clock offset bound across workers)",
                    ms(s.stats(Metric.END_TO_END).p99()), ms(s.endToEndUncertaintyMicros())));
        }
        if (s.stats(Metric.TRANSACTION_COMMIT).count() > 0) {
            row("txn commit", s.stats(Metric.TRANSACTION_COMMIT));
        }
        if (s.stats(Metric.SHARE_DELIVERY).count() > 0 || s.stats(Metric.SHARE_ACCEPT).count() > 0) {
            row("share delivery", s.stats(Metric.SHARE_DELIVERY));
            row("share accept", s.stats(Metric.SHARE_ACCEPT));
        }
        if (s.stats(Metric.SHARE_COMMIT).count() > 0) {
            row("share commit", s.stats(Metric.SHARE_COMMIT));
        }
        if (s.verification() != null) {
            Summary.Verification v = s.verification();
            out.println(String.format(Locale.ROOT, "  verification: %,d lost, %,d duplicated, %,d out of order%s",
                    v.lost(), v.duplicated(), v.outOfOrder(),
                    v.untracked() > 0 ? String.format(Locale.ROOT, " (%,d untracked)", v.untracked()) : ""));
        }
        if (s.saturatedIntervals() > 0) {
            out.println(String.format(Locale.ROOT, "  %,d measured interval(s) GENERATOR SATURATED: the load generator fell "
                    + "behind its schedule (publish delay p99 above %s); their response times include its backlog",
                    s.saturatedIntervals(), saturationMicros == Long.MAX_VALUE ? "each run's threshold" // a merge
                            : ms(saturationMicros) + " ms"));
        }
        if (s.clamped() > 0 || s.negativeEndToEnd() > 0) {
            out.println(String.format(Locale.ROOT, "  %,d samples above the 1 h histogram range (clamped), %,d negative end-to-end samples (recorded as 0)",
                    s.clamped(), s.negativeEndToEnd()));
        }
    }

    /**
     * " (50,000 sent in it: ...)" when the window's acknowledged count differs from its sent count by more than 0.5%
     * of it — the acknowledgements of messages sent before the window count in it and those of its last messages
     * after it, so a window that began with more in flight than it ended with acknowledges more than it sent (a
     * 10-s quickstart of 50 topics: 50,676 for 50,000) — ; "" otherwise.
     */
    static String sentInWindow(Summary s) {
        long sent = s.window().sent();
        long acked = s.measuredAcked();
        if (sent <= 0 || Math.abs(acked - sent) <= 0.005 * sent) {
            return "";
        }
        long never = s.sent() - s.acked();
        return String.format(Locale.ROOT, " (%,d sent in it: %s)", sent, acked > sent
                ? "acknowledgements of messages sent before it count in it, of its last ones after it"
                : never > 0 ? String.format(Locale.ROOT, "its last messages were acknowledged after it, or never: %,d of "
                        + "the run's sends were not acknowledged, %,d of them failed", never, s.failed())
                : "its last messages were acknowledged after it");
    }

    /** A latency row; "-" for every figure of a metric without samples (an unthrottled run's publish delay), not 0. */
    private void row(String name, LatencyStats l) {
        if (l.count() == 0) {
            out.println(String.format(Locale.ROOT, "  %-17s %,11d %9s %9s %9s %9s %9s %9s %9s %9s", name, 0,
                    "-", "-", "-", "-", "-", "-", "-", "-"));
            return;
        }
        out.println(String.format(Locale.ROOT, "  %-17s %,11d %9s %9s %9s %9s %9s %9s %9s %9s", name, l.count(),
                ms(Math.round(l.mean())), ms(l.p50()), ms(l.p75()), ms(l.p95()), ms(l.p99()), ms(l.p999()),
                ms(l.p9999()), ms(l.max())));
    }

    /**
     * An interval's percentile, or "-" when it has no samples: a consumer that reads only warm-up records (behind by
     * more than the warm-up) receives without an end-to-end sample, which "0.00" would misstate.
     */
    private static String p50(LatencyStats s) {
        return s.count() == 0 ? "-" : ms(s.p50());
    }

    private static String p99(LatencyStats s) {
        return s.count() == 0 ? "-" : ms(s.p99());
    }

    /** Microseconds as milliseconds with 2 decimals below 100 ms, 1 below 10 s, none above. */
    public static String ms(long micros) {
        double m = micros / 1000.0;
        if (m < 100) {
            return String.format(Locale.ROOT, "%.2f", m);
        }
        if (m < 10_000) {
            return String.format(Locale.ROOT, "%.1f", m);
        }
        return String.format(Locale.ROOT, "%.0f", m);
    }

    private synchronized void onInfo(String text) {
        out.println(text);
        // the coordinator's line when a run fails (the dashboard reads the same line): the intervals still to come are
        // the stop's, not seconds of a plan
        stopping |= text.startsWith(RunEvent.Info.RUN_FAILED);
    }
}
