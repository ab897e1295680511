package io.kbench.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kbench.protocol.BrokerSample;

/**
 * Reads a run's broker sources once a snapshot, each source on its own pool thread so that a slow one (a large
 * exporter scrape, a JMX port behind a slow link) holds up neither the others nor the snapshot: the snapshot waits
 * at most {@code waitMillis} in all, a source that did not answer by then gives an error for this interval, and
 * while its read is still running it is not read again ("an earlier read has not returned"; its next figures then
 * cover that time too, as their own wall time says). At most {@link #THREADS} reads run at once.
 *
 * <p>Thread-safe for one caller of {@link #read} at a time (the snapshot thread); {@link #close} from any thread.
 */
final class BrokerReads implements AutoCloseable {
    /** Most sources read at the same time. */
    static final int THREADS = 8;

    private final List<BrokerScraper> sources;
    private final ExecutorService pool;
    private final List<Future<BrokerSample>> pending;
    private final long waitMillis;

    BrokerReads(List<BrokerScraper> sources, String runId, long waitMillis) {
        this.sources = List.copyOf(sources);
        this.waitMillis = waitMillis;
        this.pending = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            pending.add(null);
        }
        int[] n = {0};
        this.pool = Executors.newFixedThreadPool(Math.max(1, Math.min(THREADS, sources.size())), r -> {
            Thread t = new Thread(r, "kbench-broker-metrics-" + runId + "-" + n[0]++);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the baseline reads (their figures are empty; interval 0's count from them) without waiting. */
    void baseline() {
        for (int i = 0; i < sources.size(); i++) {
            submit(i);
        }
    }

    /**
     * The figures since each source's last read, waiting at most the read bound in all. A source whose read from an
     * earlier snapshot is still running is not waited for: its late figures would belong to an earlier interval,
     * so they are dropped when it returns and this interval says so.
     */
    List<BrokerSample> read() {
        BrokerSample[] out = new BrokerSample[sources.size()];
        for (int i = 0; i < sources.size(); i++) {
            Future<BrokerSample> f = pending.get(i);
            if (f != null && !f.isDone()) {
                out[i] = new BrokerSample(sources.get(i).source(), Map.of(), "an earlier read has not returned");
            } else {
                submit(i);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        for (int i = 0; i < sources.size(); i++) {
            if (out[i] != null) {
                continue;
            }
            Future<BrokerSample> f = pending.get(i);
            String source = sources.get(i).source();
            if (f == null) {
                out[i] = new BrokerSample(source, Map.of(), "not read: the worker is stopping");
                continue;
            }
            try {
                out[i] = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                out[i] = new BrokerSample(source, Map.of(), "not read within " + waitMillis + " ms");
            } catch (java.util.concurrent.ExecutionException e) {
                out[i] = new BrokerSample(source, Map.of(), "not read: " + ErrorSlot.describe(e.getCause()));
            } catch (java.util.concurrent.CancellationException e) {
                out[i] = new BrokerSample(source, Map.of(), "not read: the worker is stopping");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out[i] = new BrokerSample(source, Map.of(), "not read: interrupted");
            }
        }
        return List.of(out);
    }

    /** Starts reading source {@code i} unless its last read is still running. */
    private void submit(int i) {
        Future<BrokerSample> f = pending.get(i);
        if (f != null && !f.isDone()) {
            return;
        }
        BrokerScraper s = sources.get(i);
        try {
            pending.set(i, pool.submit(() -> s.sample(System.nanoTime())));
        } catch (RejectedExecutionException e) {
            pending.set(i, null);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        sources.forEach(BrokerScraper::close);
    }
}
