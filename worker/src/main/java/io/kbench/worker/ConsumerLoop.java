package io.kbench.worker;

import java.time.Duration;

import io.kbench.driver.ConsumerHandle;

/**
 * The poll loop of one consumer, on its own thread, from prepare until stop: it polls before the run starts
 * so the consumer joins its group and gets its partitions before any message is sent, while the consumer is
 * held (partitions paused) so nothing is read before the start instant, when the loop releases it. It
 * closes the consumer on its own thread when stopped (Kafka consumers are single-threaded).
 */
final class ConsumerLoop implements Runnable {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);

    private final String name;
    private final ConsumerHandle handle;
    private final ConsumerMetrics metrics;
    private final ErrorSlot fatal;
    private volatile boolean stopped;
    private volatile boolean done;
    private volatile long releaseAtNanos = Long.MAX_VALUE;

    ConsumerLoop(String name, ConsumerHandle handle, ConsumerMetrics metrics, ErrorSlot fatal) {
        this.name = name;
        this.handle = handle;
        this.metrics = metrics;
        this.fatal = fatal;
    }

    ConsumerHandle handle() {
        return handle;
    }

    /** Releases the held consumer at {@code nanoTime} (the run's start instant); called when the run starts. */
    void releaseAt(long nanoTime) {
        releaseAtNanos = Math.min(releaseAtNanos, nanoTime);
    }

    void stop() {
        stopped = true;
        handle.wakeup();
    }

    boolean done() {
        return done;
    }

    @Override
    public void run() {
        try {
            boolean held = true;
            while (!stopped) {
                if (held && System.nanoTime() >= releaseAtNanos) {
                    handle.release();
                    held = false;
                }
                handle.poll(held ? Duration.ofMillis(Math.max(1, Math.min(POLL_TIMEOUT.toMillis(),
                        (releaseAtNanos - System.nanoTime()) / 1_000_000))) : POLL_TIMEOUT, metrics);
            }
        } catch (RuntimeException | Error e) {
            fatal.offer(name + " failed: " + ErrorSlot.describe(e));
        } finally {
            try {
                handle.close();
            } catch (RuntimeException e) {
                // closing after a failure; the failure itself was reported
            }
            done = true;
        }
    }
}
