package io.kbench.worker;

import java.time.Duration;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.RecordListener;
import io.kbench.driver.ShareConsumerHandle;

/**
 * A share consumer seen through the {@link ConsumerHandle} a {@link ConsumerLoop} polls: each poll hands the
 * records to the consumer's own {@link ShareConsumerMetrics} (the loop's listener, a classic consumer's
 * metrics, receives nothing). A share consumer cannot be held: it has no partitions of its own to pause, and
 * a share group starts where its {@code share.auto.offset.reset} says (by default the end of each partition when
 * the group first reads it, during the run's prepare). It has no lag of its own (-1): the group's backlog is
 * the group's.
 */
final class ShareConsumerAdapter implements ConsumerHandle {
    private final ShareConsumerHandle share;
    private final ShareConsumerMetrics metrics;

    ShareConsumerAdapter(ShareConsumerHandle share, ShareConsumerMetrics metrics) {
        this.share = share;
        this.metrics = metrics;
    }

    @Override
    public int poll(Duration timeout, RecordListener ignored) {
        return share.poll(timeout, metrics);
    }

    @Override
    public void hold(Start start) {
        // nothing to hold: see the class comment
    }

    @Override
    public void release() {
        // nothing held
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

    @Override
    public boolean joined() {
        return share.joined();
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
