package io.kbench.coordinator.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Keeps the raw interval histograms: one HdrHistogram log ({@code <worker>.<metric>.hlog}) per worker and
 * metric, next to result.json, appended as snapshots arrive (so a failed run keeps what it gathered).
 * Readable by HdrHistogram's {@code HistogramLogProcessor} and {@code HistogramLogReader}, so any
 * percentile over any window can be recomputed later. Values are microseconds; timestamps are seconds
 * since the run's start instant (the log's base time, coordinator clock).
 *
 * <p>Lines are buffered per file (8 KB) and written out at the end of the run, failed or not.
 *
 * <p>The lines carry the compressed histograms exactly as the workers sent them (HistogramLogWriter would
 * decode and compress each again: for 1,000 workers, 5,000 deflates a second); the line's maximum comes from
 * the merger, which read it while adding the histogram.
 *
 * <p>A log that cannot be written (a full disk, a file in the way) does not end the run: the logs stop there,
 * the failure goes to the run's {@link Written}, and the command ends non-zero naming it.
 *
 * <p>Threads: snapshots arrive on gRPC threads; methods are synchronized.
 */
public final class HistogramLogs implements AutoCloseable {
    private final Path dir;
    private final long runStartMicros;
    private final boolean transactional;
    private final Map<String, java.io.OutputStream> writers = new HashMap<>();
    private final Written written;
    private int files;
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
        this.written = written;
        this.dir = dir;
        this.runStartMicros = runStartMicros;
        this.transactional = transactional;
    }

    /** Appends one worker snapshot's histograms to that worker's logs. */
    public synchronized void add(IntervalSnapshot s) {
        add(s, null);
    }

    /**
     * Appends one worker snapshot's histograms to that worker's logs.
     *
     * @param maxima each histogram's maximum by {@link Metric#ordinal()}, as the merger read it (0: decode it
     *               here), or null
     */
    public synchronized void add(IntervalSnapshot s, long[] maxima) {
        if (broken) {
            return;
        }
        for (Metric m : Metric.values()) {
            if (m != Metric.TRANSACTION_COMMIT || transactional) {
                byte[] encoded = s.histogram(m);
                long max = maxima != null ? maxima[m.ordinal()] : 0;
                if (max == 0 && encoded.length > 0) {
                    Histogram h = LatencyHistograms.decode(encoded);
                    max = h.getTotalCount() == 0 ? 0 : h.getMaxValue();
                }
                // untagged (the file names the worker): HistogramLogProcessor reads untagged histograms by default;
                // the line as HistogramLogWriter writes it ("%.3f,%.3f,%.3f,%s"), built without a Formatter and
                // written in one call: 1,000 workers make 5,000 lines a second
                StringBuilder line = new StringBuilder(48);
                millis(line, s.startMicros() - runStartMicros).append(',');
                millis(line, s.endMicros() - s.startMicros()).append(',').append(max).append(".000,");
                byte[] head = line.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                byte[] body = encoded.length == 0 ? EMPTY : java.util.Base64.getEncoder().encode(encoded);
                byte[] out = java.util.Arrays.copyOf(head, head.length + body.length + 1);
                System.arraycopy(body, 0, out, head.length, body.length);
                out[out.length - 1] = '\n';
                try {
                    writer(s.workerId(), m).write(out);
                } catch (IOException | UncheckedIOException e) {
                    fail(e);
                    return;
                }
            }
        }
    }

    private java.io.OutputStream writer(String worker, Metric metric) {
        return writers.computeIfAbsent(worker + "." + metric.key(), k -> {
            try {
                Files.createDirectories(dir);
                // buffered (8 KB, about 6 lines): one write per line to each of 5,000 files a second (1,000 workers)
                // costs the coordinator more than all its merging; the buffers are written out when the run ends,
                // failed or not (only a killed coordinator loses their last lines)
                java.io.OutputStream out = new java.io.BufferedOutputStream(
                        Files.newOutputStream(dir.resolve(fileName(worker, metric))), 8192);
                java.io.PrintStream header = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.US_ASCII);
                HistogramLogWriter w = new HistogramLogWriter(header);
                w.outputComment("kbench " + metric.key() + " of worker " + worker + ", values in microseconds");
                w.outputLogFormatVersion();
                w.outputStartTime(runStartMicros / 1000);
                w.setBaseTime(runStartMicros / 1000);
                w.outputBaseTime(runStartMicros / 1000); // readers then report absolute timestamps
                w.outputLegend();
                header.flush();
                files++;
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write histogram log in " + dir + ": " + e.getMessage(), e);
            }
        });
    }

    /** {@code <worker>.<metric>.hlog}, with characters unsafe in file names replaced. */
    public static String fileName(String worker, Metric metric) {
        return worker.replaceAll("[^A-Za-z0-9._-]", "_") + "." + metric.key() + ".hlog";
    }

    private void fail(Exception e) {
        broken = true;
        written.failed("histogram logs (.hlog) from " + dir, e);
        closeWriters();
    }

    @Override
    public synchronized void close() {
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
                    written.failed("histogram logs (.hlog) from " + dir, e);
                }
            }
        }
        writers.clear();
    }
}
