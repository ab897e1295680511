package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import io.kbench.protocol.ShareDeliveries;
import org.junit.jupiter.api.Test;

class ShareVerifierTest {
    private static final long P = 5L << 32;

    private static ShareDeliveries first(String group, int partition, long... ranges) {
        return new ShareDeliveries(List.of(new ShareDeliveries.Stream(group, P, partition, ranges, new long[0])), 0);
    }

    private static ShareDeliveries again(String group, int partition, long... ranges) {
        return new ShareDeliveries(List.of(new ShareDeliveries.Stream(group, P, partition, new long[0], ranges)), 0);
    }

    @Test
    void everyRecordOnceOverTwoWorkersIsNeitherLostNorDuplicated() {
        ShareVerifier v = new ShareVerifier();
        v.add(first("g", 0, 0, 300, 600, 900));   // worker 1
        v.add(first("g", 0, 300, 600, 900, 1000)); // worker 2
        v.add(first("g", 1, 0, 1000));
        assertTrue(v.active());
        assertEquals(new ShareVerifier.Result(0, 0, 0), v.result(2000));
        assertEquals(2000, v.distinct());
    }

    @Test
    void aRedeliveryIsNotADuplicateInWhateverOrderTheWorkersReportIt() {
        ShareVerifier v = new ShareVerifier();
        v.add(again("g", 0, 40, 50)); // the redeliveries on one worker reported before the first deliveries
        v.add(first("g", 0, 0, 100));
        v.add(again("g", 0, 45, 46));
        assertEquals(new ShareVerifier.Result(0, 0, 0), v.result(100));
    }

    @Test
    void aRecordFirstDeliveredTwiceIsADuplicate() {
        ShareVerifier v = new ShareVerifier();
        v.add(first("g", 0, 0, 100));
        v.add(first("g", 0, 90, 110));
        assertEquals(10, v.duplicated());
        assertEquals(0, v.lost(110));
    }

    @Test
    void theSameRecordInTwoGroupsIsNoDuplicate() {
        ShareVerifier v = new ShareVerifier();
        v.add(first("a", 0, 0, 100));
        v.add(first("b", 0, 0, 100));
        assertEquals(new ShareVerifier.Result(0, 0, 0), v.result(200));
    }

    @Test
    void neverDeliveredIsLostAtTheEndGapsAndTailAlike() {
        ShareVerifier v = new ShareVerifier();
        v.add(first("g", 0, 0, 40, 50, 90)); // 40..50 never delivered, and 90..100 the tail
        assertEquals(20, v.lost(100));
        assertEquals(0, v.lost(0), "a run that could not drain judges no tail");
    }

    @Test
    void aDeliveryAgainWithoutItsFirstStillCountsAsDelivered() {
        // a consumer got the batch and died before handing it over; its locks ran out; another got it as count 2
        ShareVerifier v = new ShareVerifier();
        v.add(first("g", 0, 0, 10, 20, 30));
        v.add(again("g", 0, 10, 20));
        assertEquals(new ShareVerifier.Result(0, 0, 0), v.result(30));
    }

    @Test
    void untrackedDeliveriesAreNotCountedLost() {
        ShareVerifier v = new ShareVerifier();
        v.add(new ShareDeliveries(List.of(new ShareDeliveries.Stream("g", P, 0, new long[] {0, 90}, new long[0])), 10));
        assertEquals(new ShareVerifier.Result(0, 0, 10), v.result(100));
    }

    @Test
    void anEmptyReportMakesTheCheckActiveAndNoneLeavesItOff() {
        ShareVerifier v = new ShareVerifier();
        v.add(ShareDeliveries.NONE);
        assertFalse(v.active());
        v.add(new ShareDeliveries(List.of(), 0));
        assertTrue(v.active());
        assertEquals(50, v.lost(50), "nothing delivered at all: all lost");
    }

    @Test
    void shuffledBatchesWithReleasesAgreeWithTheTruth() {
        SplittableRandom r = new SplittableRandom(11);
        List<ShareDeliveries> reports = new ArrayList<>();
        long n = 0;
        for (int p = 0; p < 4; p++) {
            for (long q = 0; q < 5000; ) {
                long len = 1 + r.nextInt(300);
                reports.add(first("g", p, q, q + len));
                if (r.nextInt(10) == 0) {
                    reports.add(again("g", p, q, q + 1)); // a released record, delivered again
                }
                q += len;
            }
            n += 5000;
        }
        reports.add(first("g", 2, 100, 101)); // one duplicate
        Collections.shuffle(reports, new java.util.Random(3));
        ShareVerifier v = new ShareVerifier();
        reports.forEach(v::add);
        assertEquals(new ShareVerifier.Result(0, 1, 0), v.result(n));
        assertTrue(v.ranges() <= 8, "every set one range once all arrived: " + v.ranges());
    }

    @Test
    void memoryStaysBoundedWhenRecordsGoMissingAllTheTime() {
        ShareVerifier v = new ShareVerifier();
        long delivered = 0;
        for (long q = 0; q < 20_000; q += 2) { // every other record never delivered
            v.add(first("g", 0, q, q + 1));
            delivered++;
        }
        assertTrue(v.ranges() <= 2L * (ShareVerifier.MAX_GAPS + 1), "ranges " + v.ranges());
        // the gaps closed to bound memory are counted lost; the rest are found lost at the end
        assertEquals(20_000 - delivered, v.lost(20_000));
    }

    @Test
    void streamsPastTheBoundAreUntracked() {
        ShareVerifier v = new ShareVerifier();
        for (int p = 0; p < ShareVerifier.MAX_STREAMS + 3; p++) {
            v.add(first("g", p, 0, 2));
        }
        assertEquals(ShareVerifier.MAX_STREAMS, v.streams());
        assertEquals(6, v.untracked());
    }
}
