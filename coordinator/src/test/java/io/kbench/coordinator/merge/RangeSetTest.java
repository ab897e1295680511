package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class RangeSetTest {
    @Test
    void addsInOrderIntoOneRange() {
        RangeSet s = new RangeSet();
        assertEquals(0, s.add(0, 10));
        assertEquals(0, s.add(10, 20));
        assertEquals(1, s.ranges());
        assertEquals(20, s.size());
        assertArrayEquals(new long[] {0, 20}, s.toArray());
    }

    @Test
    void fillsGapsFromEitherSideAndCountsOverlap() {
        RangeSet s = new RangeSet();
        s.add(0, 10);
        s.add(20, 30);
        s.add(40, 50);
        assertEquals(3, s.ranges());
        assertEquals(0, s.add(10, 20), "a gap filled exactly joins its neighbours");
        assertArrayEquals(new long[] {0, 30, 40, 50}, s.toArray());
        assertEquals(5 + 5, s.add(25, 45), "5 of 30's range and 5 of 40's");
        assertArrayEquals(new long[] {0, 50}, s.toArray());
        assertEquals(50, s.size());
        assertEquals(50, s.add(0, 50), "all of it again");
        assertEquals(0, s.add(60, 61));
        assertEquals(0, s.add(55, 56), "before the last range");
        assertArrayEquals(new long[] {0, 50, 55, 56, 60, 61}, s.toArray());
        assertEquals(52, s.size());
    }

    @Test
    void closesTheLowestGapAsIfFilled() {
        RangeSet s = new RangeSet();
        s.add(0, 10);
        s.add(15, 20);
        s.add(30, 31);
        assertEquals(5, s.closeLowestGap());
        assertArrayEquals(new long[] {0, 20, 30, 31}, s.toArray());
        assertEquals(21, s.size());
        assertEquals(20, s.add(0, 20), "the closed gap counts as present");
        assertEquals(10, s.closeLowestGap());
        assertEquals(0, s.closeLowestGap(), "one range: nothing to close");
    }

    @Test
    void agreesWithABitSetOnRandomAdds() {
        SplittableRandom r = new SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            RangeSet s = new RangeSet();
            BitSet b = new BitSet();
            for (int i = 0; i < 60; i++) {
                int start = r.nextInt(400);
                int end = start + r.nextInt(1, 30);
                BitSet add = new BitSet();
                add.set(start, end);
                add.and(b);
                assertEquals(add.cardinality(), s.add(start, end));
                b.set(start, end);
                assertEquals(b.cardinality(), s.size());
            }
            long[] a = s.toArray();
            for (int k = 0; k < a.length; k += 2) {
                assertEquals(a[k + 1], b.nextClearBit((int) a[k]), "a range ends where the set does");
                if (k + 2 < a.length) {
                    assertEquals(a[k + 2], b.nextSetBit((int) a[k + 1]), "ranges neither touch nor overlap");
                }
            }
        }
    }
}
