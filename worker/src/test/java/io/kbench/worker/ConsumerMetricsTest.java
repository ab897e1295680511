package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kbench.driver.RecordListener;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.junit.jupiter.api.Test;

class ConsumerMetricsTest {
    private static final RunClock CLOCK = new RunClock(io.kbench.protocol.MicrosClock.SYSTEM, 0,
            io.kbench.driver.NanoClock.SYSTEM);

    private static long endToEndCount(IntervalSnapshot s) {
        return LatencyHistograms.decode(s.histogram(Metric.END_TO_END)).getTotalCount();
    }

    /**
     * An interval's received count is what its end-to-end histogram holds (every stamped message records one
     * latency), read while the consumer keeps receiving: a message received between the harvest's reads lands in one
     * interval for both, and the intervals add up to every message.
     */
    @Test
    void shouldCountAnIntervalsReceivedMessagesAsItsEndToEndHistogramHoldsThemWhileTheConsumerReceives()
            throws Exception {
        ConsumerMetrics m = new ConsumerMetrics(CLOCK, null);
        Snapshotter s = new Snapshotter("w", List.of(), List.of(m), List.of());
        AtomicBoolean stop = new AtomicBoolean();
        long[] written = new long[1];
        Thread consumer = new Thread(() -> {
            long n = 0;
            while (!stop.get()) {
                m.onPollReturned();
                for (int i = 0; i < 16; i++) {
                    m.onRecord(100, CLOCK.coordinatorMicrosNow() - 1_000, 0, 1, n++);
                }
            }
            written[0] = n;
        });
        consumer.start();
        long received = 0;
        int mismatched = 0;
        try {
            for (int i = 0; i < 300; i++) {
                IntervalSnapshot snap = s.harvest(i, i, i + 1, false, 0, false, "");
                received += snap.counters().received();
                if (snap.counters().received() != endToEndCount(snap)) {
                    mismatched++;
                }
            }
        } finally {
            stop.set(true);
            consumer.join();
        }
        IntervalSnapshot last = s.harvest(300, 300, 301, true, 0, true, "");
        received += last.counters().received();
        assertEquals(0, mismatched, "intervals whose received count is not their end-to-end histogram's count");
        assertEquals(endToEndCount(last), last.counters().received());
        assertEquals(written[0], received, "every message in exactly one interval");
    }

    /** Messages received without a latency (unstamped: a topic kbench did not write) count all the same. */
    @Test
    void shouldCountMessagesWithoutAStampAsReceivedWithoutALatency() {
        ConsumerMetrics m = new ConsumerMetrics(CLOCK, null);
        Snapshotter s = new Snapshotter("w", List.of(), List.of(m), List.of());
        m.onPollReturned();
        m.onRecord(100, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0);
        m.onRecord(100, CLOCK.coordinatorMicrosNow(), 0, 1, 0);
        IntervalSnapshot snap = s.harvest(0, 0, 1, false, 0, false, "");
        assertEquals(2, snap.counters().received());
        assertEquals(200, snap.counters().receivedBytes());
        assertEquals(1, endToEndCount(snap));
        m.onRecord(100, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0);
        assertEquals(1, s.harvest(1, 1, 2, false, 0, true, "").counters().received());
    }

    /**
     * A consumer that spends time on each message counts a warm-up poll's messages one by one: those counted after the
     * warm-up are in the window's first interval, and their end-to-end latency (of the warm-up) is not recorded there.
     */
    @Test
    void shouldNotRecordTheLatencyOfAWarmupPollsMessagesCountedAfterTheWarmup() {
        io.kbench.driver.ManualNanoClock nanos = new io.kbench.driver.ManualNanoClock(1_000_000_000L);
        RunClock clock = new RunClock(io.kbench.protocol.MicrosClock.SYSTEM, 0, nanos);
        ConsumerMetrics m = new ConsumerMetrics(clock, null);
        Snapshotter s = new Snapshotter("w", List.of(), List.of(m), List.of());
        long measure = clock.coordinatorMicrosNow() + 1_000;
        m.measureFrom(measure);
        m.onPollReturned(); // 1 ms before the window: the poll returned 3 messages of the warm-up
        m.onRecord(100, measure - 5_000, 0, 1, 0);
        nanos.advance(2_000_000); // the first message's processing took the consumer past the warm-up's end
        m.onRecord(100, measure - 4_000, 0, 1, 1);
        m.onRecord(100, measure - 3_000, 0, 1, 2);
        m.onPollReturned();
        m.onRecord(100, measure + 500, 0, 1, 3); // intended in the window
        IntervalSnapshot snap = s.harvest(0, 0, 1, false, 0, false, "");
        assertEquals(4, snap.counters().received());
        assertEquals(2, endToEndCount(snap), "the one counted in the warm-up and the window's own");
    }

