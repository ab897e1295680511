package io.kbench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class StreamWatchTest {
    private static final long S = 1_000_000;
    private static final long START = 1_000 * S;

    private static List<Long> silentWorkers(StreamWatch w, long now) {
        return w.silent(now).stream().map(s -> s[0]).toList();
    }

    @Test
    void shouldCountAWorkerLostTwoIntervalsAndTwoSecondsAfterItsLastSnapshot() {
        StreamWatch w = new StreamWatch(2, START, S);
        assertEquals(4 * S, w.thresholdMicros());
        w.heard(0, START + S);
        w.heard(1, START + S);
        w.heard(0, START + 2 * S);
        assertEquals(List.of(), silentWorkers(w, START + 5 * S), "worker 1 quiet for exactly 4 s");
        assertEquals(List.of(1L), silentWorkers(w, START + 5 * S + 1));
        assertEquals(4 * S + 1, w.silent(START + 5 * S + 1).get(0)[1]);
        assertEquals(List.of(0L, 1L), silentWorkers(w, START + 7 * S));
    }

    @Test
    void shouldGiveTheFirstSnapshotItsIntervalAfterTheStartInstant() {
        StreamWatch w = new StreamWatch(1, START, 10 * S);
        assertEquals(List.of(), silentWorkers(w, START + 22 * S));
        assertEquals(List.of(0L), silentWorkers(w, START + 22 * S + 1));
    }

    @Test
    void shouldNotWatchClosedStreamsNorGoBackInTime() {
        StreamWatch w = new StreamWatch(2, START, S);
        w.heard(0, START + 9 * S);
        w.heard(0, START + 3 * S); // a late report of an earlier arrival does not move it back
        w.closed(1);
        assertEquals(List.of(), silentWorkers(w, START + 12 * S));
        assertEquals(List.of(0L), silentWorkers(w, START + 14 * S));
    }
}
