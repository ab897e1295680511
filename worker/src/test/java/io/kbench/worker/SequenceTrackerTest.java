package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
    private static final int NONCE = 42;
    private static final long P0 = SequenceTracker.producerId(NONCE, 0);
    private static final long P1 = SequenceTracker.producerId(NONCE, 1);

    private final SequenceTracker t = new SequenceTracker(NONCE, 1_000);

    private void range(long producer, int partition, long from, long to) {
        for (long s = from; s < to; s++) {
            t.record(producer, partition, s);
        }
    }

    private void assertCounts(long lost, long duplicated, long outOfOrder, long verified) {
        assertEquals(lost, t.lost.get(), "lost");
        assertEquals(duplicated, t.duplicated.get(), "duplicated");
        assertEquals(outOfOrder, t.outOfOrder.get(), "out of order");
        assertEquals(verified, t.verified.get(), "verified");
    }

    @Test
    void shouldFindNothingWrongInInterleavedInOrderStreams() {
        for (long s = 0; s < 10_000; s++) {
            t.record(P0, (int) (s % 3), s / 3);
            t.record(P1, 0, s);
        }
        t.finish();
        assertCounts(0, 0, 0, 20_000);
        assertEquals(4, t.streams());
    }

    @Test
    void shouldCountAGapLostOnceItLeavesTheWindowAndNotBefore() {
        range(P0, 0, 0, 10);
        range(P0, 0, 11, 11 + SequenceTracker.WINDOW - 1);
        assertCounts(0, 0, 0, 10 + SequenceTracker.WINDOW - 1);
        t.record(P0, 0, 11 + SequenceTracker.WINDOW - 1); // 10 leaves the window now
        assertEquals(1, t.lost.get());
        t.finish();
        assertEquals(1, t.lost.get(), "counted once");
    }

    @Test
    void shouldCountAGapFilledLaterAsOutOfOrderNotLost() {
        range(P0, 0, 0, 10);
        range(P0, 0, 11, 20);
        t.record(P0, 0, 10);
        range(P0, 0, 20, 1_000);
        t.finish();
        assertCounts(0, 0, 1, 1_000);
    }

    @Test
    void shouldCountRepeatsAsDuplicates() {
        range(P0, 0, 0, 100);
        range(P0, 0, 90, 100); // a retried batch delivered twice
        t.record(P0, 0, 0);    // beyond the window? no: 100 < 256, still remembered
        range(P0, 0, 100, 120);
        t.finish();
        assertCounts(0, 11, 0, 120);
    }

    @Test
    void shouldCountTheMissingTailOfTheWindowAtFinish() {
        range(P0, 0, 0, 10);
        range(P0, 0, 15, 20);
        t.finish();
        assertCounts(5, 0, 0, 15);
    }

    @Test
    void shouldCountAMissingHeadOfThisRunsStreamButNotOfAnotherRuns() {
        long foreign = SequenceTracker.producerId(NONCE + 1, 0);
        range(P0, 0, 5, 10);
        range(foreign, 0, 1_000, 1_010);
        t.finish();
        assertEquals(5, t.lost.get(), "this run's producers start at 0");
        assertEquals(15, t.verified.get());
    }

    @Test
    void shouldCountAJumpLargerThanTheWindowExactly() {
        t.record(P0, 0, 0);
        t.record(P0, 0, 1_000);
        t.finish();
        assertCounts(999, 0, 0, 2);
    }

    @Test
    void shouldKeepStreamsApartByPartition() {
        range(P0, 0, 0, 50);
        range(P0, 1, 0, 50);
        range(P0, 1, 0, 1);
        t.finish();
        assertCounts(0, 1, 0, 100);
    }

    @Test
    void shouldKeepMemoryBoundedWithMillionsOfRecordsFromManyProducers() {
        // 3 million records from 50,000 producers x 2 partitions, 30 each, interleaved
        SequenceTracker big = new SequenceTracker(NONCE, 65_536 * 2);
        for (int round = 0; round < 30; round++) {
            for (int p = 0; p < 50_000; p++) {
                big.record(SequenceTracker.producerId(NONCE, p), 0, round);
                big.record(SequenceTracker.producerId(NONCE, p), 1, round);
            }
        }
        big.finish();
        assertEquals(3_000_000, big.verified.get());
        assertEquals(0, big.lost.get() + big.duplicated.get() + big.outOfOrder.get());
        assertEquals(100_000, big.streams());
        assertTrue(big.memoryBytes() < 100_000L * SequenceTracker.STREAM_BYTES * 2,
                "about STREAM_BYTES per stream, was " + big.memoryBytes());

        // a million producers: the tracker stops at its bound and counts the rest as untracked
        SequenceTracker bounded = new SequenceTracker(NONCE, 65_536);
        for (int p = 0; p < 1_000_000; p++) {
            bounded.record(SequenceTracker.producerId(NONCE, p), 0, 0);
            bounded.record(SequenceTracker.producerId(NONCE, p), 0, 1);
        }
        assertEquals(65_536, bounded.streams());
        assertEquals(2L * 65_536, bounded.verified.get());
        assertEquals(2L * (1_000_000 - 65_536), bounded.untracked.get());
        assertTrue(bounded.memoryBytes() <= 65_536L * SequenceTracker.STREAM_BYTES * 2,
                "bounded, was " + bounded.memoryBytes());
    }

    /**
     * The worker's live counts (Progress) carry the duplicates among the received, so that the coordinator's drain
     * counts each message once: 3 records received, one of them twice.
     */
    @Test
    void shouldGiveTheDuplicatesAmongTheReceivedInTheWorkersLiveCounts() {
        ConsumerMetrics m = new ConsumerMetrics(new RunClock(io.kbench.protocol.MicrosClock.SYSTEM, 0,
                io.kbench.driver.NanoClock.SYSTEM), t);
        for (long s : new long[] {0, 1, 1, 2}) {
            m.onRecord(100, io.kbench.driver.RecordListener.NO_STAMP, 0, P0, s);
        }
        io.kbench.protocol.Counters live = new Snapshotter("w", java.util.List.of(), java.util.List.of(m),
                java.util.List.of()).live();
        assertEquals(4, live.received());
        assertEquals(1, live.duplicated());
        assertEquals(0, new Snapshotter("w", java.util.List.of(), java.util.List.of(new ConsumerMetrics(new RunClock(
                io.kbench.protocol.MicrosClock.SYSTEM, 0, io.kbench.driver.NanoClock.SYSTEM), null)), java.util.List.of())
                .live().duplicated(), "without verification: none found");
    }
}
