package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.kbench.driver.NanoClock;
import io.kbench.driver.RecordListener;
import io.kbench.driver.ShareRecordListener.Acknowledge;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import io.kbench.protocol.MicrosClock;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What a share consumer does with each delivery and records of it, on a manual clock. */
class ShareConsumerMetricsTest {
    private long now = 1_000_000_000_000L;
    private final NanoClock nanos = new NanoClock() {
        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void park(long n) {
            now += n; // the processing time passes at once
        }
    };
    private final RunClock clock = new RunClock(new MicrosClock(0), 0, nanos);

    private static Histogram h(IntervalSnapshot s, Metric m) {
        return LatencyHistograms.decode(s.histogram(m));
    }

    private IntervalSnapshot harvest(ShareConsumerMetrics m) {
        return new Snapshotter("w", List.of(), List.of(), List.of(), List.of(m)).harvest(0, 0, 1_000_000, false, 0,
                false, "");
    }

    /**
     * A warm-up poll's records are counted one by one after each one's processing: those counted once the window began
     * do not carry the warm-up's latencies into it.
     */
    @Test
    void shouldNotTimeAWarmupPollsRecordsCountedAfterTheWarmup() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 2_000, 0, 0, 1); // 2 ms a record
        long measure = clock.coordinatorMicrosNow() + 3_000;
        m.measureFrom(measure);
        m.onPollReturned(); // 3 ms before the window: 3 records of the warm-up; the third is counted 4 ms later
        for (int i = 0; i < 3; i++) {
            assertEquals(Acknowledge.ACCEPT, m.onRecord(100, measure - 5_000, 0, RecordListener.NO_PRODUCER, 0, 1));
        }
        IntervalSnapshot s = harvest(m);
        assertEquals(3, s.counters().shareDelivered());
        assertEquals(2, h(s, Metric.SHARE_DELIVERY).getTotalCount(), "the first two were counted in the warm-up");
        // the second's processing ended 1 ms into the window: its acceptance is not timed (it was, and the shipped
        // share-vs-classic workload then held 30,001 accept samples for 30,000 deliveries in its window)
        assertEquals(1, h(s, Metric.SHARE_ACCEPT).getTotalCount(), "the first only was accepted in the warm-up");
    }

    @Test
    void implicitAcceptsEveryRecordAfterItsProcessingTime() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 2_000, 0, 0, 1);
        long stamp = clock.coordinatorMicrosNow() - 5_000; // sent 5 ms before the poll returned
        m.onPollReturned();
        for (int i = 0; i < 100; i++) {
            assertEquals(Acknowledge.ACCEPT, m.onRecord(100, stamp, 0, RecordListener.NO_PRODUCER, 0, 1));
        }
        IntervalSnapshot s = harvest(m);
        assertEquals(100, s.counters().shareDelivered());
        assertEquals(10_000, s.counters().shareDeliveredBytes());
        assertEquals(100, s.counters().shareAccepted());
        assertEquals(0, s.counters().shareRedelivered() + s.counters().shareReleased() + s.counters().shareRejected());
        Histogram delivery = h(s, Metric.SHARE_DELIVERY);
        assertEquals(100, delivery.getTotalCount());
        assertEquals(5_000, delivery.getMaxValue(), 5, "every record delivered by the one poll, 5 ms after its send");
        Histogram accept = h(s, Metric.SHARE_ACCEPT);
        // processed one after the other: the k-th is accepted 2 ms x k after the poll
        assertEquals(7_000, accept.getMinValue(), 7);
        assertEquals(205_000, accept.getMaxValue(), 205);
        assertEquals(0, h(s, Metric.END_TO_END).getTotalCount(), "share deliveries are not a classic consumer's receipts");
        assertEquals(0, s.counters().received());
    }

    @Test
    void withoutProcessingARecordIsAcceptedAtThePollsOneClockReading() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        long stamp = clock.coordinatorMicrosNow() - 5_000;
        m.onPollReturned();
        now += 3_000_000; // time passes inside the poll's loop: not read per record
        m.onRecord(100, stamp, 0, RecordListener.NO_PRODUCER, 0, 1);
        IntervalSnapshot s = harvest(m);
        assertEquals(5_000, h(s, Metric.SHARE_ACCEPT).getMaxValue(), 5);
        assertEquals(h(s, Metric.SHARE_DELIVERY).getMaxValue(), h(s, Metric.SHARE_ACCEPT).getMaxValue());
    }

    @Test
    void explicitReleasesAndRejectsFirstDeliveriesOnlyAndAlwaysAcceptsARedelivery() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 300_000, 100_000, 42);
        long stamp = clock.coordinatorMicrosNow();
        m.onPollReturned();
        int released = 0;
        int rejected = 0;
        for (int i = 0; i < 10_000; i++) {
            Acknowledge a = m.onRecord(10, stamp, 0, RecordListener.NO_PRODUCER, 0, 1);
            released += a == Acknowledge.RELEASE ? 1 : 0;
            rejected += a == Acknowledge.REJECT ? 1 : 0;
        }
        // 30% and 10% of 10,000 draws: within 5 standard deviations
        assertTrue(Math.abs(released - 3_000) < 230, "released " + released);
        assertTrue(Math.abs(rejected - 1_000) < 150, "rejected " + rejected);
        for (int i = 0; i < released; i++) {
            assertEquals(Acknowledge.ACCEPT, m.onRecord(10, stamp, 0, RecordListener.NO_PRODUCER, 0, 2));
        }
        IntervalSnapshot s = harvest(m);
        assertEquals(10_000 + released, s.counters().shareDelivered());
        assertEquals(released, s.counters().shareRedelivered());
        assertEquals(released, s.counters().shareReleased());
        assertEquals(rejected, s.counters().shareRejected());
        assertEquals(10_000, s.counters().shareAccepted() + s.counters().shareRejected(), "every record settled once");
        assertEquals(10_000, h(s, Metric.SHARE_DELIVERY).getTotalCount(), "only first deliveries are timed");
        assertEquals(s.counters().shareAccepted(), h(s, Metric.SHARE_ACCEPT).getTotalCount());
        // the same seed draws the same: a run can be repeated
        ShareConsumerMetrics again = new ShareConsumerMetrics(clock, 0, 300_000, 100_000, 42);
        int releasedAgain = 0;
        for (int i = 0; i < 10_000; i++) {
            releasedAgain += again.onRecord(10, stamp, 0, RecordListener.NO_PRODUCER, 0, 1) == Acknowledge.RELEASE ? 1 : 0;
        }
        assertEquals(released, releasedAgain);
    }

    @Test
    void aRecordOfTheWarmupIsCountedButNotTimed() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        long measure = clock.coordinatorMicrosNow() + 1_000;
        m.measureFrom(measure);
        now += 2_000_000; // the poll returns 2 ms later, after the warm-up
        m.onPollReturned();
        m.onRecord(10, measure - 500, 0, RecordListener.NO_PRODUCER, 0, 1); // intended in the warm-up
        m.onRecord(10, measure + 100, 0, RecordListener.NO_PRODUCER, 0, 1); // intended in the window
        m.onRecord(10, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0, 1); // plain record
        IntervalSnapshot s = harvest(m);
        assertEquals(3, s.counters().shareDelivered());
        assertEquals(3, s.counters().shareAccepted());
        assertEquals(1, h(s, Metric.SHARE_DELIVERY).getTotalCount());
        assertEquals(1, h(s, Metric.SHARE_ACCEPT).getTotalCount());
    }

    @Test
    void aCommitOfItsOwnIsTimedFromTheWarmupsEndOnAndSentWithTheSnapshot() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        m.measureFrom(clock.coordinatorMicrosNow() + 1_000);
        m.onPollReturned();
        m.onCommitted(3_000_000, false); // in the warm-up: not timed
        now += 2_000_000;
        m.onPollReturned();
        m.onCommitted(7_500_000, false);
        m.onCommitted(9_000_000, true); // refused for some partition: its round trip is timed all the same
        IntervalSnapshot s = harvest(m);
        Histogram c = h(s, Metric.SHARE_COMMIT);
        assertEquals(2, c.getTotalCount());
        assertEquals(7_500, c.getMinValue(), 10);
        assertEquals(9_000, c.getMaxValue(), 10);
        assertEquals(0, h(harvest(m), Metric.SHARE_COMMIT).getTotalCount(), "each commit in one interval");
    }

    /** {@code m} on 1-ms intervals from {@code start}, its snapshotter, and a poll returned 0.1 ms into the first. */
    private Snapshotter polledInFirstOfOneMsIntervals(ShareConsumerMetrics m, long start) {
        m.intervals(start, 1_000_000);
        Snapshotter s = new Snapshotter("w", List.of(), List.of(), List.of(), List.of(m));
        now = start + 100_000;
        m.onPollReturned();
        return s;
    }

    /** A commit that returned after the boundary is the next interval's, even when the harvest comes after it. */
    @Test
    void shouldCountACommitInTheIntervalItReturnedIn() {
        long start = now;
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        Snapshotter s = polledInFirstOfOneMsIntervals(m, start);
        m.onCommitted(300_000, false);
        now = start + 1_200_000; // returned after the boundary, before interval 0's harvest
        m.onCommitted(900_000, false);
        IntervalSnapshot first = s.harvest(0, 0, 1_000, false, 0, false, "");
        assertEquals(1, h(first, Metric.SHARE_COMMIT).getTotalCount(), "only the commit that returned in interval 0");
        assertEquals(300, h(first, Metric.SHARE_COMMIT).getMaxValue(), 5);
        IntervalSnapshot second = s.harvest(1, 1_000, 2_000, false, 0, false, "");
        assertEquals(1, h(second, Metric.SHARE_COMMIT).getTotalCount());
        assertEquals(900, h(second, Metric.SHARE_COMMIT).getMaxValue(), 5);
    }

    @Test
    void harvestsDeltasNotRunningTotals() {
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 0, 0, 1);
        Snapshotter snapshotter = new Snapshotter("w", List.of(), List.of(), List.of(), List.of(m));
        m.onPollReturned();
        m.onRecord(10, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0, 1);
        assertEquals(1, snapshotter.harvest(0, 0, 1, false, 0, false, "").counters().shareDelivered());
        m.onRecord(10, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0, 1);
        m.onRecord(10, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0, 3);
        IntervalSnapshot second = snapshotter.harvest(1, 1, 2, false, 0, false, "");
        assertEquals(2, second.counters().shareDelivered());
        assertEquals(1, second.counters().shareRedelivered());
    }

    /**
     * An interval's deliveries, acknowledgements and their latencies are those its consumer counted in it, not those
     * counted by the time the snapshot thread harvested it: a poll that returns just after the boundary, before a late
     * harvest, is the next interval's. A consumer that spends time on each record counts each delivery when its turn
     * comes and each acknowledgement after its processing, so one poll's records fall on both sides of a boundary.
     */
    @Test
    void shouldEndAnIntervalsShareCountsAtItsBoundary() {
        long start = now;
        ShareConsumerMetrics m = new ShareConsumerMetrics(clock, 0, 500_000, 0, 7);
        Snapshotter s = polledInFirstOfOneMsIntervals(m, start);
        int released = 0;
        for (int i = 0; i < 4; i++) {
            released += m.onRecord(100, clock.coordinatorMicrosNow() - 50, 0, RecordListener.NO_PRODUCER, 0, 1)
                    == Acknowledge.RELEASE ? 1 : 0;
        }
        now = start + 1_000_500; // after the boundary, before the harvest of interval 0
        m.onPollReturned();
        m.onRecord(300, clock.coordinatorMicrosNow() - 50, 0, RecordListener.NO_PRODUCER, 0, 1);
        m.onRecord(300, clock.coordinatorMicrosNow() - 50, 0, RecordListener.NO_PRODUCER, 0, 2); // a redelivery
        IntervalSnapshot first = s.harvest(0, 0, 1_000, false, 0, false, "");
        assertEquals(4, first.counters().shareDelivered());
        assertEquals(400, first.counters().shareDeliveredBytes());
        assertEquals(0, first.counters().shareRedelivered());
        assertEquals(released, first.counters().shareReleased());
        assertEquals(4 - released, first.counters().shareAccepted());
        assertEquals(4, h(first, Metric.SHARE_DELIVERY).getTotalCount());
        assertEquals(4 - released, h(first, Metric.SHARE_ACCEPT).getTotalCount());
        IntervalSnapshot second = s.harvest(1, 1_000, 2_000, false, 0, false, "");
        assertEquals(2, second.counters().shareDelivered());
        assertEquals(600, second.counters().shareDeliveredBytes());
        assertEquals(1, second.counters().shareRedelivered());
        assertEquals(1, h(second, Metric.SHARE_DELIVERY).getTotalCount(), "a redelivery is not timed");
        assertEquals(second.counters().shareAccepted(), h(second, Metric.SHARE_ACCEPT).getTotalCount());

        // 400 µs a record: a poll at 0 counts its 5 records at 0, 0.4, 0.8, 1.2 and 1.6 ms and accepts them 0.4 ms later;
        // interval 0 harvested at 1.6 ms (a harvest up to an interval late: parity recorders hold two intervals)
        now = start;
        ShareConsumerMetrics slow = new ShareConsumerMetrics(clock, 400, 0, 0, 1);
        slow.intervals(start, 1_000_000);
        Snapshotter t = new Snapshotter("w", List.of(), List.of(), List.of(), List.of(slow));
        slow.onPollReturned();
        for (int i = 0; i < 4; i++) {
            slow.onRecord(100, clock.coordinatorMicrosNow(), 0, RecordListener.NO_PRODUCER, 0, 1);
        }
        IntervalSnapshot a = t.harvest(0, 0, 1_000, false, 0, false, "");
        assertEquals(3, a.counters().shareDelivered());
        assertEquals(2, a.counters().shareAccepted(), "accepted at 0.4 and 0.8 ms");
        assertEquals(3, h(a, Metric.SHARE_DELIVERY).getTotalCount());
        assertEquals(2, h(a, Metric.SHARE_ACCEPT).getTotalCount());
        slow.onRecord(100, clock.coordinatorMicrosNow(), 0, RecordListener.NO_PRODUCER, 0, 1);
        IntervalSnapshot b = t.harvest(1, 1_000, 2_000, false, 0, false, "");
        assertEquals(2, b.counters().shareDelivered());
        assertEquals(2, b.counters().shareAccepted(), "accepted at 1.2 and 1.6 ms");
        IntervalSnapshot c = t.harvest(2, 2_000, 3_000, false, 0, true, "");
        assertEquals(0, c.counters().shareDelivered());
        assertEquals(1, c.counters().shareAccepted(), "accepted at 2.0 ms, the next interval's start");
        assertEquals(1, h(c, Metric.SHARE_ACCEPT).getTotalCount());
    }

    @Test
    void refusesImpossibleSettings() {
        assertThrows(IllegalArgumentException.class, () -> new ShareConsumerMetrics(clock, -1, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ShareConsumerMetrics(clock, 0, 600_000, 500_000, 1));
        assertThrows(IllegalArgumentException.class, () -> new ShareConsumerMetrics(clock, 0, -1, 0, 1));
    }
}
