package io.kbench.worker;

import java.util.Locale;

import io.kbench.protocol.HostSample;

/**
 * Stops a run whose worker JVM is about to run out of memory, while it still can: a JVM whose collections leave its
 * heap full spends its time collecting, its clients' threads die of {@code OutOfMemoryError} one by one and the run
 * is lost, the process often deaf to SIGTERM (100 unthrottled producers on a 1-GB heap, 2026-12-01: alive 6 minutes
 * after it). The heap check before a run ({@link HeapBudget}) counts what it can; this catches what it cannot (a
 * consumer's fetched records, a setting it does not know).
 *
 * <p>The sign: in {@value #IN_A_ROW} intervals in a row that had a collection, the heap after the latest one was at
 * least {@value #FULL} of the most the JVM may use. G1 starts its concurrent cycle long before that (at 45% by
 * default), so a heap still that full after collecting is live data, not garbage waiting. An interval without a
 * collection neither counts nor resets. One thread (the snapshot thread).
 */
final class HeapGuard {
    /** Share of the maximum heap still in use after a collection that counts as full. */
    static final double FULL = 0.95;
    /** Intervals in a row (each with a collection) that must find it full. */
    static final int IN_A_ROW = 2;

    private int full;

    /** The reason to stop the run after {@code s}, or null to go on. */
    String check(HostSample s) {
        if (s.heapMaxBytes() <= 0 || s.heapAfterGcBytes() < 0 || s.gcCount() <= 0) {
            return null;
        }
        if (s.heapAfterGcBytes() < FULL * s.heapMaxBytes()) {
            full = 0;
            return null;
        }
        if (++full < IN_A_ROW) {
            return null;
        }
        return String.format(Locale.ROOT, "the worker's heap was still %.0f%% full after its collections in %d "
                        + "intervals in a row (%s of the %s its JVM may use): the run was stopped before the JVM ran out of "
                        + "memory and lost it; give the worker more heap (KBENCH_JAVA_OPTS=-Xmx...), spread the clients "
                        + "over more workers (--workers), or make their buffers smaller (the producers' buffer.memory, the "
                        + "consumers' fetch.max.bytes and max.partition.fetch.bytes)",
                100.0 * s.heapAfterGcBytes() / s.heapMaxBytes(), IN_A_ROW, mb(s.heapAfterGcBytes()), mb(s.heapMaxBytes()));
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%,.0f MB", bytes / (double) (1L << 20));
    }
}
