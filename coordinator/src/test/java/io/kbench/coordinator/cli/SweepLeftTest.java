package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/** A sweep says how long it has left: the planned load before the first combination, the pace after. */
class SweepLeftTest {
    private static Sweep.Point point(int warmup, int duration) {
        return new Sweep.Point("p", Map.of(), Workload.timed("t", 1, 1, 100, 1, 1, 1, 1000, warmup, duration), Map.of());
    }

    @Test
    void shouldBoundTheFirstByTheLoadAndTheRestByThePaceSoFar() {
        List<Sweep.Point> six = List.of(point(5, 30), point(5, 30), point(5, 30), point(5, 30), point(5, 30), point(5, 30));
        assertEquals(" — at least 3 min 30 s of load in all", SweepRun.sweepLeft(six, 0, 0));
        // two combinations took 100 s: four more at 50 s each
        assertEquals(" — about 3 min 20 s left for the sweep", SweepRun.sweepLeft(six, 2, 100));
        assertEquals(" — about 40 s left for the sweep", SweepRun.sweepLeft(six, 5, 200));
        assertEquals(" — about 2 h 0 min left for the sweep", SweepRun.sweepLeft(six, 1, 1440));
    }
}
