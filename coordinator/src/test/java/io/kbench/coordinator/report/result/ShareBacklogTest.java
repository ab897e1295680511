package io.kbench.coordinator.report.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;

import io.kbench.coordinator.merge.ClientSample;
import io.kbench.coordinator.merge.HostFigures;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.protocol.Counters;
import org.junit.jupiter.api.Test;

/** The summary's share backlog: the last interval that read it, and the most in the measured window. */
class ShareBacklogTest {
    private static final long S = 1_000_000;

    private static MergedInterval second(int i, long backlog) {
        return new MergedInterval(i, i * S, (i + 1) * S, Counters.ZERO, MergedInterval.noStats(), 1, List.of(), -1,
                ClientSample.NONE, ClientSample.NONE, HostFigures.NONE, List.of(), backlog);
    }

    @Test
    void shouldTakeTheLastReadingAndTheMostInTheWindow() {
        // warm-up second 0 had the most; the window is seconds 1-3; the drain after it read 0, then failed
        List<MergedInterval> run = List.of(second(0, 9_000), second(1, 4_000), second(2, -1), second(3, 6_000),
                second(4, 0), second(5, -1));
        assertArrayEquals(new long[] {0, 6_000}, ResultDocument.backlog(run, S, 4 * S));
        assertArrayEquals(new long[] {-1, -1}, ResultDocument.backlog(List.of(second(0, -1)), 0, S), "never read");
        assertArrayEquals(new long[] {-1, -1}, ResultDocument.backlog(List.of(), 0, S));
    }
}
