package io.kbench.coordinator.merge;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kbench.protocol.PartitionAcks;

/**
 * Adds up the workers' acknowledged messages per topic and partition ({@link PartitionAcks}, each worker's last
 * snapshot) and finds the busiest partition. Bounded by the run's partitions: at most {@link #MAX_CELLS} partition
 * counts are kept over all topics (a worker naming more is cut, and the result says how many workers are in).
 * Not thread-safe: the merger's lock guards it.
 */
public final class PartitionSpread {
    /** The most partition counts kept over every topic: more partitions than a Kafka cluster holds. */
    static final int MAX_CELLS = 4_000_000;
    /** A partition with this many times an even share of its topic's messages is called hot (docs/diagnosis.md). */
    public static final double HOT_SKEW = 1.5;

    /**
     * The spread: {@code acked} topic -> acknowledged messages by partition; the busiest partition, {@code share} of its
     * topic's messages, {@code skew} times an even share (share × its topic's partitions; 1: perfectly even).
     */
    public record Result(int workers, Map<String, long[]> acked, String topic, int partition, long busiestAcked,
                         double share, int partitions, double skew) {
        /** The busiest partition carries at least {@link #HOT_SKEW} times an even share of its topic's messages. */
        public boolean hot() {
            return PartitionSpread.hot(partitions, skew);
        }
    }

    /** A busiest partition of {@code skew} times an even share of its topic's {@code partitions} is hot. */
    public static boolean hot(int partitions, double skew) {
        return partitions > 1 && skew >= HOT_SKEW;
    }

    private final Map<String, long[]> acked = new TreeMap<>();
    private long cells;
    private int workers;

    /** One worker's counts (its last snapshot); none is a worker without producers. */
    public void add(List<PartitionAcks> fromWorker) {
        add(fromWorker, 1);
    }

    /** Counts already added over {@code workers} workers: a whole run's ({@code kbench merge}). */
    public void add(List<PartitionAcks> fromWorker, int workers) {
        if (fromWorker.isEmpty() || workers < 1) {
            return;
        }
        this.workers += workers;
        for (PartitionAcks a : fromWorker) {
            long[] sum = acked.get(a.topic());
            int have = sum == null ? 0 : sum.length;
            int want = Math.max(have, a.partitions());
            if (want > have) {
                if (cells + (want - have) > MAX_CELLS) {
                    continue;
                }
                cells += want - have;
                sum = sum == null ? new long[want] : Arrays.copyOf(sum, want);
                acked.put(a.topic(), sum);
            }
            for (int p = 0; p < a.partitions(); p++) {
                sum[p] += a.acked(p);
            }
        }
    }

    /**
     * The spread, each topic's counts as long as its partitions ({@code partitions}: topic -> partition count, as
     * the cluster described it; a topic not in it keeps the partitions counted); null when no worker sent counts or
     * nothing was acknowledged.
     */
    public Result result(Map<String, Integer> partitions) {
        if (workers == 0) {
            return null;
        }
        Map<String, long[]> out = new TreeMap<>();
        Result busiest = null;
        int w = workers;
        for (Map.Entry<String, long[]> e : acked.entrySet()) {
            long[] counts = e.getValue();
            Integer n = partitions.get(e.getKey());
            if (n != null && n > counts.length && n - counts.length <= MAX_CELLS - cells) {
                counts = Arrays.copyOf(counts, n);
            }
            out.put(e.getKey(), counts);
            long total = Arrays.stream(counts).sum();
            if (total == 0) {
                continue;
            }
            for (int p = 0; p < counts.length; p++) {
                double share = (double) counts[p] / total;
                double skew = share * counts.length;
                if (busiest == null || skew > busiest.skew() || skew == busiest.skew() && counts[p] > busiest.busiestAcked()) {
                    busiest = new Result(w, out, e.getKey(), p, counts[p], share, counts.length, skew);
                }
            }
        }
        return busiest;
    }
}
