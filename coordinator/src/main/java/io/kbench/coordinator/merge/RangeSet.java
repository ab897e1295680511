package io.kbench.coordinator.merge;

import java.util.Arrays;

/**
 * A set of non-negative longs kept as sorted, disjoint, non-touching ranges {@code [start, end)} in one array: a
 * stream's sequence numbers seen so far, which is one range while nothing is missing. Adding a range says how
 * many of its numbers were already in the set. Not thread-safe.
 */
final class RangeSet {
    /** Pairs start, end; {@code length} values used. */
    private long[] r = new long[2];
    private int length;
    private long size;

    /** Numbers in the set. */
    long size() {
        return size;
    }

    /** Ranges the set is made of. */
    int ranges() {
        return length / 2;
    }

    /**
     * Adds {@code [start, end)}.
     *
     * @return how many of its numbers were in the set already
     */
    long add(long start, long end) {
        if (end <= start) {
            return 0;
        }
        int n = length / 2;
        // the common case: at or after the last range
        if (n == 0 || start > r[length - 1]) {
            append(start, end);
            return 0;
        }
        // first range whose end reaches start (touching counts: it is joined)
        int i = firstEndAtOrAfter(start);
        // ranges i .. j-1 overlap or touch [start, end)
        int j = i;
        long overlap = 0;
        while (j < n && r[2 * j] <= end) {
            overlap += Math.max(0, Math.min(end, r[2 * j + 1]) - Math.max(start, r[2 * j]));
            j++;
        }
        if (j == i) {
            insert(i, start, end);
            return 0;
        }
        long s = Math.min(start, r[2 * i]);
        long e = Math.max(end, r[2 * (j - 1) + 1]);
        long before = 0;
        for (int k = i; k < j; k++) {
            before += r[2 * k + 1] - r[2 * k];
        }
        r[2 * i] = s;
        r[2 * i + 1] = e;
        int removed = j - i - 1;
        if (removed > 0) {
            System.arraycopy(r, 2 * j, r, 2 * (i + 1), length - 2 * j);
            length -= 2 * removed;
        }
        size += (e - s) - before;
        return overlap;
    }

    /** How many numbers of {@code [start, end)} are in the set. */
    long overlap(long start, long end) {
        if (end <= start || length == 0) {
            return 0;
        }
        long o = 0;
        for (int k = firstEndAtOrAfter(start); k < length / 2 && r[2 * k] < end; k++) {
            o += Math.max(0, Math.min(end, r[2 * k + 1]) - Math.max(start, r[2 * k]));
        }
        return o;
    }

    /**
     * Closes the lowest gap between two ranges (joins the first two), as if its numbers had been added.
     *
     * @return the numbers it filled; 0 when the set is a single range or empty
     */
    long closeLowestGap() {
        if (length < 4) {
            return 0;
        }
        long gap = r[2] - r[1];
        r[1] = r[3];
        System.arraycopy(r, 4, r, 2, length - 4);
        length -= 2;
        size += gap;
        return gap;
    }

    /** The numbers below {@code end} that are not in the set, from {@code start} on. */
    long missing(long start, long end) {
        return Math.max(0, end - start) - overlap(start, end);
    }

    /** The ranges, pairs start, end (a copy). */
    long[] toArray() {
        return Arrays.copyOf(r, length);
    }

    private int firstEndAtOrAfter(long x) {
        int lo = 0;
        int hi = length / 2;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (r[2 * mid + 1] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void append(long start, long end) {
        ensure(length + 2);
        r[length] = start;
        r[length + 1] = end;
        length += 2;
        size += end - start;
    }

    private void insert(int at, long start, long end) {
        ensure(length + 2);
        System.arraycopy(r, 2 * at, r, 2 * at + 2, length - 2 * at);
        r[2 * at] = start;
        r[2 * at + 1] = end;
        length += 2;
        size += end - start;
    }

    private void ensure(int capacity) {
        if (capacity > r.length) {
            r = Arrays.copyOf(r, Math.max(capacity, r.length * 2));
        }
    }
}
