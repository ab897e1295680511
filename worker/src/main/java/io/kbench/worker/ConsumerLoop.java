package io.kbench.worker;

import java.time.Duration;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.NanoClock;

/**
 * The poll loop of one consumer, on its own thread, from prepare until stop: it polls before the run starts
 * so the consumer joins its group and gets its partitions before any message is sent, while the consumer is
 * held (partitions paused) so nothing is read before the start instant, when the loop releases it. It
 * closes the consumer on its own thread when stopped (Kafka consumers are single-threaded).
 */
final class ConsumerLoop implements Runner.Task {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    /** How often lag and client metrics are sampled (on this thread: Kafka consumers are single-threaded). */
    private static final long SAMPLE_NANOS = 200_000_000L;

    private final String name;
    private final ConsumerHandle handle;
    private final ConsumerMetrics metrics;
    private final ErrorSlot fatal;
    private volatile boolean stopped;
    private volatile boolean done;
    private volatile boolean dumpOnClose;
    private volatile java.util.SortedMap<String, String> dump;
    private volatile long releaseAtNanos = Long.MAX_VALUE;
    private final long createdNanos;
    private final NanoClock nanos;

    /** @param createdNanos when the consumer was built (subscribed), for its join time */
    ConsumerLoop(String name, ConsumerHandle handle, ConsumerMetrics metrics, ErrorSlot fatal, long createdNanos,
                 NanoClock nanos) {
        this.createdNanos = createdNanos;
        this.nanos = nanos;
        this.name = name;
        this.handle = handle;
        this.metrics = metrics;
        this.fatal = fatal;
    }

    ConsumerHandle handle() {
        return handle;
    }

    ConsumerMetrics metrics() {
        return metrics;
    }

    /** Releases the held consumer at {@code nanoTime} (the run's start instant); called when the run starts. */
    void releaseAt(long nanoTime) {
        releaseAtNanos = Math.min(releaseAtNanos, nanoTime);
    }

    @Override
    public void stop() {
        stopped = true;
        handle.wakeup();
    }

    boolean done() {
        return done;
    }

    /** Reads the client's whole metrics map on its own thread just before closing it (--print-metrics). */
    void dumpMetricsOnClose() {
        dumpOnClose = true;
    }

    /** The metrics read before closing, once this loop has ended; null when not asked for or not ended. */
    java.util.SortedMap<String, String> metricsDump() {
        return done ? dump : null;
    }

    @Override
    public void run() {
        try {
            boolean held = true;
            long nextSample = 0;
            while (!stopped) {
                if (held && nanos.nanoTime() >= releaseAtNanos) {
                    handle.release();
                    held = false;
                }
                handle.poll(held ? Duration.ofMillis(Math.max(1, Math.min(POLL_TIMEOUT.toMillis(),
                        (releaseAtNanos - nanos.nanoTime()) / 1_000_000))) : POLL_TIMEOUT, metrics);
                long now = nanos.nanoTime();
                if (metrics.joinMicros == 0 && handle.joined()) {
                    metrics.joinMicros = Math.max(1, (handle.joinedNanos() - createdNanos) / 1000);
                }
                if (now - nextSample >= 0) {
                    nextSample = now + SAMPLE_NANOS;
                    metrics.lag = handle.lag();
                    metrics.clientMetrics = handle.metrics();
                }
            }
            if (metrics.tracker != null) {
                metrics.tracker.finish();
            }
        } catch (RuntimeException | Error e) {
            fatal.offer(name + " failed: " + ErrorSlot.describe(e));
        } finally {
            if (dumpOnClose) {
                try {
                    dump = handle.metricsDump();
                } catch (RuntimeException e) {
                    dump = new java.util.TreeMap<>(); // a broken client: no metrics to print
                }
            }
            try {
                handle.close();
            } catch (RuntimeException e) {
                // closing after a failure; the failure itself was reported
            }
            done = true;
        }
    }
}
