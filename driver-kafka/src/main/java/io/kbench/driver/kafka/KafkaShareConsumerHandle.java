package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kbench.driver.DriverException;
import io.kbench.driver.NanoClock;
import io.kbench.driver.ShareConsumerHandle;
import io.kbench.driver.ShareRecordListener;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One Kafka share consumer (KIP-932). HOT PATH: {@link #poll} reads each record as {@link StampedRecord} does,
 * hands it to the listener and, with explicit acknowledgement, acknowledges it as the listener answers; the
 * acknowledgements go to the broker with the next poll.
 *
 * <p>A share consumer has no rebalance callback: it counts as joined once its client has reconciled an assignment
 * ({@code rebalance-total} of group {@code consumer-share-coordinator-metrics} above 0) and had a share fetch
 * answered ({@code fetch-total} of {@link #METRICS_GROUP} above 0: the group's share partitions are then
 * initialized, so a record produced from now on is one the group will deliver), or once it received a record;
 * read at most every 50 ms until then.
 *
 * <p>Threads: {@link #poll}, {@link #metrics} and {@link #close} on the owning load thread (the client is
 * single-threaded); {@link #wakeup}, {@link #joined} and {@link #joinedNanos} from any thread.
 */
final class KafkaShareConsumerHandle implements ShareConsumerHandle {
    /** The share consumer's own metrics group (the classic consumer's fetch metrics have the same names). */
    static final String METRICS_GROUP = "consumer-share-fetch-manager-metrics";
    private static final String COORDINATOR_GROUP = "consumer-share-coordinator-metrics";

    /** The delivery count of a record the broker gave none. */
    private static final Short NO_COUNT = 0;

    private final ShareConsumer<byte[], byte[]> consumer;
    private final boolean explicit;
    private final boolean commitSync;
    private final StampedRecord decoded = new StampedRecord();
    private volatile boolean joined;
    private volatile long joinedNanos;
    private long nextJoinCheck;
    private final NanoClock clock;

    KafkaShareConsumerHandle(ShareConsumer<byte[], byte[]> consumer, String topic, boolean explicit) {
        this(consumer, topic, explicit, false, NanoClock.SYSTEM);
    }

    /**
     * @param commitSync commit each poll's acknowledgements with {@code commitSync} and time it
     * @param clock      the worker's clock: the commit latency and {@link #joinedNanos} are read from it
     */
    KafkaShareConsumerHandle(ShareConsumer<byte[], byte[]> consumer, String topic, boolean explicit,
                             boolean commitSync, NanoClock clock) {
        this.consumer = consumer;
        this.clock = clock;
        this.explicit = explicit;
        this.commitSync = commitSync;
        consumer.subscribe(List.of(topic));
    }

    // HOT PATH
    @Override
    public int poll(Duration timeout, ShareRecordListener listener) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (WakeupException e) {
            return 0;
        } catch (RuntimeException e) {
            throw new DriverException("share consumer poll failed: " + e.getMessage(), e, false);
        }
        if (!joined) {
            checkJoined(records.count() > 0);
        }
        int n = records.count();
        if (n == 0) {
            return 0;
        }
        listener.onPollReturned();
        StampedRecord d = decoded;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            d.read(r);
            ShareRecordListener.Acknowledge a = listener.onRecord(d.valueBytes, d.stampMicros, r.partition(),
                    d.producerId, d.sequence, r.deliveryCount().orElse(NO_COUNT)); // no Optional made per record
            if (explicit) {
                consumer.acknowledge(r, switch (a) {
                    case ACCEPT -> AcknowledgeType.ACCEPT;
                    case RELEASE -> AcknowledgeType.RELEASE;
                    case REJECT -> AcknowledgeType.REJECT;
                });
            }
        }
        if (commitSync) {
            commit(listener);
        }
        return n;
    }

    /** Commits this poll's acknowledgements and tells the listener how long the broker took to confirm them. */
    private void commit(ShareRecordListener listener) {
        long start = clock.nanoTime();
        Map<org.apache.kafka.common.TopicIdPartition, java.util.Optional<org.apache.kafka.common.KafkaException>> r;
        try {
            r = consumer.commitSync();
        } catch (WakeupException e) {
            return; // the run is ending: the acknowledgements go with the close
        } catch (RuntimeException e) {
            throw new DriverException("share consumer commit failed: " + e.getMessage(), e, false);
        }
        long took = clock.nanoTime() - start;
        boolean failed = false;
        for (java.util.Optional<org.apache.kafka.common.KafkaException> e : r.values()) {
            failed |= e.isPresent();
        }
        listener.onCommitted(took, failed);
    }

    private void checkJoined(boolean gotRecords) {
        long now = clock.nanoTime();
        if (!gotRecords && now - nextJoinCheck < 0) {
            return;
        }
        nextJoinCheck = now + 50_000_000L;
        boolean assigned = false;
        boolean fetched = false;
        for (Map.Entry<MetricName, ? extends org.apache.kafka.common.Metric> e : consumer.metrics().entrySet()) {
            MetricName m = e.getKey();
            if (!(e.getValue().metricValue() instanceof Number v) || v.doubleValue() <= 0) {
                continue;
            }
            assigned |= m.group().equals(COORDINATOR_GROUP) && m.name().equals("rebalance-total");
            fetched |= m.group().equals(METRICS_GROUP) && m.name().equals("fetch-total");
        }
        if (gotRecords || assigned && fetched) {
            joinedNanos = now;
            joined = true;
        }
    }

    @Override
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public boolean joined() {
        return joined;
    }

    @Override
    public long joinedNanos() {
        return joinedNanos;
    }

    @Override
    public Map<String, Double> metrics() {
        return ClientMetrics.pick(consumer.metrics(), METRICS_GROUP, ClientMetrics.SHARE_CONSUMER);
    }

    @Override
    public java.util.SortedMap<String, String> metricsDump() {
        return ClientMetrics.dump(consumer.metrics());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
