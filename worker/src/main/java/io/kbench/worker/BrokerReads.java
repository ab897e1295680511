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

import io.kbench.driver.NanoClock;
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
    private final NanoClock clock;

    BrokerReads(List<BrokerScraper> sources, String runId, long waitMillis, NanoClock clock) {
        this.sources = List.copyOf(sources);
        this.waitMillis = waitMillis;
        this.clock = clock;
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

    /**
     * Reads the baselines at {@code atNanos} (the run's start on {@link #clock}), on the pool's threads, without
     * waiting: their figures are empty, and interval 0's count from them. Read earlier (as the Run call arrives, up
     * to the run's start delay before), interval 0's rates would be spread over that idle lead as well as the
     * interval: a run without warm-up showed its brokers' bytes in at 0.89× the clients' in its first interval.
     */
    void baseline(long atNanos) {
        for (int i = 0; i < sources.size(); i++) {
            submit(i, atNanos);
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
                submit(i, clock.nanoTime());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis); // real time: a Future waits in it
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

    /** Starts reading source {@code i} once {@link #clock} reaches {@code atNanos}, unless its last read still runs. */
    private void submit(int i, long atNanos) {
        Future<BrokerSample> f = pending.get(i);
        if (f != null && !f.isDone()) {
            return;
        }
        BrokerScraper s = sources.get(i);
        try {
            pending.set(i, pool.submit(() -> {
                long now;
                while ((now = clock.nanoTime()) - atNanos < 0 && !Thread.currentThread().isInterrupted()) {
                    clock.park(atNanos - now);
                }
                if (Thread.currentThread().isInterrupted()) {
                    return new BrokerSample(s.source(), Map.of(), "not read: the worker is stopping");
                }
                return s.sample(clock.nanoTime());
            }));
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
