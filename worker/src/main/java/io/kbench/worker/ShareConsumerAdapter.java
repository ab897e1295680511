package io.kbench.worker;

import java.time.Duration;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.RecordListener;
import io.kbench.driver.ShareConsumerHandle;

/**
 * A share consumer seen through the {@link ConsumerHandle} a {@link ConsumerLoop} polls: each poll hands the
 * records to the consumer's own {@link ShareConsumerMetrics} (the loop's listener, a classic consumer's
 * metrics, receives nothing). It has no lag of its own (-1): the group's backlog is the group's.
 *
 * <p>A share consumer has no partitions of its own to pause, and it joins its group only by polling, which
 * fetches. So in a run with producers it polls from prepare on (the run's own topics hold nothing yet; the group
 * starts where its {@code share.auto.offset.reset} says), and is not held. In a run that reads what a topic
 * already holds ({@link #hold}) it does not poll at all until released: it joins after the start, and its join
 * is part of the measured read, as in Kafka's share consumer perf tool; until then it counts as joined, so the
 * run's prepare does not wait for it.
 */
final class ShareConsumerAdapter implements ConsumerHandle {
    private final ShareConsumerHandle share;
    private final ShareConsumerMetrics metrics;
    private volatile boolean held;

    ShareConsumerAdapter(ShareConsumerHandle share, ShareConsumerMetrics metrics) {
        this.share = share;
        this.metrics = metrics;
    }

    @Override
    public int poll(Duration timeout, RecordListener ignored) {
        if (held) {
            // not polling is the only way to hold a share consumer: waits as the poll would have, at most 100 ms
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(timeout.toNanos(), 100_000_000L));
            return 0;
        }
        try {
            return share.poll(timeout, metrics);
        } finally {
            metrics.pollDone(); // also after a poll that failed midway: what it delivered is published
        }
    }

    /** Holds the consumer from polling (and so from joining and reading) until {@link #release}. */
    @Override
    public void hold(Start start) {
        held = true;
    }

    @Override
    public void release() {
        held = false;
    }

    @Override
    public void wakeup() {
        share.wakeup();
    }

    /** 0: a share group's partitions are shared by its consumers, none owns any. */
    @Override
    public int assignedPartitions() {
        return 0;
    }

    /** True once joined; while held, true as well: a held share consumer joins after the start. */
    @Override
    public boolean joined() {
        return held || share.joined();
    }

    @Override
    public long joinedNanos() {
        return share.joinedNanos();
    }

    @Override
    public long lag() {
        return -1;
    }

    @Override
    public java.util.Map<String, Double> metrics() {
        return share.metrics();
    }

    @Override
    public java.util.SortedMap<String, String> metricsDump() {
        return share.metricsDump();
    }

    @Override
    public void close() {
        share.close();
    }
}
