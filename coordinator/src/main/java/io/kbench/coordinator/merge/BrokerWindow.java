package io.kbench.coordinator.merge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kbench.protocol.BrokerSample;

/**
 * The brokers' figures over the measured window, per source: each figure's mean over the intervals that had it,
 * the lowest request-handler and network idle of an interval, the most under-replicated partitions, ISR shrinks
 * and expands in all, and intervals without figures. Fed interval by interval; memory per source, not per
 * interval. Not thread-safe.
 *
 * <p>Under-replicated partitions and ISR shrinks are also kept apart for the intervals a fault kbench injected
 * explains: those in which a broker it stopped was down, and the ones right after while some source still reported
 * under-replicated partitions (the restarted broker catching up) — what a stopped broker does to replication, not
 * a limit of it.
 */
public final class BrokerWindow {
    /** Most sources summed up (the rest are counted, not kept). */
    static final int MAX_SOURCES = 100;

    private final Map<String, Source> sources = new LinkedHashMap<>();
    /** A fault was in force in an earlier interval and replication has not been whole since. */
    private boolean recovering;

    private static final class Source {
        final Map<String, double[]> sums = new LinkedHashMap<>(); // figure -> {sum, n}
        /** A rate's ({@code ...PerSec}) bytes or events over the intervals that had it, and their seconds in the window. */
        final Map<String, double[]> rates = new LinkedHashMap<>(); // figure -> {sum of rate x interval s, s in window}
        double handlerIdleMin = Double.NaN;
        double networkIdleMin = Double.NaN;
        double urpMax;
        /** The most partitions under min.insync.replicas in an interval; NaN: never read (a source without it). */
        double underMinIsrMax = Double.NaN;
        double isrShrinks;
        double isrExpands;
        /** The same two over the intervals a fault explains. */
        double faultUrpMax;
        double faultIsrShrinks;
        /** The most under-replicated partitions of an interval no fault explains. */
        double urpMaxBeyond;
        int intervals;
        int missing;
        String lastError = "";
    }

    /** The window of the intervals that start in [{@code startMicros}, {@code endMicros}). */
    public static BrokerWindow of(List<MergedInterval> intervals, long startMicros, long endMicros) {
        return of(intervals, startMicros, endMicros, (from, to) -> false);
    }

    /**
     * The same, where {@code faultDuring} tells whether a fault kbench injected (a broker it stopped) was in force at
     * any time within [from, to) µs. An interval's broker figures are read at its end — under load some time after
     * it — and gauges such as under-replicated partitions are what the read saw then, so a stop requested within the
     * next interval may already show in them (a broker in controlled shutdown hands its leaderships over first): an
     * interval is taken as the fault's when a fault was in force before the next one ended.
     */
    public static BrokerWindow of(List<MergedInterval> intervals, long startMicros, long endMicros,
                                  java.util.function.BiPredicate<Long, Long> faultDuring) {
        BrokerWindow w = new BrokerWindow();
        for (MergedInterval i : intervals) {
            if (i.startMicros() >= startMicros && i.startMicros() < endMicros) {
                w.add(i.brokers(), faultDuring.test(i.startMicros(), i.endMicros() + (i.endMicros() - i.startMicros())),
                        (i.endMicros() - i.startMicros()) / 1e6, i.secondsWithin(startMicros, endMicros));
            }
        }
        return w;
    }

    /** Adds one measured interval's samples, no fault in force. */
    public void add(List<BrokerSample> samples) {
        add(samples, false);
    }

    /** Adds one measured interval's samples; {@code fault}: a broker kbench stopped was down within it. */
    public void add(List<BrokerSample> samples, boolean fault) {
        add(samples, fault, 1, 1);
    }

