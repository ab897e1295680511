package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.List;

import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerListener;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * One Kafka producer. HOT PATH: {@link #send} allocates nothing of ours.
 *
 * <p>The stamp header's value array is reused for every send: {@code KafkaProducer.send} serializes the
 * record into its batch before it returns, so the next send may overwrite the array. Completion
 * callbacks come from a ring of reusable {@link Completion} objects; a slot whose previous send is still
 * in flight when the ring comes round is left alone and a fresh completion is used instead (only when more
 * than {@link #RING_SIZE} sends are in flight at once).
 *
 * <p>Threads: {@link #send}, {@link #flush} and {@link #close} on the owning load thread; completions on
 * the producer's sender thread.
 */
final class KafkaProducerHandle implements ProducerHandle {
    static final int RING_SIZE = 1 << 14;

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final ProducerListener listener;
    private final byte[] stamp = new byte[8];
    private final List<Header> headers = List.of(new RecordHeader(Stamp.HEADER, stamp));
    private final Completion[] ring = new Completion[RING_SIZE];
    private long cursor;

    KafkaProducerHandle(KafkaProducer<byte[], byte[]> producer, String topic, ProducerListener listener) {
        this.producer = producer;
        this.topic = topic;
        this.listener = listener;
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Completion(listener);
        }
    }

    // HOT PATH
    @Override
    public void send(byte[] key, byte[] value, long stampMicros, long intendedNanos, long sendNanos) {
        Stamp.write(stamp, stampMicros);
        Completion c = ring[(int) (cursor++ & (RING_SIZE - 1))];
        if (c.inFlight) {
            c = new Completion(listener);
        }
        c.arm(intendedNanos, sendNanos, value.length);
        try {
            producer.send(new ProducerRecord<>(topic, null, null, key, value, headers), c);
        } catch (RuntimeException e) {
            // the client throws (rather than calling back) when closed or interrupted
            c.failIfInFlight(e);
        }
    }

    @Override
    public void beginTransaction() {
        try {
            producer.beginTransaction();
        } catch (RuntimeException e) {
            throw new io.kbench.driver.DriverException("cannot begin a transaction: " + e.getMessage(), e, false);
        }
    }

    @Override
    public void commitTransaction() {
        try {
            producer.commitTransaction();
        } catch (RuntimeException e) {
            throw new io.kbench.driver.DriverException("transaction commit failed: " + e.getMessage(), e, false);
        }
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public void close(Duration timeout) {
        producer.close(timeout);
    }

    /** One reusable send completion. HOT PATH: runs on the producer's sender thread. */
    static final class Completion implements Callback {
        private final ProducerListener listener;
        private long intendedNanos;
        private long sendNanos;
        private int valueBytes;
        /** Written last by the sender thread, read by the load thread before reuse. */
        volatile boolean inFlight;

        Completion(ProducerListener listener) {
            this.listener = listener;
        }

        void arm(long intended, long sent, int bytes) {
            intendedNanos = intended;
            sendNanos = sent;
            valueBytes = bytes;
            inFlight = true;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            long intended = intendedNanos;
            long sent = sendNanos;
            int bytes = valueBytes;
            inFlight = false;
            if (exception == null) {
                listener.onAck(intended, sent, bytes);
            } else {
                listener.onError(intended, sent, exception);
            }
        }

        void failIfInFlight(RuntimeException e) {
            if (inFlight) {
                onCompletion(null, e);
            }
        }
    }
}
