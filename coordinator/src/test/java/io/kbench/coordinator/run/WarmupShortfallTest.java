package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

/** The note that a warm-up fell behind its schedule (and its debt was skipped when measuring began). */
class WarmupShortfallTest {
    private static final long S = 1_000_000;
    /** 2 producers, 1,000 msg/s, 3 s warm-up, 5 s measured. */
    private static final Workload W = Workload.timed("w", 1, 6, 100, 2, 1, 1, 1_000, 3, 5);

    private static List<MergedInterval> sent(long... perInterval) {
        List<MergedInterval> out = new ArrayList<>();
        for (int i = 0; i < perInterval.length; i++) {
            out.add(new MergedInterval(i, i * S, (i + 1) * S, new Counters(perInterval[i], perInterval[i], 0, 0, 0, 0, 0, 0),
                    MergedInterval.noStats(), 1, List.of()));
        }
        return out;
    }

    @Test
    void shouldSayWhenTheWarmupRanBehindAndNotOtherwise() {
        assertNull(ResultAssembly.warmupShortfall(W, sent(1_000, 1_000, 1_000, 1_000, 1_000), 3 * S));
        // 2,984 of 3,000 is 99.5% less one message per producer: on schedule
        assertNull(ResultAssembly.warmupShortfall(W, sent(984, 1_000, 1_000, 1_000), 3 * S));
        assertEquals("the warm-up sent 2,000 of the 3,000 messages due in it (66.7%): the load generator ran behind "
                + "(a cold JVM, a slow start); the producers skipped the rest when measuring began, so the measured "
                + "window started on schedule (a longer warmupSeconds gives the workers more time to warm up)",
                ResultAssembly.warmupShortfall(W, sent(200, 800, 1_000, 3_000, 1_000), 3 * S),
                "what was sent after the warm-up does not count");
        assertNull(ResultAssembly.warmupShortfall(W.withProducerRate(Workload.UNTHROTTLED), sent(1, 1, 1), 3 * S),
                "an unthrottled run has no schedule");
        assertNull(ResultAssembly.warmupShortfall(Workload.timed("w", 1, 6, 100, 2, 1, 1, 1_000, 0, 5), sent(1, 1), 0),
                "no warm-up");
    }
}
