package io.kbench.worker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sequence numbers one share consumer was delivered, as ranges per (producer, partition) stream, for the
 * coordinator's per-record check of the share groups (docs/share-groups.md#what-is-checked): a share group's
 * records spread over consumers on several workers, so only the coordinator sees all of a record's deliveries.
 *
 * <p>HOT PATH: {@link #record} is a comparison with the previous record's stream (a hash probe otherwise) and,
 * when the number continues the stream's last range, an increment; a share fetch hands out whole batches, so a
 * stream's deliveries are a few ranges. It allocates only for a new stream or range. Only this run's producers'
 * records are kept (their id carries the run's nonce); others are no business of this run.
 *
 * <p>Bounded: at most {@link #MAX_RANGES} ranges are held between two harvests; a delivery that would need one
 * more is counted as untracked instead (the check then knows it is blind to it).
 *
 * <p>Threads: {@link #record} and {@link #publish} on the consumer's thread (the only writer), which publishes
 * what it recorded at the end of each poll; {@link #harvest} on the snapshot thread takes what was published.
 * The lock is taken once per poll and once per harvest, never per record.
 */
final class ShareDeliveryLog {
    /** Most ranges one consumer holds between two harvests. */
    static final int MAX_RANGES = 16_384;
    /** Most streams the writer's table keeps (emptied) from one poll to the next, so a poll allocates nothing. */
    static final int KEPT_STREAMS = 4_096;

    private final String group;
    private final long runNonce;
    /** Recorded since the last {@link #publish}; the writer's own. */
    private Table building = new Table();
    /** Published and not yet harvested; guarded by {@code this}. */
    private Table published = new Table();
    /** Ranges in {@code building}; the writer's own. */
    private int buildingRanges;
    /** Ranges in {@code published}; written under the lock. */
    private volatile int publishedRanges;
    private final SingleWriterCounter untracked = new SingleWriterCounter();
    private long harvestedUntracked;

    /** @param group the share group the consumer belongs to */
    ShareDeliveryLog(String group, int runNonce) {
        this.group = group;
        this.runNonce = runNonce & 0x7fffffffL;
    }

    String group() {
        return group;
    }

    // HOT PATH
    /** One delivery: {@code again} when its delivery count is above 1. Other runs' records are ignored. */
    void record(long producerId, int partition, long sequence, boolean again) {
        if (producerId >>> 32 != runNonce || sequence < 0) {
            return;
        }
        Stream s = building.findOrAdd(group, producerId, partition);
        if (!s.extend(again, sequence)) {
            if (buildingRanges + publishedRanges >= MAX_RANGES) {
                untracked.add(1);
                return;
            }
            s.append(again, sequence);
            buildingRanges++;
        }
    }

    /** End of a poll: what was recorded during it becomes harvestable. Writer thread. */
    void publish() {
        if (buildingRanges == 0) {
            return; // every stream's first record of a poll opens a range: none opened, nothing recorded
        }
        synchronized (this) {
            published.absorb(building); // a range that continues one published joins it
            publishedRanges = published.ranges();
        }
        // the streams stay, emptied, for the next poll (it allocates nothing), unless there are very many
        if (building.size > KEPT_STREAMS) {
            building.clear();
        } else {
            building.empty();
        }
        buildingRanges = 0;
    }

    /**
     * Takes what was published since the last harvest and adds it to {@code into} (one entry per stream; a
     * stream already in it has its ranges added). Returns the deliveries counted untracked since the last harvest.
     * Snapshot thread.
     */
    long harvest(Table into) {
        Table taken;
        synchronized (this) {
            taken = published;
            published = new Table();
            publishedRanges = 0;
        }
        into.absorb(taken);
        long u = untracked.get();
        long delta = u - harvestedUntracked;
        harvestedUntracked = u;
        return delta;
    }

    /** One stream's ranges, pairs [start, end), in the order they began. */
    static final class Stream {
        final String group;
        final long producerId;
        final int partition;
        long[] first = new long[2];
        int firstLength;
        long[] again = new long[0];
        int againLength;

        Stream(String group, long producerId, int partition) {
            this.group = group;
            this.producerId = producerId;
            this.partition = partition;
        }

        /** Extends the last range of its kind when {@code sequence} continues it. */
        boolean extend(boolean isAgain, long sequence) {
            long[] r = isAgain ? again : first;
            int n = isAgain ? againLength : firstLength;
            if (n > 0 && r[n - 1] == sequence) {
                r[n - 1] = sequence + 1;
                return true;
            }
            return false;
        }

        void append(boolean isAgain, long sequence) {
            if (isAgain) {
                again = add(again, againLength, sequence, sequence + 1);
                againLength += 2;
            } else {
                first = add(first, firstLength, sequence, sequence + 1);
                firstLength += 2;
            }
        }

        /** Adds {@code o}'s ranges after its own, a range that starts where the last one ends joining it. */
        void addAll(Stream o) {
            for (int i = 0; i < o.firstLength; i += 2) {
                if (firstLength > 0 && first[firstLength - 1] == o.first[i]) {
                    first[firstLength - 1] = o.first[i + 1];
                } else {
                    first = add(first, firstLength, o.first[i], o.first[i + 1]);
                    firstLength += 2;
                }
            }
            for (int i = 0; i < o.againLength; i += 2) {
                if (againLength > 0 && again[againLength - 1] == o.again[i]) {
                    again[againLength - 1] = o.again[i + 1];
                } else {
                    again = add(again, againLength, o.again[i], o.again[i + 1]);
                    againLength += 2;
                }
            }
        }

        private static long[] add(long[] r, int n, long start, long end) {
            if (n + 2 > r.length) {
                r = Arrays.copyOf(r, Math.max(4, r.length * 2));
            }
            r[n] = start;
            r[n + 1] = end;
            return r;
        }

        int ranges() {
            return (firstLength + againLength) / 2;
        }

        /**
         * The first-delivery ranges sorted by start, a range joined to the next only when they touch without
         * overlapping (an overlap is a record first-delivered twice, which the coordinator must see).
         */
        long[] firstRanges() {
            return join(first, firstLength, false);
        }

        /** The again ranges sorted and joined where they touch or overlap (a redelivery is never a duplicate). */
        long[] againRanges() {
            return join(again, againLength, true);
        }

        private static long[] join(long[] r, int n, boolean union) {
            if (n == 0) {
                return new long[0];
            }
            Integer[] order = new Integer[n / 2];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(r[2 * a], r[2 * b]));
            long[] out = new long[n];
            int m = 0;
            for (int k : order) {
                long s = r[2 * k];
                long e = r[2 * k + 1];
                if (m > 0 && (s == out[m - 1] || union && s < out[m - 1])) {
                    out[m - 1] = Math.max(out[m - 1], e);
                } else {
                    out[m] = s;
                    out[m + 1] = e;
                    m += 2;
                }
            }
            return Arrays.copyOf(out, m);
        }
    }

    /**
     * Streams by (group, producer, partition): open addressing, the previous lookup's stream remembered. Not
     * thread-safe.
     */
    static final class Table {
        private Stream[] slots = new Stream[16];
        int size;
        private Stream last;

        /** The stream, or null. */
        Stream find(String group, long producerId, int partition) {
            Stream l = last;
            if (l != null && l.producerId == producerId && l.partition == partition && same(l.group, group)) {
                return l;
            }
            int mask = slots.length - 1;
            int i = hash(producerId, partition) & mask;
            Stream s;
            while ((s = slots[i]) != null) {
                if (s.producerId == producerId && s.partition == partition && same(s.group, group)) {
                    last = s;
                    return s;
                }
                i = (i + 1) & mask;
            }
            return null;
        }

        private static boolean same(String a, String b) {
            return a == b || a.equals(b); // a consumer's records all carry its one group instance
        }

        /** The stream, added when new. */
        Stream findOrAdd(String group, long producerId, int partition) {
            Stream s = find(group, producerId, partition);
            if (s == null) {
                s = new Stream(group, producerId, partition);
                put(s);
                last = s;
            }
            return s;
        }

        private void put(Stream s) {
            if ((size + 1) * 2 > slots.length) {
                Stream[] old = slots;
                slots = new Stream[old.length * 2];
                for (Stream o : old) {
                    if (o != null) {
                        insert(o);
                    }
                }
            }
            insert(s);
            size++;
        }

        private void insert(Stream s) {
            int mask = slots.length - 1;
            int i = hash(s.producerId, s.partition) & mask;
            while (slots[i] != null) {
                i = (i + 1) & mask;
            }
            slots[i] = s;
        }

        /**
         * Adds every stream of {@code other} that has ranges into this table, a stream already in it getting the
         * ranges added.
         */
        void absorb(Table other) {
            for (Stream o : other.slots) {
                if (o != null && o.ranges() > 0) {
                    findOrAdd(o.group, o.producerId, o.partition).addAll(o);
                }
            }
        }

        /** Empties every stream, keeping them. */
        void empty() {
            for (Stream s : slots) {
                if (s != null) {
                    s.firstLength = 0;
                    s.againLength = 0;
                }
            }
        }

        void clear() {
            Arrays.fill(slots, null);
            size = 0;
            last = null;
        }

        int ranges() {
            int n = 0;
            for (Stream s : slots) {
                if (s != null) {
                    n += s.ranges();
                }
            }
            return n;
        }

        /** The streams that have ranges. */
        List<Stream> streams() {
            List<Stream> out = new ArrayList<>(size);
            for (Stream s : slots) {
                if (s != null && s.ranges() > 0) {
                    out.add(s);
                }
            }
            return out;
        }

        private static int hash(long id, int partition) {
            // the group is left out: a table holds one or a few groups, and a record must not cost a string hash
            long h = id * 0x9E3779B97F4A7C15L + partition * 0xC2B2AE3D27D4EB4FL;
            return (int) (h ^ (h >>> 29));
        }
    }
}
