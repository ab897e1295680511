package io.kbench.coordinator.dashboard;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * A list one thread appends to while others read it without a lock: elements live in fixed chunks that never
 * move, and the size is published (volatile) after the element is stored, so a reader that reads the size
 * first sees every element below it. {@link #view} is a fixed-size snapshot holding its own references to the
 * chunks it spans, cheap to take. The oldest chunks can be dropped ({@link #keepFrom}) to bound its memory: what
 * it holds is then the kept elements and one small array of chunk references, whatever the number ever added; a
 * view taken before still reads the dropped ones. The dashboard's pages read the run's latest intervals through
 * it while the merge path goes on appending.
 *
 * <p>Threads: one writer (or writers serialized by a lock), any number of readers.
 */
final class AppendOnlyList<T> {
    static final int CHUNK = 128;

    /** The chunks held: chunk {@code base} (elements from {@code base * CHUNK}) onwards. Replaced, never changed. */
    private record Chunks(int base, Object[][] held) { }

    private volatile Chunks chunks = new Chunks(0, new Object[0][]);
    private volatile int size;

    void add(T element) {
        int n = size;
        Chunks c = chunks;
        if (n % CHUNK == 0) {
            Object[][] more = Arrays.copyOf(c.held(), c.held().length + 1);
            more[more.length - 1] = new Object[CHUNK];
            c = new Chunks(c.base(), more);
            chunks = c;
        }
        c.held()[n / CHUNK - c.base()][n % CHUNK] = element;
        size = n + 1;
    }

    int size() {
        return size;
    }

    /** The first index still held. */
    int first() {
        return chunks.base() * CHUNK;
    }

    /** Drops whole chunks below {@code index} (the elements before it may then be gone). */
    void keepFrom(int index) {
        Chunks c = chunks;
        int chunk = Math.min(index, size) / CHUNK;
        if (chunk > c.base()) {
            chunks = new Chunks(chunk, Arrays.copyOfRange(c.held(), chunk - c.base(), c.held().length));
        }
    }

    /**
     * The elements {@code [from, to)} as they are now (from raised to {@link #first()}, to clamped to the size);
     * later appends do not show, later drops do not take them away.
     */
    @SuppressWarnings("unchecked")
    List<T> view(int from, int to) {
        int end = Math.min(to, size); // the size first: the chunks read after it hold every element below it
        Chunks c = chunks;
        int start = Math.min(Math.max(c.base() * CHUNK, from), end);
        Object[][] held = new Object[end <= start ? 0 : (end - 1) / CHUNK - start / CHUNK + 1][];
        for (int k = 0; k < held.length; k++) {
            held[k] = c.held()[start / CHUNK - c.base() + k];
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
