package io.kbench.coordinator.dashboard;

import java.util.AbstractList;
import java.util.List;

/**
 * A list one thread appends to while others read it without a lock: elements live in fixed chunks that never
 * move, and the size is published (volatile) after the element is stored, so a reader that reads the size
 * first sees every element below it. {@link #view} is a fixed-size snapshot holding its own references to the
 * chunks it spans, cheap to take. The oldest chunks can be dropped ({@link #keepFrom}) to bound its memory; a
 * view taken before still reads them. The dashboard's pages read the run's intervals through it while the merge
 * path goes on appending.
 *
 * <p>Threads: one writer (or writers serialized by a lock), any number of readers.
 */
final class AppendOnlyList<T> {
    static final int CHUNK = 4096;
    private final List<Object[]> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile int size;
    /** The first index still kept (a multiple of {@link #CHUNK}). */
    private volatile int first;

    void add(T element) {
        int n = size;
        if (n % CHUNK == 0) {
            chunks.add(new Object[CHUNK]);
        }
        chunks.get(n / CHUNK)[n % CHUNK] = element;
        size = n + 1;
    }

    int size() {
        return size;
    }

    /** The first index still held. */
    int first() {
        return first;
    }

    /** Drops whole chunks below {@code index} (the elements before it may then be gone). */
    void keepFrom(int index) {
        int chunk = Math.min(index, size) / CHUNK;
        for (int c = first / CHUNK; c < chunk; c++) {
            chunks.set(c, null);
        }
        first = Math.max(first, chunk * CHUNK);
    }

    /**
     * The elements {@code [from, to)} as they are now (from raised to {@link #first()}, to clamped to the size);
     * later appends do not show, later drops do not take them away.
     */
    @SuppressWarnings("unchecked")
    List<T> view(int from, int to) {
        int end = Math.min(to, size);
        int start = Math.min(Math.max(first, from), end);
        Object[][] held = new Object[end <= start ? 0 : (end - 1) / CHUNK - start / CHUNK + 1][];
        for (int c = 0; c < held.length; c++) {
            held[c] = chunks.get(start / CHUNK + c);
        }
        int base = start / CHUNK * CHUNK;
        return new AbstractList<>() {
            @Override
            public T get(int index) {
                if (index < 0 || index >= end - start) {
                    throw new IndexOutOfBoundsException(index);
                }
                int at = start + index - base;
                return (T) held[at / CHUNK][at % CHUNK];
            }

            @Override
            public int size() {
                return end - start;
            }
        };
    }
}
