package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Keeps the raw interval histograms: one HdrHistogram log per metric ({@code <metric>.hlog}) next to
 * result.json, appended as snapshots arrive (so a failed run keeps what it gathered). Each worker's interval
 * histograms are lines tagged with the worker ({@code Tag=w1,...}); the cluster-wide interval histogram (every
 * worker's added, as the merger adds them) is the untagged line. HdrHistogram's {@code HistogramLogProcessor}
 * reads the untagged lines by default — the cluster's figures over any window — and one worker's with
 * {@code -tag w1}. Values are microseconds; timestamps are seconds since the run's start instant (the log's
 * base time, coordinator clock). A constant number of open files (one per metric) whatever the number of
 * workers: 1,000 workers used to need 5,000 descriptors.
 *
 * <p>Lines are buffered per file (64 KB) and written out at the end of the run, failed or not.
 *
 * <p>The workers' lines carry the compressed histograms exactly as the workers sent them (HistogramLogWriter
 * would decode and compress each again: for 1,000 workers, 5,000 deflates a second); the line's maximum comes
 * from the merger, which read it while adding the histogram. Only the merged line is compressed here, once per
 * metric and interval.
 *
 * <p>A log that cannot be written (a full disk, a file in the way) does not end the run: the logs stop there,
 * the failure goes to the run's {@link Written}, and the command ends non-zero naming it.
 *
 * <p>Threads: snapshots arrive on gRPC threads; methods are synchronized.
 */
public final class HistogramLogs implements AutoCloseable {
    private final Path dir;
    private final long runStartMicros;
    /** The metrics logged: transaction commits only for a transactional run, share latencies only with share groups. */
    private final List<Metric> logged;
    private final java.util.EnumMap<Metric, java.io.OutputStream> writers = new java.util.EnumMap<>(Metric.class);
    private final Written written;
    private boolean broken;
    /** An empty histogram's encoding, for a snapshot that sent none for a metric. */
    private static final byte[] EMPTY = java.util.Base64.getEncoder().encode(
            LatencyHistograms.encode(LatencyHistograms.create()));

    /** {@code micros} as seconds with three decimals, rounded half up as {@code %.3f} does. */
    static StringBuilder millis(StringBuilder into, long micros) {
        long ms = Math.floorDiv(micros + 500, 1000);
        long abs = Math.abs(ms);
        if (ms < 0) {
            into.append('-');
        }
        into.append(abs / 1000).append('.');
        long frac = abs % 1000;
        return into.append(frac < 100 ? frac < 10 ? "00" : "0" : "").append(frac);
    }

    /**
     * @param dir            the run's output directory (created if missing)
     * @param runStartMicros the agreed start instant, coordinator time
     * @param transactional  also log transaction commit durations
     */
    public HistogramLogs(Path dir, long runStartMicros, boolean transactional) {
        this(dir, runStartMicros, transactional, new Written());
    }

    /** @param written where a log that could not be written is recorded */
    public HistogramLogs(Path dir, long runStartMicros, boolean transactional, Written written) {
        this(dir, runStartMicros, transactional, false, written);
    }

    /** @param share also log the share consumers' delivery, acceptance and commit latencies */
    public HistogramLogs(Path dir, long runStartMicros, boolean transactional, boolean share, Written written) {
        this.written = written;
        this.dir = dir;
        this.runStartMicros = runStartMicros;
        this.logged = java.util.Arrays.stream(Metric.values())
                .filter(m -> transactional || m != Metric.TRANSACTION_COMMIT)
                .filter(m -> share || m != Metric.SHARE_DELIVERY && m != Metric.SHARE_ACCEPT && m != Metric.SHARE_COMMIT)
                .toList();
    }

    /** Appends one worker snapshot's histograms, tagged with the worker. */
    public synchronized void add(IntervalSnapshot s) {
        add(s, null);
    }