    /**
     * The same for an interval of {@code seconds}, {@code withinSeconds} of them in the window: less when the window ends
     * inside it (a record-count run's producers stop in their last interval). A broker's rate is its count over the
     * whole interval, so a window's rate is the rates times their intervals' seconds over the window's seconds — set
     * against the clients' figures over the same window (the mean of the rates would take the last interval's idle
     * rest as the window's).
     */
    public void add(List<BrokerSample> samples, boolean fault, double seconds, double withinSeconds) {
        if (fault) {
            recovering = true;
        } else if (recovering && samples.stream().noneMatch(b -> b.values().getOrDefault("underReplicatedPartitions",
                0.0) > 0)) {
            recovering = false;
        }
        boolean explained = fault || recovering;
        for (BrokerSample b : samples) {
            Source s = sources.get(b.source());
            if (s == null) {
                if (sources.size() >= MAX_SOURCES) {
                    continue;
                }
                s = new Source();
                sources.put(b.source(), s);
            }
            if (b.values().isEmpty()) {
                s.missing++;
                if (!b.error().isEmpty()) {
                    s.lastError = b.error();
                }
                continue;
            }
            s.intervals++;
            for (Map.Entry<String, Double> f : b.values().entrySet()) {
                double[] a = s.sums.computeIfAbsent(f.getKey(), x -> new double[2]);
                a[0] += f.getValue();
                a[1]++;
                if (f.getKey().endsWith("PerSec")) {
                    double[] r = s.rates.computeIfAbsent(f.getKey(), x -> new double[2]);
                    r[0] += f.getValue() * seconds;
                    r[1] += withinSeconds;
                }
            }
            Double hi = b.values().get("requestHandlerIdle");
            if (hi != null) {
                s.handlerIdleMin = Double.isNaN(s.handlerIdleMin) ? hi : Math.min(s.handlerIdleMin, hi);
            }
            Double ni = b.values().get("networkProcessorIdle");
            if (ni != null) {
                s.networkIdleMin = Double.isNaN(s.networkIdleMin) ? ni : Math.min(s.networkIdleMin, ni);
            }
            double urp = b.values().getOrDefault("underReplicatedPartitions", 0.0);
            Double underMinIsr = b.values().get("underMinIsrPartitions");
            if (underMinIsr != null && !(underMinIsr <= s.underMinIsrMax)) {
                s.underMinIsrMax = underMinIsr;
            }
            double shrinks = b.values().getOrDefault("isrShrinks", 0.0);
            s.urpMax = Math.max(s.urpMax, urp);
            s.isrShrinks += shrinks;
            s.isrExpands += b.values().getOrDefault("isrExpands", 0.0);
            if (explained) {
                s.faultUrpMax = Math.max(s.faultUrpMax, urp);
                s.faultIsrShrinks += shrinks;
            } else {
                s.urpMaxBeyond = Math.max(s.urpMaxBeyond, urp);
            }
        }
    }

    /**
     * Of the measured intervals a source was asked for (read or not), those in which every answering source gave
     * figures: {@code {read, asked}}, the fewest read and the most asked over the sources; {@code {0, 0}} with none.
     * A figure the window gives over the intervals read says nothing of the others (an embedded broker that stops
     * takes the shared meters with it).
     */
    public int[] coverage() {
        int read = Integer.MAX_VALUE;
        int asked = 0;
        for (Source s : sources.values()) {
            read = Math.min(read, s.intervals);
            asked = Math.max(asked, s.intervals + s.missing);
        }
        return sources.isEmpty() ? new int[] {0, 0} : new int[] {read, asked};
    }

    /** True when no source was read. */
    public boolean isEmpty() {
        return sources.isEmpty();
    }

    /** The sources that gave figures in at least one measured interval, in the order first seen. */
    public List<String> answered() {
        List<String> out = new ArrayList<>();
        sources.forEach((name, s) -> {
            if (s.intervals > 0) {
                out.add(name);
            }
        });
        return out;
    }

    /** The most under-replicated partitions {@code source} reported in an interval (0 when unknown). */
    public double urpMax(String source) {
        return of(source, s -> s.urpMax);
    }

    /**
     * The most partitions under {@code min.insync.replicas} a source reported in an interval, and which source: the
     * first with the most; {@code null} when none reported the figure. A fault's are counted too: they are what it did.
     */
    public java.util.Map.Entry<String, Double> underMinIsrMax() {
        java.util.Map.Entry<String, Double> most = null;
        for (Map.Entry<String, Source> e : sources.entrySet()) {
            double v = e.getValue().underMinIsrMax;
            if (!Double.isNaN(v) && (most == null || v > most.getValue())) {
                most = java.util.Map.entry(e.getKey(), v);
            }
        }
        return most;
    }

    /** ISR shrinks {@code source} reported over the window. */
    public double isrShrinks(String source) {
        return of(source, s -> s.isrShrinks);
    }

