package io.kbench.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.Driver;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.DriverFactory;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import io.kbench.driver.ProducerOptions;
import io.kbench.driver.RecordListener;
import io.kbench.driver.TopicSpec;

/**
 * A driver whose cluster is one in-memory log of one partition, on a {@link SimClock}: a send is appended and
 * acknowledged at once (on the sending thread), a consumer's poll waits on the clock and hands over what was
 * appended since its position. Enough of Kafka's contract for a worker's lifecycle; nothing of its timing.
 * Thread-safe.
 */
final class FakeDriver implements Driver, DriverFactory {
    /** One appended message: its stamp, producer id, sequence and value size. */
    record Message(long stampMicros, long producerId, long sequence, int valueBytes) { }

    private final SimClock clock;
    private final List<Message> log = new ArrayList<>();
    final List<String> deletedTopics = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** When set, each consumer's close waits up to this long (real time) for a topic deletion, and notes whether one came. */
    volatile long closeAwaitsDeletionMillis;
    /** Whether a consumer's close saw the topics deleted before it returned. */
    volatile boolean deletedWhileClosing;
    volatile int opened;
    volatile int closed;
    /** The cluster's topics as {@link #listTopics} lists them, and whether the cluster answers that call. */
    volatile List<String> topics = List.of();
    volatile boolean unreachable;
    /** The most messages one poll returned. */
    volatile int largestPoll;

    FakeDriver(SimClock clock) {
        this.clock = clock;
    }

    /** Messages appended so far. */
    int appended() {
        synchronized (log) {
            return log.size();
        }
    }

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Driver create(DriverConfig config) {
        opened++;
        return this;
    }

    @Override
    public void checkReachable(Duration timeout) {
    }

    @Override
    public List<String> createTopics(List<TopicSpec> topics, Duration timeout) {
        return topics.stream().map(TopicSpec::name).toList();
    }

    @Override
    public Map<String, Integer> describeTopics(List<String> topics, Duration timeout) {
        Map<String, Integer> out = new java.util.LinkedHashMap<>();
        topics.forEach(t -> out.put(t, 1));
        return out;
    }

    @Override
    public List<String> listTopics(Duration timeout) {
        if (unreachable) {
            throw new io.kbench.driver.DriverException("cannot list the topics of fake:1: no broker answered within "
                    + timeout.toSeconds() + " s", null, true);
        }
        return topics;
    }

    @Override
    public void deleteTopics(List<String> topics, Duration timeout) {
        deletedTopics.addAll(topics);
    }

    @Override
    public ProducerHandle createProducer(ProducerOptions options, ProducerListener listener) {
        return new ProducerHandle() {
            private long sequence;
            private volatile boolean closedHere;

            @Override
            public void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos) {
                if (closedHere) {
                    throw new IllegalStateException("Cannot perform operation after producer has been closed");
                }
                synchronized (log) {
                    log.add(new Message(stampMicros, options.producerId(), sequence++, value.length));
                }
                listener.onAck(intendedNanos, sendNanos, value.length, 0);
            }

            @Override
            public void beginTransaction() {
            }

            @Override
            public void commitTransaction() {
            }

            @Override
            public void flush() {
            }

            @Override
            public Map<String, Double> metrics() {
                return Map.of();
            }

            @Override
            public void close(Duration timeout) {
                closedHere = true;
            }
        };
    }

    @Override
    public ConsumerHandle createConsumer(String topic, String group, String clientId) {
        long created = clock.nanoTime();
        return new ConsumerHandle() {
            private int position;
            private volatile boolean released;
            private volatile boolean woken;

            @Override
            public int poll(Duration timeout, RecordListener listener) {
                long deadline = clock.nanoTime() + timeout.toNanos();
                long now;
                while (!woken && (now = clock.nanoTime()) < deadline) {
                    clock.park(deadline - now);
                }
                woken = false;
                if (!released) {
                    return 0;
                }
                List<Message> batch;
                synchronized (log) {
                    batch = List.copyOf(log.subList(position, log.size()));
                    position = log.size();
                }
                if (!batch.isEmpty()) {
                    largestPoll = Math.max(largestPoll, batch.size());
                    listener.onPollReturned();
                    for (Message m : batch) {
                        listener.onRecord(m.valueBytes(), m.stampMicros(), 0, m.producerId(), m.sequence());
                    }
                }
                return batch.size();
            }

            @Override
            public void hold(Start start) {
                synchronized (log) {
                    position = start == Start.END ? log.size() : 0;
                }
            }

            @Override
            public void release() {
                released = true;
            }

            @Override
            public void wakeup() {
                woken = true;
            }

            @Override
            public int assignedPartitions() {
                return 1;
            }

            @Override
            public boolean joined() {
                return true;
            }

            @Override
            public long joinedNanos() {
                return created;
            }

            @Override
            public long lag() {
                synchronized (log) {
                    return log.size() - position;
                }
            }

            @Override
            public Map<String, Double> metrics() {
                return Map.of();
            }

            @Override
            public void close() {
                long until = System.nanoTime() + closeAwaitsDeletionMillis * 1_000_000;
                while (deletedTopics.isEmpty() && System.nanoTime() < until) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                deletedWhileClosing |= !deletedTopics.isEmpty();
            }
        };
    }

    @Override
    public void close() {
        closed++;
    }
}
