package io.kbench.coordinator.dashboard;

import java.util.AbstractList;
import java.util.List;

/**
 * A list one thread appends to while others read it without a lock: elements live in fixed chunks that never
 * move, and the size is published (volatile) after the element is stored, so a reader that reads the size
 * first sees every element below it. {@link #view} is a fixed-size snapshot, O(1) to take. The dashboard's
 * pages read the run's intervals through it while the merge path goes on appending.
 *
 * <p>Threads: one writer (or writers serialized by a lock), any number of readers.
 */
final class AppendOnlyList<T> {
    private static final int CHUNK = 4096;
    private final List<Object[]> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile int size;

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

    @SuppressWarnings("unchecked")
    T get(int index) {
        return (T) chunks.get(index / CHUNK)[index % CHUNK];
    }

    /** The elements {@code [from, to)} as they are now (to clamped to the size); later appends do not show. */
    List<T> view(int from, int to) {
        int end = Math.min(to, size);
        int start = Math.min(Math.max(0, from), end);
        return new AbstractList<>() {
            @Override
            public T get(int index) {
                if (index < 0 || index >= end - start) {
                    throw new IndexOutOfBoundsException(index);
                }
                return AppendOnlyList.this.get(start + index);
            }

            @Override
            public int size() {
                return end - start;
            }
        };
    }

    /** Every element now. */
    List<T> view() {
        return view(0, Integer.MAX_VALUE);
    }
}
