package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kbench.protocol.HostSample;
import org.junit.jupiter.api.Test;

/** A run is stopped once collections leave the heap full twice in a row; one full collection, or none, does not. */
class HeapGuardTest {
    private static final long MB = 1L << 20;

    private static HostSample sample(long gcCount, long afterGcMb) {
        return new HostSample(2, 1_000_000, 500_000, 100_000, gcCount, afterGcMb * MB, 1000 * MB, "", 0);
    }

    @Test
    void shouldStopOnlyAfterTwoIntervalsWhoseCollectionsLeftTheHeapFull() {
        HeapGuard g = new HeapGuard();
        assertNull(g.check(sample(3, 960)), "one full interval: G1 may still recover");
        assertNull(g.check(sample(0, 960)), "no collection: the same figure again, not a second sign");
        assertNull(g.check(sample(2, 500)), "a collection that freed it resets the count");
        assertNull(g.check(sample(2, 970)));
        String why = g.check(sample(5, 990));
        assertNotNull(why);
        assertTrue(why.startsWith("the worker's heap was still 99% full after its collections in 2 intervals in a row "
                + "(990 MB of the 1,000 MB its JVM may use): the run was stopped before the JVM ran out of memory"), why);
        assertTrue(why.contains("buffer.memory") && !why.contains("\n"), why);
    }

    @Test
    void shouldIgnoreASampleWithoutHeapFigures() {
        HeapGuard g = new HeapGuard();
        for (int i = 0; i < 5; i++) {
            assertNull(g.check(HostSample.NONE));
            assertNull(g.check(new HostSample(2, 1_000_000, 0, 0, 1, -1, 1000 * MB, "", 0)));
        }
        assertNull(g.check(sample(1, 949)));
        assertNull(g.check(sample(1, 949)), "94.9% is not full");
    }
}