    /**
     * The most under-replicated partitions {@code source} reported in an interval no fault explains (0 when none or
     * unknown): the intervals in which a broker kbench stopped was down, and the ones after while replication was
     * not yet whole, are left out.
     */
    public double urpMaxBeyondFaults(String source) {
        return of(source, s -> s.urpMaxBeyond);
    }

    /** ISR shrinks {@code source} reported in intervals no fault explains. */
    public double isrShrinksBeyondFaults(String source) {
        return of(source, s -> s.isrShrinks - s.faultIsrShrinks);
    }

    /** The most under-replicated partitions {@code source} reported in an interval a fault explains. */
    public double urpMaxInFaults(String source) {
        return of(source, s -> s.faultUrpMax);
    }

    /** ISR shrinks {@code source} reported in intervals a fault explains. */
    public double isrShrinksInFaults(String source) {
        return of(source, s -> s.faultIsrShrinks);
    }

    /** A figure of {@code source}'s, 0 when it was not read. */
    private double of(String source, java.util.function.ToDoubleFunction<Source> figure) {
        Source s = sources.get(source);
        return s == null ? 0 : figure.applyAsDouble(s);
    }

    /**
     * True when every source had {@code figure} in every measured interval: a window mean over some of the intervals
     * cannot be set against a client figure over all of them.
     */
    public boolean complete(String figure) {
        if (sources.isEmpty()) {
            return false;
        }
        for (Source s : sources.values()) {
            double[] a = s.sums.get(figure);
            if (a == null || s.missing > 0 || a[1] != s.intervals) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when {@code figure} covers the whole cluster over the whole window: the embedded cluster's sources (one for
     * the brokers in kbench's JVM, or one per node in a JVM of its own), or one source per broker of the cluster's
     * {@code brokers} (as the Admin API described it), each with the figure in every measured interval. Fewer sources
     * sum to part of the cluster; more read some broker twice (a JMX port and an exporter).
     */
    public boolean coversCluster(boolean embedded, int brokers, String figure) {
        return !isEmpty() && (embedded || brokers > 0 && sources() == brokers) && complete(figure);
    }

    /** Sources read. */
    public int sources() {
        return sources.size();
    }

    /** A figure's window mean summed over the sources that had it; NaN when none had it. */
    public double sum(String figure) {
        double total = Double.NaN;
        for (String source : sources.keySet()) {
            double m = mean(source, figure);
            if (!Double.isNaN(m)) {
                total = Double.isNaN(total) ? m : total + m;
            }
        }
        return total;
    }

    /**
     * A figure's mean over the window for {@code source}, or NaN when it never had it: a rate ({@code ...PerSec}) over
     * the window's seconds of the intervals that had it, any other figure over those intervals.
     */
    public double mean(String source, String figure) {
        Source s = sources.get(source);
        double[] r = s == null ? null : s.rates.get(figure);
        if (r != null && r[1] > 0) {
            return r[0] / r[1];
        }
        double[] a = s == null ? null : s.sums.get(figure);
        return a == null || a[1] == 0 ? Double.NaN : a[0] / a[1];
    }

    /**
     * The console's lines, one per source (at most 5, then how many more): bytes in against the values kbench had
     * acknowledged ({@code ackedMBps}), request handlers' and network threads' idle (mean, lowest interval), produce
     * request time and its largest parts, replication and ISR changes, the broker process's CPU.
     */
    public List<String> lines(double ackedMBps) {
        return lines(ackedMBps, Double.NaN);
    }

    /**
     * As {@link #lines(double)}, saying beside the bytes in how far the producers compressed the values
     * ({@code compressionRate}: their mean {@code compression-rate-avg}, compressed / uncompressed; NaN or 1: not
     * compressed), which is what makes the brokers' bytes in fall short of the values acknowledged.
     */
    public List<String> lines(double ackedMBps, double compressionRate) {
        String compressed = compressionRate > 0 && compressionRate < 0.995
                ? String.format(Locale.ROOT, ", which the producers compressed to %.0f%%", 100 * compressionRate) : "";
        List<String> out = new ArrayList<>();
        boolean several = sources.size() > 1;
        // several sources: one broker's bytes in against everything acknowledged says nothing; their sum does, when
        // every source answered in the whole window
        if (several) {
            boolean whole = complete("bytesInPerSec");
            double in = sum("bytesInPerSec") / (1024 * 1024);
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  brokers (%d sources together): ", sources.size()));
            if (!whole || Double.isNaN(in)) {
                b.append("not every source answered in every measured interval: no sum");
            } else {
                b.append(String.format(Locale.ROOT, "bytes in %.2f MB/s", in));
                if (ackedMBps > 0) {
                    b.append(String.format(Locale.ROOT, " (%.2fx the %.2f MB/s of values acknowledged%s)", in / ackedMBps, ackedMBps,
                            compressed));
                }
                b.append(String.format(Locale.ROOT, ", out %.2f MB/s", sum("bytesOutPerSec") / (1024 * 1024)));
                double replIn = sum("replicationBytesInPerSec");
                if (replIn > 0) {
                    b.append(String.format(Locale.ROOT, ", replication in %.2f MB/s", replIn / (1024 * 1024)));
                }
            }
            out.add(b.toString());
        }
        int shown = 0;
        for (Map.Entry<String, Source> e : sources.entrySet()) {
            if (shown++ == 5) {
                out.add(String.format(Locale.ROOT, "  ... and %d more broker source(s) in result.json", sources.size() - 5));
                break;
            }
            String src = e.getKey();
            Source s = e.getValue();
            if (s.intervals == 0) {
                out.add("  broker " + src + ": no figures in the measured window" + (s.lastError.isEmpty() ? "" : " (" + s.lastError + ")"));
                continue;
            }
            double in = mean(src, "bytesInPerSec") / (1024 * 1024);
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  broker %s: bytes in %.2f MB/s", src, in));
            // against the whole window's acknowledged values only when this source answered in all of it
            if (!several && ackedMBps > 0 && !Double.isNaN(in) && s.missing == 0) {
                b.append(String.format(Locale.ROOT, " (%.2fx the %.2f MB/s of values acknowledged%s)", in / ackedMBps, ackedMBps,
                            compressed));
            }
            b.append(String.format(Locale.ROOT, ", out %.2f MB/s", mean(src, "bytesOutPerSec") / (1024 * 1024)));
            double replIn = mean(src, "replicationBytesInPerSec");
            if (replIn > 0) {
                b.append(String.format(Locale.ROOT, ", replication in %.2f MB/s", replIn / (1024 * 1024)));
            }
            b.append(String.format(Locale.ROOT, "; request handlers idle %s (lowest %s), network threads idle %s (lowest %s)",
                    pct(mean(src, "requestHandlerIdle")), pct(s.handlerIdleMin), pct(mean(src, "networkProcessorIdle")),
                    pct(s.networkIdleMin)));
            double total = mean(src, "produceTotalTimeMsMean");
            if (!Double.isNaN(total)) {
                b.append(String.format(Locale.ROOT, "; produce request %.2f ms (queue %.2f, local %.2f, remote %.2f, "
                                + "response queue %.2f, send %.2f)", total, mean(src, "produceRequestQueueTimeMsMean"),
                        mean(src, "produceLocalTimeMsMean"), mean(src, "produceRemoteTimeMsMean"),
                        mean(src, "produceResponseQueueTimeMsMean"), mean(src, "produceResponseSendTimeMsMean")));
            }
            b.append(String.format(Locale.ROOT, "; under-replicated partitions at most %.0f, ISR shrinks %.0f, expands %.0f",
                    s.urpMax, s.isrShrinks, s.isrExpands));
            if (s.faultUrpMax > 0 || s.faultIsrShrinks > 0) {
                b.append(String.format(Locale.ROOT, " (beyond the intervals of a broker kbench stopped, down or catching "
                        + "up: at most %.0f, shrinks %.0f)", s.urpMaxBeyond, s.isrShrinks - s.faultIsrShrinks));
            }
            if (s.underMinIsrMax > 0) {
                b.append(String.format(Locale.ROOT, "; partitions under min.insync.replicas at most %.0f (their acks=all "
                        + "writes refused)", s.underMinIsrMax));
            }
            double cpu = mean(src, "processCpu");
            if (!Double.isNaN(cpu)) {
                b.append(String.format(Locale.ROOT, "; its process's CPU %s%s", pct(cpu),
                        src.equals("embedded") ? " (the coordinator's process, workers included)" : ""));
            }
            if (s.missing > 0) {
                b.append(String.format(Locale.ROOT, "; %d interval(s) without figures%s", s.missing,
                        s.lastError.isEmpty() ? "" : " (" + s.lastError + ")"));
            }
            out.add(b.toString());
        }
        return out;
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }
}
