package io.kbench.coordinator.merge;

import java.util.HashMap;
import java.util.Map;

import io.kbench.protocol.ShareDeliveries;

/**
 * The per-record check of the share groups (docs/share-groups.md#what-is-checked), where every worker's
 * deliveries of a group meet. Per share group, producer and partition it keeps two sets of sequence numbers:
 * those <em>first</em> delivered (delivery count 1) and those <em>seen</em> (delivered at all). With share-group
 * semantics:
 * <ul>
 *   <li>a record first-delivered a second time is a <b>duplicate</b> (the group handed it out again as new: a
 *       producer's retry wrote it twice, or the group lost track of it);</li>
 *   <li>a delivery again (count above 1: after a release, a lock that ran out, a consumer that left) is a
 *       redelivery, never a duplicate;</li>
 *   <li>a record is <b>lost</b> when it was acknowledged to its producer and never delivered: at the end, the
 *       acknowledged messages times the share groups per topic, minus the distinct records seen ({@link #lost}).
 *       No ordering is checked (a share group does not keep it).</li>
 * </ul>
 * Both sets are one range per stream while the groups keep up (the gaps are the records in flight), whatever the
 * order in which the workers' snapshots arrive.
 *
 * <p>Memory is bounded: at most {@link #MAX_STREAMS} streams (deliveries of further streams count as untracked),
 * at most {@link #MAX_GAPS} gaps per set, and at most {@link #MAX_RANGES} ranges over all sets (16 bytes each).
 * Past a bound, the lowest gaps of the stream being added to are closed: in its seen set their records are
 * counted lost (they stayed undelivered while that many newer gaps opened), in its first set they are only
 * forgotten (a first delivery into one would count as a duplicate). A group that keeps up has a few gaps per
 * stream (the batches its consumers hold), far below the bounds.
 *
 * <p>Threads: not thread-safe; the {@link IntervalMerger} calls it under its lock.
 */
public final class ShareVerifier {
    /** Most (group, producer, partition) streams followed. */
    public static final int MAX_STREAMS = 100_000;
    /** Most gaps a set keeps open. */
    public static final int MAX_GAPS = 4_096;
    /** Most ranges held over every stream's two sets. */
    public static final int MAX_RANGES = 1_000_000;

    private record Key(String group, long producerId, int partition) { }

    private static final class Stream {
        final RangeSet first = new RangeSet();
        final RangeSet seen = new RangeSet();
    }

    private final Map<Key, Stream> streams = new HashMap<>();
    private long duplicated;
    private long distinct;
    private long closedUnseen;
    private long untracked;
    private long ranges;
    private boolean any;

    /** Adds one worker's deliveries of one interval. */
    public void add(ShareDeliveries d) {
        if (!d.present()) {
            return;
        }
        any = true;
        untracked += d.untracked();
        for (ShareDeliveries.Stream s : d.streams()) {
            Key k = new Key(s.group(), s.producerId(), s.partition());
            Stream st = streams.get(k);
            if (st == null) {
                if (streams.size() >= MAX_STREAMS) {
                    untracked += s.firstCount() + s.againCount();
                    continue;
                }
                st = new Stream();
                streams.put(k, st);
            }
            int before = st.first.ranges() + st.seen.ranges();
            long[] f = s.first();
            for (int i = 0; i < f.length; i += 2) {
                duplicated += st.first.add(f[i], f[i + 1]);
                distinct += (f[i + 1] - f[i]) - st.seen.add(f[i], f[i + 1]);
            }
            long[] a = s.again();
            for (int i = 0; i < a.length; i += 2) {
                distinct += (a[i + 1] - a[i]) - st.seen.add(a[i], a[i + 1]);
            }
            ranges += st.first.ranges() + st.seen.ranges() - before;
            while (st.first.ranges() > MAX_GAPS + 1 || ranges > MAX_RANGES && st.first.ranges() > 1) {
                st.first.closeLowestGap();
                ranges--;
            }
            while (st.seen.ranges() > MAX_GAPS + 1 || ranges > MAX_RANGES && st.seen.ranges() > 1) {
                closedUnseen += st.seen.closeLowestGap();
                ranges--;
            }
        }
    }

    /** True once any worker sent deliveries (the run verifies its share groups). */
    public boolean active() {
        return any;
    }

    /** Records first-delivered again (share-group duplicates) so far. */
    public long duplicated() {
        return duplicated;
    }

    /** Distinct records delivered so far (each record of each group once). */
    public long distinct() {
        return distinct;
    }

    /** Deliveries left out (bounds reached, at a worker or here): the check is blind to them. */
    public long untracked() {
        return untracked;
    }

    /** Ranges held over every stream's two sets (at most {@link #MAX_RANGES} once an add is done, give or take
     * the single ranges of streams without gaps). */
    public long ranges() {
        return ranges;
    }

    /** Streams followed. */
    public int streams() {
        return streams.size();
    }

    /**
     * Records lost, at the end of a run: {@code expectedDistinct} (what the groups had to deliver: acknowledged
     * messages times share groups per topic; 0 when the run could not drain) minus the distinct records delivered
     * and the untracked deliveries, or the records of the gaps closed to bound memory, whichever is larger.
     */
    public long lost(long expectedDistinct) {
        return Math.max(0, Math.max(closedUnseen, expectedDistinct - distinct - untracked));
    }

    /** The run's figures: {@link #lost} for {@code expectedDistinct}, duplicates and untracked deliveries. */
    public Result result(long expectedDistinct) {
        return new Result(lost(expectedDistinct), duplicated, untracked);
    }

    /** What the check found over the run. */
    public record Result(long lost, long duplicated, long untracked) { }
}