    /**
     * Appends one worker snapshot's histograms, tagged with the worker.
     *
     * @param maxima each histogram's maximum by {@link Metric#ordinal()}, as the merger read it (0: decode it
     *               here), or null
     */
    public synchronized void add(IntervalSnapshot s, long[] maxima) {
        if (broken) {
            return;
        }
        String tag = tag(s.workerId());
        for (Metric m : logged()) {
            byte[] encoded = s.histogram(m);
            long max = maxima != null ? maxima[m.ordinal()] : 0;
            if (max == 0 && encoded.length > 0) {
                max = maxOf(LatencyHistograms.decode(encoded));
            }
            byte[] body = encoded.length == 0 ? EMPTY : java.util.Base64.getEncoder().encode(encoded);
            if (!write(m, tag, s.startMicros(), s.endMicros(), max, body)) {
                return;
            }
        }
    }

    /** Appends the cluster-wide histograms of one merged interval, untagged (what readers take by default). */
    public synchronized void addMerged(long startMicros, long endMicros, java.util.Map<Metric, Histogram> histograms) {
        if (broken) {
            return;
        }
        for (Metric m : logged()) {
            Histogram h = histograms.get(m);
            byte[] body = h == null || h.getTotalCount() == 0 ? EMPTY
                    : java.util.Base64.getEncoder().encode(LatencyHistograms.encode(h));
            if (!write(m, null, startMicros, endMicros, h == null ? 0 : maxOf(h), body)) {
                return;
            }
        }
    }

    private List<Metric> logged() {
        return logged;
    }

    private static long maxOf(Histogram h) {
        return h.getTotalCount() == 0 ? 0 : h.getMaxValue();
    }

    /** A worker id as a log tag: HdrHistogram's tags end at a comma and hold no white space. */
    static String tag(String worker) {
        return worker.replaceAll("[^A-Za-z0-9._:-]", "_");
    }

    /** One line as HistogramLogWriter writes it ("[Tag=T,]%.3f,%.3f,%d.000,BASE64"), built without a Formatter. */
    private boolean write(Metric m, String tag, long startMicros, long endMicros, long max, byte[] body) {
        StringBuilder line = new StringBuilder(64);
        if (tag != null) {
            line.append("Tag=").append(tag).append(',');
        }
        millis(line, startMicros - runStartMicros).append(',');
        millis(line, endMicros - startMicros).append(',').append(max).append(".000,");
        byte[] head = line.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = java.util.Arrays.copyOf(head, head.length + body.length + 1);
        System.arraycopy(body, 0, out, head.length, body.length);
        out[out.length - 1] = '\n';
        try {
            writer(m).write(out);
            return true;
        } catch (IOException | UncheckedIOException e) {
            fail(e);
            return false;
        }
    }

    private java.io.OutputStream writer(Metric metric) throws IOException {
        java.io.OutputStream existing = writers.get(metric);
        if (existing != null) {
            return existing;
        }
        Files.createDirectories(dir);
        java.io.OutputStream out = new java.io.BufferedOutputStream(
                Files.newOutputStream(dir.resolve(fileName(metric))), 1 << 16);
        writers.put(metric, out);
        java.io.PrintStream header = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.US_ASCII);
        HistogramLogWriter w = new HistogramLogWriter(header);
        w.outputComment("kbench " + metric.key() + ", values in microseconds: untagged lines are the cluster's interval "
                + "histograms (every worker's added); Tag=<worker> lines each worker's own");
        w.outputLogFormatVersion();
        w.outputStartTime(runStartMicros / 1000);
        w.setBaseTime(runStartMicros / 1000);
        w.outputBaseTime(runStartMicros / 1000); // readers then report absolute timestamps
        w.outputLegend();
        header.flush();
        return out;
    }

    /** {@code <metric>.hlog}, e.g. {@code publishLatencyMicros.hlog}. */
    public static String fileName(Metric metric) {
        return metric.key() + ".hlog";
    }

    private void fail(Exception e) {
        broken = true;
        written.failed("histogram logs (.hlog) in " + dir + ", cut short", e);
        closeWriters();
    }

    @Override
    public synchronized void close() {
        int files = writers.size();
        closeWriters();
        if (!broken && files > 0) {
            written.ok(files + " histogram log(s)");
        }
    }

    private void closeWriters() {
        for (java.io.OutputStream out : writers.values()) {
            try {
                out.close(); // writes the buffered last lines
            } catch (IOException e) {
                if (!broken) {
                    broken = true;
                    written.failed("histogram logs (.hlog) in " + dir + ", cut short", e);
                }
            }
        }
        writers.clear();
    }
}
