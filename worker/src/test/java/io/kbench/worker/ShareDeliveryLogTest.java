package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class ShareDeliveryLogTest {
    private static final int NONCE = 77;
    private static final long P0 = SequenceTracker.producerId(NONCE, 0);
    private static final long P1 = SequenceTracker.producerId(NONCE, 1);

    private static ShareDeliveryLog.Stream only(ShareDeliveryLog.Table t) {
        List<ShareDeliveryLog.Stream> s = t.streams();
        assertEquals(1, s.size(), s::toString);
        return s.get(0);
    }

    @Test
    void consecutiveDeliveriesOfAStreamAreOneRangeAndInterleavedStreamsStayApart() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        for (long q = 0; q < 100; q++) {
            log.record(P0, 0, q, false);
            log.record(P1, 0, q + 1000, false); // another producer's records between them in the partition
        }
        log.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        assertEquals(0, log.harvest(t));
        assertEquals(2, t.size);
        assertArrayEquals(new long[] {0, 100}, t.find("g", P0, 0).firstRanges());
        assertArrayEquals(new long[] {1000, 1100}, t.find("g", P1, 0).firstRanges());
        assertArrayEquals(new long[0], t.find("g", P0, 0).againRanges());
    }

    @Test
    void nothingIsHarvestableBeforeThePollEndsAndNothingTwice() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        log.record(P0, 3, 5, false);
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        log.harvest(t);
        assertEquals(0, t.size, "recorded in a poll that has not ended");
        log.publish();
        log.harvest(t);
        assertArrayEquals(new long[] {5, 6}, only(t).firstRanges());
        ShareDeliveryLog.Table again = new ShareDeliveryLog.Table();
        log.harvest(again);
        assertEquals(0, again.size, "harvested once");
    }

    @Test
    void pollsBetweenHarvestsAddUpAndTouchingRangesJoin() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        log.record(P0, 0, 10, false);
        log.record(P0, 0, 11, false);
        log.publish();
        log.record(P0, 0, 0, false); // a batch before, from a later poll
        log.record(P0, 0, 1, false);
        log.publish();
        log.record(P0, 0, 12, false);
        log.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        log.harvest(t);
        assertArrayEquals(new long[] {0, 2, 10, 13}, only(t).firstRanges());
    }

    @Test
    void aRecordFirstDeliveredTwiceKeepsBothRangesAndRedeliveriesJoin() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        for (long q = 0; q < 10; q++) {
            log.record(P0, 0, q, false);
        }
        log.record(P0, 0, 4, false); // delivered again with count 1: a duplicate the coordinator must see
        log.record(P0, 0, 3, true);
        log.record(P0, 0, 2, true);
        log.record(P0, 0, 3, true); // twice again: still one range
        log.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        log.harvest(t);
        ShareDeliveryLog.Stream s = only(t);
        assertArrayEquals(new long[] {0, 10, 4, 5}, s.firstRanges());
        assertArrayEquals(new long[] {2, 4}, s.againRanges());
    }

    @Test
    void otherRunsRecordsAreLeftOut() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        log.record(SequenceTracker.producerId(NONCE + 1, 0), 0, 0, false);
        log.record(-1, 0, 0, false);
        log.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        assertEquals(0, log.harvest(t));
        assertEquals(0, t.size);
    }

    @Test
    void pastTheBoundDeliveriesAreCountedUntrackedAndAHarvestMakesRoomAgain() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        for (int i = 0; i < ShareDeliveryLog.MAX_RANGES + 5; i++) {
            log.record(P0, 0, 2L * i, false); // every other number: a range each
        }
        log.record(P0, 0, 2L * (ShareDeliveryLog.MAX_RANGES - 1) + 1, false); // extends the last range held: kept
        log.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        assertEquals(5, log.harvest(t));
        assertEquals(ShareDeliveryLog.MAX_RANGES, t.ranges());
        log.record(P0, 1, 0, false);
        log.publish();
        ShareDeliveryLog.Table next = new ShareDeliveryLog.Table();
        assertEquals(0, log.harvest(next));
        assertEquals(1, next.ranges());
    }

    @Test
    void aLongRunOfPollsAndHarvestsNeverReachesTheBoundWhileRangesJoin() {
        ShareDeliveryLog log = new ShareDeliveryLog("g", NONCE);
        long q = 0;
        for (int harvest = 0; harvest < 2_000; harvest++) {
            for (int poll = 0; poll < 20; poll++) {
                for (int k = 0; k < 10; k++) {
                    log.record(P0, 0, q, false);
                    log.record(P1, 0, q, false);
                    q++;
                }
                log.publish();
            }
            ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
            assertEquals(0, log.harvest(t), "harvest " + harvest);
            assertEquals(2, t.ranges(), "a poll's ranges join the previous poll's they continue");
        }
    }

    @Test
    void consumersOfTwoGroupsOnOneWorkerStayApart() {
        ShareDeliveryLog a = new ShareDeliveryLog(new String("g1"), NONCE);
        ShareDeliveryLog b = new ShareDeliveryLog("g2", NONCE);
        ShareDeliveryLog c = new ShareDeliveryLog(new String("g1"), NONCE);
        a.record(P0, 0, 0, false);
        b.record(P0, 0, 0, false);
        c.record(P0, 0, 1, false);
        a.publish();
        b.publish();
        c.publish();
        ShareDeliveryLog.Table t = new ShareDeliveryLog.Table();
        a.harvest(t);
        b.harvest(t);
        c.harvest(t);
        assertEquals(2, t.size);
        assertArrayEquals(new long[] {0, 2}, t.find("g1", P0, 0).firstRanges());
        assertArrayEquals(new long[] {0, 1}, t.find("g2", P0, 0).firstRanges());
    }
}
