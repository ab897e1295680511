package io.kbench.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one worker's share consumers were delivered over one interval, for the coordinator's per-record check of
 * the share groups: per share group, producer and partition, the ranges of sequence numbers delivered for the
 * first time and delivered again (the protocol's {@code ShareDeliveries}). {@code untracked}: deliveries left out
 * because the worker's bound on ranges per interval was reached.
 *
 * <p>{@link #NONE}, and only that instance, means the worker sends none (no share consumers, no verification); an
 * empty one from a worker that verifies means its share consumers were delivered nothing in the interval.
 */
public record ShareDeliveries(List<Stream> streams, long untracked) {
    /** Absent: the worker does not verify share deliveries. */
    public static final ShareDeliveries NONE = new ShareDeliveries(List.of(), 0);

    public ShareDeliveries {
        streams = List.copyOf(streams);
    }

    /** True when the worker sent them: it verifies its share consumers' deliveries (even if there were none). */
    public boolean present() {
        return this != NONE;
    }

    /**
     * One stream's deliveries: ranges as pairs {@code [start, end)} of sequence numbers, {@code first} those
     * delivered for the first time (ascending by start; they may overlap: a record first-delivered twice),
     * {@code again} those delivered again. The arrays are owned by the record: not copied, not to be changed.
     */
    public record Stream(String group, long producerId, int partition, long[] first, long[] again) {
        public Stream {
            Objects.requireNonNull(group, "group");
            if (first.length % 2 != 0 || again.length % 2 != 0) {
                throw new IllegalArgumentException("ranges come in pairs");
            }
        }

        /** Records in the first-delivery ranges (overlaps counted each time). */
        public long firstCount() {
            return count(first);
        }

        /** Records in the again ranges. */
        public long againCount() {
            return count(again);
        }

        private static long count(long[] ranges) {
            long n = 0;
            for (int i = 0; i < ranges.length; i += 2) {
                n += ranges[i + 1] - ranges[i];
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Stream s && group.equals(s.group) && producerId == s.producerId
                    && partition == s.partition && Arrays.equals(first, s.first) && Arrays.equals(again, s.again);
        }

        @Override
        public int hashCode() {
            return Objects.hash(group, producerId, partition) * 31 + Arrays.hashCode(first) * 7 + Arrays.hashCode(again);
        }

        @Override
        public String toString() {
            return "Stream[" + group + ", " + producerId + ", " + partition + ", first " + Arrays.toString(first)
                    + ", again " + Arrays.toString(again) + "]";
        }
    }
}
