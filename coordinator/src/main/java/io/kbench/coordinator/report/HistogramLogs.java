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
 * metric, next to result.json, written as snapshots arrive (so a failed run keeps what it gathered).
 * Readable by HdrHistogram's {@code HistogramLogProcessor} and {@code HistogramLogReader}, so any
 * percentile over any window can be recomputed later. Values are microseconds; timestamps are seconds
 * since the run's start instant (the log's base time, coordinator clock).
 *
 * <p>Threads: snapshots arrive on gRPC threads; methods are synchronized.
 */
public final class HistogramLogs implements AutoCloseable {
    private final Path dir;
    private final long runStartMicros;
    private final boolean transactional;
    private final Map<String, HistogramLogWriter> writers = new HashMap<>();

    /**
     * @param dir            the run's output directory (created if missing)
     * @param runStartMicros the agreed start instant, coordinator time
     * @param transactional  also log transaction commit durations
     */
    public HistogramLogs(Path dir, long runStartMicros, boolean transactional) {
        this.dir = dir;
        this.runStartMicros = runStartMicros;
        this.transactional = transactional;
    }

    /** Appends one worker snapshot's histograms to that worker's logs. */
    public synchronized void add(IntervalSnapshot s) {
        for (Metric m : Metric.values()) {
            if (m != Metric.TRANSACTION_COMMIT || transactional) {
                write(s, m, s.histogram(m));
            }
        }
    }

    private void write(IntervalSnapshot s, Metric metric, byte[] encoded) {
        // untagged (the file names the worker): HistogramLogProcessor reads untagged histograms by default
        Histogram h = LatencyHistograms.decode(encoded);
        writer(s.workerId(), metric).outputIntervalHistogram(
                (s.startMicros() - runStartMicros) / 1e6, (s.endMicros() - runStartMicros) / 1e6, h, 1.0);
    }

    private HistogramLogWriter writer(String worker, Metric metric) {
        return writers.computeIfAbsent(worker + "." + metric.key(), k -> {
            try {
                Files.createDirectories(dir);
                HistogramLogWriter w = new HistogramLogWriter(dir.resolve(fileName(worker, metric)).toFile());
                w.outputComment("kbench " + metric.key() + " of worker " + worker + ", values in microseconds");
                w.outputLogFormatVersion();
                w.outputStartTime(runStartMicros / 1000);
                w.setBaseTime(runStartMicros / 1000);
                w.outputBaseTime(runStartMicros / 1000); // readers then report absolute timestamps
                w.outputLegend();
                return w;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write histogram log in " + dir + ": " + e.getMessage(), e);
            }
        });
    }

    /** {@code <worker>.<metric>.hlog}, with characters unsafe in file names replaced. */
    public static String fileName(String worker, Metric metric) {
        return worker.replaceAll("[^A-Za-z0-9._-]", "_") + "." + metric.key() + ".hlog";
    }

    @Override
    public synchronized void close() {
        writers.values().forEach(HistogramLogWriter::close);
        writers.clear();
    }
}
