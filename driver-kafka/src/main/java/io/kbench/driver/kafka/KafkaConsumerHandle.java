package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.DriverException;
import io.kbench.driver.NanoClock;
import io.kbench.driver.RecordListener;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One subscribed Kafka consumer. HOT PATH: {@link #poll} hands each record's size and stamp to the
 * listener and allocates nothing of ours; the stamp is read as {@link StampedRecord} says.
 *
 * <p>Threads: {@link #poll} and {@link #close} on the owning load thread (KafkaConsumer is single-threaded);
 * the rebalance callbacks run inside poll on that thread; {@link #wakeup}, {@link #assignedPartitions} and
 * {@link #joined} from any thread.
 */
final class KafkaConsumerHandle implements ConsumerHandle, ConsumerRebalanceListener {
    private final Consumer<byte[], byte[]> consumer;
    private volatile int assigned;
    private volatile boolean joined;
    private volatile long joinedNanos;
    private volatile boolean holding;
    private Start holdAt = Start.END;
    private final StampedRecord decoded = new StampedRecord();
    private final NanoClock clock;

    KafkaConsumerHandle(Consumer<byte[], byte[]> consumer, String topic) {
        this(consumer, topic, NanoClock.SYSTEM);
    }

    /** @param clock the worker's clock, which {@link #joinedNanos} is read from */
    KafkaConsumerHandle(Consumer<byte[], byte[]> consumer, String topic, NanoClock clock) {
        this.consumer = consumer;
        this.clock = clock;
        consumer.subscribe(List.of(topic), this);
    }

    @Override
    public void hold(Start start) {
        holdAt = start;
        holding = true;
    }

    @Override
    public void release() {
        holding = false;
    }

    // HOT PATH
    @Override
    public int poll(Duration timeout, RecordListener listener) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            if (!holding && !consumer.paused().isEmpty()) {
                consumer.resume(consumer.paused());
            }
            records = consumer.poll(timeout);
        } catch (WakeupException e) {
            return 0;
        } catch (RuntimeException e) {
            throw new DriverException("consumer poll failed: " + e.getMessage(), e, false);
        }
        int n = records.count();
        if (n == 0) {
            return 0;
        }
        listener.onPollReturned();
        StampedRecord d = decoded;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            d.read(r);
            listener.onRecord(d.valueBytes, d.stampMicros, r.partition(), d.producerId, d.sequence);
        }
        return n;
    }

    @Override
    public long lag() {
        long sum = 0;
        boolean known = false;
        for (TopicPartition tp : consumer.assignment()) {
            java.util.OptionalLong l = consumer.currentLag(tp);
            if (l.isPresent()) {
                sum += l.getAsLong();
                known = true;
            }
        }
        return known ? sum : -1;
    }

    @Override
    public java.util.SortedMap<String, String> metricsDump() {
        return ClientMetrics.dump(consumer.metrics());
    }

    @Override
    public java.util.Map<String, Double> metrics() {
        return ClientMetrics.pick(consumer.metrics(), "consumer-fetch-manager-metrics", ClientMetrics.CONSUMER);
    }

    @Override
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public int assignedPartitions() {
        return assigned;
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
    public void close() {
        consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (holding && !partitions.isEmpty()) {
            consumer.pause(partitions);
            if (holdAt == Start.END) {
                consumer.seekToEnd(partitions);
                // resolve the end offsets now, before the run starts: resolved lazily at resume time, the
                // "end" would already include the run's first messages, which would then never be read
                for (TopicPartition tp : partitions) {
                    consumer.position(tp);
                }
            } else if (holdAt == Start.BEGINNING) {
                consumer.seekToBeginning(partitions);
            } // COMMITTED: the client positions each partition from the group's offset or its reset policy
        }
        assigned = consumer.assignment().size();
        if (!joined) {
            joinedNanos = clock.nanoTime();
        }
        joined = true;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        assigned = Math.max(0, consumer.assignment().size() - partitions.size());
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        onPartitionsRevoked(partitions);
    }
}
