package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

class CatchUpTest {
    /** One-second intervals from t=0 with the given acked and received counts, 100-byte values. */
    private static List<MergedInterval> intervals(long[] acked, long[] received) {
        List<MergedInterval> out = new ArrayList<>();
        for (int i = 0; i < acked.length; i++) {
            out.add(new MergedInterval(i, i * 1_000_000L, (i + 1) * 1_000_000L,
                    new Counters(acked[i], acked[i], 0, acked[i] * 100, received[i], received[i] * 100, 0, 0),
                    MergedInterval.noStats(), 1, List.of()));
        }
        return out;
    }

    @Test
    void shouldInterpolateTheBacklogAtReleaseAndTheInstantItWasRead() {
        // 1,000 msg/s produced; released at t=2.5 s with 2,500 acked; consumers read 4,000 msg/s from then on
        List<MergedInterval> is = intervals(new long[] {1000, 1000, 1000, 1000, 1000},
                new long[] {0, 0, 2000, 4000, 1000});
        CatchUp c = CatchUp.of(is, 2_500_000, 2_400, 1);
        assertEquals(2500, c.backlogRecords());
        // received: 2,000 by t=3, then 500 more of interval 3's 4,000 -> t = 3.125 s, 0.625 s after release
        assertEquals(0.625, c.seconds());
        assertEquals(4000.0, c.rate());
        assertEquals(2_500, c.releaseMillis());
        assertEquals(Math.round(4000 * 100 / 1048576.0 * 100) / 100.0, c.mbps());
    }

    @Test
    void shouldCountEverySubscriptionsRead() {
        List<MergedInterval> is = intervals(new long[] {1000, 0}, new long[] {0, 2000});
        CatchUp c = CatchUp.of(is, 1_000_000, 1_000, 2);
        assertEquals(1000, c.backlogRecords());
        assertEquals(1.0, c.seconds());
        assertEquals(2000.0, c.rate());
    }

    @Test
    void shouldBeAbsentWhenTheConsumersNeverCaughtUp() {
        assertNull(CatchUp.of(intervals(new long[] {1000, 1000}, new long[] {0, 500}), 1_000_000, 1_000, 1));
    }

    /**
     * A backlog run that produces only the backlog: the producers stopped early in the interval of the release, whose
     * acknowledgements the interpolation would spread over all of it; the count read live at the release is the floor.
     */
    @Test
    void shouldTakeTheBacklogReadAtTheReleaseWhenTheProducersStoppedBeforeIt() {
        // 3,000 acked by t=2.3 s and nothing after; released at t=2.4 s with 3,000 read live; read 6,000 msg/s
        List<MergedInterval> is = intervals(new long[] {1000, 1000, 1000, 0}, new long[] {0, 0, 600, 2400});
        assertEquals(2400, CatchUp.of(is, 2_400_000, 0, 1).backlogRecords(), "what the interpolation alone gives");
        CatchUp c = CatchUp.of(is, 2_400_000, 3_000, 1);
        assertEquals(3000, c.backlogRecords());
        // 600 by t=3, then all 2,400 of interval 3 -> t = 4.0 s, 1.6 s after the release
        assertEquals(1.6, c.seconds());
        assertEquals(1875.0, c.rate());
    }
}
