package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/** The run's start lead: short for in-process workers, longer for many or distant ones, bounded. */
class RunWindowTest {
    @Test
    void shouldLeadByWhatTheWorkersNeedAndNoMoreThanTheBound() {
        assertEquals(251_000, RunWindow.lead(1, 0), "one in-process worker: a quarter second");
        assertEquals(253_000 + 8 * 400, RunWindow.lead(3, 400), "three workers 0.8 ms away");
        assertEquals(1_266_000, RunWindow.lead(1_000, 2_000), "a thousand workers 4 ms away");
        assertEquals(1_500_000, RunWindow.lead(2_000, 2_000), "two thousand: the bound");
        assertEquals(1_500_000, RunWindow.lead(1, 10_000_000), "a slow network: the bound");
    }

    @Test
    void shouldStartTheWindowAtTheLeadAndMeasureAfterTheWarmup() {
        RunWindow w = RunWindow.of(Workload.timed("w", 1, 1, 100, 1, 0, 1, 100, 5, 10), 1_000_000, 251_000);
        assertEquals(1_251_000, w.runStartMicros());
        assertEquals(6_251_000, w.measureStartMicros());
        assertEquals(16_251_000, w.plannedEndMicros());
    }
}