    /** A message intended in a timed warm-up and received after it counts, without its end-to-end latency. */
    @Test
    void shouldCountAWarmupMessageReceivedAfterTheWarmupWithoutItsLatency() {
        ConsumerMetrics m = new ConsumerMetrics(CLOCK, null);
        Snapshotter s = new Snapshotter("w", List.of(), List.of(m), List.of());
        long now = CLOCK.coordinatorMicrosNow();
        m.measureFrom(now - 10);
        m.onPollReturned();
        m.onRecord(100, now - 1_000, 0, 1, 0); // intended before the measurement began
        m.onRecord(100, now - 5, 0, 1, 1);
        IntervalSnapshot snap = s.harvest(0, 0, 1, false, 0, false, "");
        assertEquals(2, snap.counters().received());
        assertEquals(1, endToEndCount(snap));
    }
    /**
     * An interval's received messages, bytes and end-to-end latencies are those its consumer counted in it, not those
     * counted by the time the snapshot thread harvested it: a poll that returns just after the boundary, before a late
     * harvest, is the next interval's (with 5-s intervals the quickstart's window held 99,922-99,942 end-to-end
     * latencies for its 100,000 messages). A consumer that spends time on each message counts each when its turn
     * comes, so one poll's messages can fall on both sides of a boundary.
     */
    @Test
    void shouldEndAnIntervalsReceivedCountsAtItsBoundary() {
        io.kbench.driver.ManualNanoClock nanos = new io.kbench.driver.ManualNanoClock(0);
        RunClock clock = new RunClock(io.kbench.protocol.MicrosClock.SYSTEM, 0, nanos);
        ConsumerMetrics m = new ConsumerMetrics(clock, null);
        m.intervals(0, 1_000_000); // 1-ms intervals
        Snapshotter s = new Snapshotter("w", List.of(), List.of(m), List.of());
        nanos.set(100_000);
        m.onPollReturned();
        for (int i = 0; i < 3; i++) {
            m.onRecord(100, clock.coordinatorMicrosNow() - 50, 0, RecordListener.NO_PRODUCER, 0);
        }
        nanos.set(1_000_500); // after the boundary, before the harvest of interval 0
        m.onPollReturned();
        m.onRecord(300, clock.coordinatorMicrosNow() - 50, 0, RecordListener.NO_PRODUCER, 0);
        m.onRecord(300, RecordListener.NO_STAMP, 0, RecordListener.NO_PRODUCER, 0);
        IntervalSnapshot first = s.harvest(0, 0, 1_000, false, 0, false, "");
        assertEquals(3, first.counters().received());
        assertEquals(300, first.counters().receivedBytes());
        assertEquals(3, endToEndCount(first));
        IntervalSnapshot second = s.harvest(1, 1_000, 2_000, false, 0, false, "");
        assertEquals(2, second.counters().received(), "one timed, one unstamped");
        assertEquals(600, second.counters().receivedBytes());
        assertEquals(1, endToEndCount(second));

        // 400 µs a message: a poll at 0 counts its 5 messages at 0, 0.4, 0.8, 1.2 and 1.6 ms
        nanos.set(0);
        ConsumerMetrics slow = new ConsumerMetrics(clock, null, new Processing(400, Processing.Distribution.FIXED, 1));
        slow.intervals(0, 1_000_000);
        Snapshotter t = new Snapshotter("w", List.of(), List.of(slow), List.of());
        slow.onPollReturned();
        for (int i = 0; i < 5; i++) {
            slow.onRecord(100, clock.coordinatorMicrosNow(), 0, RecordListener.NO_PRODUCER, 0);
        }
        assertEquals(3, t.harvest(0, 0, 1_000, false, 0, false, "").counters().received());
        assertEquals(2, t.harvest(1, 1_000, 2_000, false, 0, false, "").counters().received());
    }
}
