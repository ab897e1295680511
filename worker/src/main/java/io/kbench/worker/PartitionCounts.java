package io.kbench.worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts by partition number, written by exactly one thread (a producer's I/O thread, once per acknowledgement) and
 * read by any. HOT PATH: an increment is a plain read and an ordered (release) store of one array element, as
 * {@link SingleWriterCounter}. The array grows to the highest partition seen (a topic's partitions, at most
 * {@link io.kbench.protocol.PartitionAcks#MAX_PARTITIONS}; a number past that is not counted).
 */
final class PartitionCounts {
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);

    /** Replaced (by the writer) with a longer copy when a higher partition comes; elements written by the writer only. */
    private volatile long[] counts = new long[0];

    /** One more in {@code partition}; only the owning writer thread may call this. A negative partition is not counted. */
    void add(int partition) {
        long[] c = counts;
        if (partition >= c.length) {
            if (partition < 0 || partition >= io.kbench.protocol.PartitionAcks.MAX_PARTITIONS) {
                return;
            }
            // doubling: partitions seen in rising order (0, 1, 2 ...) copy the array a logarithmic number of times
            c = grow(c, Math.min(io.kbench.protocol.PartitionAcks.MAX_PARTITIONS,
                    Math.max(partition + 1, 2 * c.length)));
        } else if (partition < 0) {
            return;
        }
        ELEMENT.setRelease(c, partition, (long) ELEMENT.getOpaque(c, partition) + 1);
    }

    private long[] grow(long[] c, int length) {
        long[] longer = new long[length];
        for (int p = 0; p < c.length; p++) {
            longer[p] = (long) ELEMENT.getOpaque(c, p);
        }
        counts = longer;
        return longer;
    }

    /** The counts so far, by partition, from any thread (a new array; its length: the highest partition counted + 1). */
    long[] get() {
        long[] c = counts;
        long[] out = new long[c.length];
        int length = 0;
        for (int p = 0; p < c.length; p++) {
            out[p] = (long) ELEMENT.getAcquire(c, p);
            if (out[p] != 0) {
                length = p + 1;
            }
        }
        return length == out.length ? out : java.util.Arrays.copyOf(out, length);
    }
}
