package io.kbench.coordinator.merge;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A run's merged intervals on disk instead of in the heap ({@link JsonLinesSpool}): each is appended as it is
 * merged, in index order, to a spool file in the run's directory, and {@link #list()} reads them back. A
 * week-long run (604,800 intervals) then costs the coordinator a few MB of heap whatever its length; what the
 * result needs of the intervals — the summary, the catch-up, the trial verdict, result.json, intervals.csv, the
 * page — is read through the list, in order.
 *
 * <p>Intervals can reach {@link #append} slightly out of order (merged on several gRPC threads): the few that
 * come early wait in memory for the one before them.
 *
 * <p>Threads: {@link #append} from the merge path (any thread), {@link #list()} after the run; synchronized.
 */
public final class IntervalSpool implements AutoCloseable {
    /** Intervals read from disk at once. */
    static final int BLOCK = JsonLinesSpool.BLOCK;

    private final JsonLinesSpool<MergedInterval> spool;
    private final TreeMap<Long, MergedInterval> early = new TreeMap<>();
    /** The index the next stored interval must have: a run's intervals are numbered from 0, as the merger emits them. */
    private long next;

    /** A spool at {@code file} (created, or truncated; removed when the JVM exits). */
    public IntervalSpool(Path file) {
        this(file, java.util.function.UnaryOperator.identity());
    }

    /** A spool whose file is written through {@code device} (tests: a disk that fills up). */
    IntervalSpool(Path file, java.util.function.UnaryOperator<java.io.OutputStream> device) {
        spool = new JsonLinesSpool<>(file, MergedInterval.class, device);
    }

    /** Adds one merged interval; intervals are kept in index order whatever order they come in. */
    public synchronized void append(MergedInterval i) {
        if (i.index() != next) {
            early.put(i.index(), i);
            return;
        }
        spool.append(i);
        next++;
        while (!early.isEmpty() && early.firstKey() == next) {
            spool.append(early.pollFirstEntry().getValue());
            next++;
        }
    }

    /** Why the spool fell back to memory, or null. */
    public synchronized String problem() {
        return spool.problem() == null ? null : "the run's intervals: " + spool.problem();
    }

    /**
     * Every interval so far, in index order. An interval still missing before an early one (a run that ended
     * with a gap) is skipped: the early ones follow in order.
     */
    public synchronized List<MergedInterval> list() {
        List<MergedInterval> stored = spool.list();
        if (early.isEmpty()) {
            return stored;
        }
        List<MergedInterval> waiting = new ArrayList<>(early.values());
        return new java.util.AbstractList<>() {
            @Override
            public MergedInterval get(int index) {
                return index < stored.size() ? stored.get(index) : waiting.get(index - stored.size());
            }

            @Override
            public int size() {
                return stored.size() + waiting.size();
            }
        };
    }

    @Override
    public synchronized void close() {
        spool.close();
    }
}
