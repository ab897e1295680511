package io.kbench.driver.kafka;

import io.kbench.driver.RecordListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What kbench reads from one consumed record, filled in place (one per consumer, so the poll loop allocates
 * nothing): its value size, and the stamp, producer id and sequence its producer attached. The stamp is read from
 * the value's head when it starts with a {@link Stamp} magic, else from the {@link Stamp#HEADER} header (short
 * values; earlier kbench versions). Owned by one consumer's thread.
 */
final class StampedRecord {
    int valueBytes;
    long stampMicros;
    long producerId;
    long sequence;

    // HOT PATH
    void read(ConsumerRecord<byte[], byte[]> r) {
        byte[] value = r.value();
        if (value != null && value.length >= Stamp.IN_VALUE_STAMP_ONLY) {
            int magic = Stamp.readInt(value, 0);
            if (magic == Stamp.MAGIC_VERIFIED && value.length >= Stamp.IN_VALUE_VERIFIED) {
                set(value.length, Stamp.read(value, 4), Stamp.read(value, 12), Stamp.read(value, 20));
                return;
            }
            if (magic == Stamp.MAGIC_STAMP) {
                set(value.length, Stamp.read(value, 4), RecordListener.NO_PRODUCER, 0);
                return;
            }
        }
        Header h = r.headers().lastHeader(Stamp.HEADER);
        byte[] v = h == null ? null : h.value();
        int size = Math.max(0, r.serializedValueSize());
        if (v != null && v.length == Stamp.VERIFIED) {
            set(size, Stamp.read(v, 0), Stamp.read(v, 8), Stamp.read(v, 16));
        } else {
            set(size, v != null && v.length == Stamp.STAMP_ONLY ? Stamp.read(v, 0) : RecordListener.NO_STAMP,
                    RecordListener.NO_PRODUCER, 0);
        }
    }

    private void set(int valueBytes, long stampMicros, long producerId, long sequence) {
        this.valueBytes = valueBytes;
        this.stampMicros = stampMicros;
        this.producerId = producerId;
        this.sequence = sequence;
    }
}
