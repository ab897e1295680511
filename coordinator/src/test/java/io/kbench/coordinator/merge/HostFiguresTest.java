package io.kbench.coordinator.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import io.kbench.protocol.ClientMetricsSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.HostSample;
import io.kbench.protocol.IntervalSnapshot;
import org.junit.jupiter.api.Test;

class HostFiguresTest {
    private static HostSample cpu(double share, long gcMicros, long heapAfter) {
        return stalled(share, gcMicros, heapAfter, -1);
    }

    private static HostSample stalled(double share, long gcMicros, long heapAfter, long stallMicros) {
        return new HostSample(2, 1_000_000, Math.round(share * 2_000_000), gcMicros, gcMicros > 0 ? 1 : 0, heapAfter,
                1_000, "", stallMicros);
    }

    private static IntervalSnapshot snap(String worker, long seq, HostSample h) {
        return new IntervalSnapshot(worker, seq, seq * 1_000_000, (seq + 1) * 1_000_000, Counters.ZERO, Map.of(), false,
                0, 0, false, "", -1, ClientMetricsSample.NONE, ClientMetricsSample.NONE).withHost(h);
    }

    @Test
    void shouldAggregateAnIntervalAcrossWorkersAndSkipThoseWithoutFigures() {
        HostFigures.Accumulator a = new HostFigures.Accumulator();
        a.add("w1", cpu(0.2, 0, 100));
        a.add("w2", cpu(0.9, 25_000, 600));
        a.add("w3", HostSample.NONE);
        HostFigures f = a.result();
        assertEquals(2, f.workers(), "w3 sent none");
        assertEquals(0.55, f.cpuMean(), 1e-9);
        assertEquals(0.9, f.cpuMax(), 1e-9);
        assertEquals("w2", f.busiest());
        assertEquals(25_000, f.gcMicrosMax());
        assertEquals(0.6, f.heapAfterGcMax(), 1e-9);
        assertEquals(HostFigures.NONE, new HostFigures.Accumulator().result());
        assertEquals(-1, f.stallMicrosMax(), "no worker measured its stalls");
    }

    @Test
    void shouldKeepTheLongestStallOfAnyWorker() {
        HostFigures.Accumulator a = new HostFigures.Accumulator();
        a.add("w1", stalled(0.2, 0, 100, 800));
        a.add("w2", stalled(0.3, 0, 100, 31_000));
        a.add("w3", cpu(0.3, 0, 100)); // an earlier worker: not measured
        assertEquals(31_000, a.result().stallMicrosMax());
        WorkerHostTotals t = new WorkerHostTotals();
        t.add(stalled(0.2, 0, 100, 800));
        t.add(stalled(0.2, 0, 100, 12_000));
        t.add(stalled(0.2, 0, 100, 0));
        assertEquals(12_000, t.figures().stallMicrosMax(), "the worst interval");
        WorkerHostTotals old = new WorkerHostTotals();
        old.add(cpu(0.2, 0, 100));
        assertEquals(-1, old.figures().stallMicrosMax());
    }

    private static HostSample onHost(double busy, double steal) {
        return new HostSample(2, 1_000_000, 400_000, 0, 0, 100, 1_000, "", -1, busy, steal, -1);
    }

    @Test
    void shouldKeepTheBusiestHostAndTheMostStolenOfAnyWorker() {
        HostFigures.Accumulator a = new HostFigures.Accumulator();
        a.add("w1", onHost(0.97, 0.01));
        a.add("w2", onHost(0.40, 0.06));
        a.add("w3", cpu(0.3, 0, 100)); // not Linux, or an earlier worker: not measured
        HostFigures f = a.result();
        assertEquals(0.97, f.hostBusyMax(), 1e-9, "the busiest host, whatever its worker's own share");
        assertEquals(0.06, f.hostStealMax(), 1e-9, "another host's steal");
        HostFigures.Accumulator none = new HostFigures.Accumulator();
        none.add("w3", cpu(0.3, 0, 100));
        assertEquals(-1, none.result().hostBusyMax(), "no worker measured it");
        assertEquals(-1, none.result().hostStealMax());
        WorkerHostTotals t = new WorkerHostTotals();
        t.add(onHost(0.50, 0.0));
        t.add(onHost(1.00, 0.10));
        t.add(cpu(0.2, 0, 100)); // an interval the host's counters could not be read in: not averaged as 0
        WorkerHostTotals.Figures tf = t.figures();
        assertEquals(0.75, tf.hostBusyMean(), 1e-9);
        assertEquals(1.00, tf.hostBusyMax(), 1e-9);
        assertEquals(0.05, tf.hostStealMean(), 1e-9);
        assertEquals(0.10, tf.hostStealMax(), 1e-9);
        WorkerHostTotals old = new WorkerHostTotals();
        old.add(cpu(0.2, 0, 100));
        assertEquals(-1, old.figures().hostBusyMean());
        assertEquals(-1, old.figures().hostStealMax());
    }

    private static HostSample compiling(double cpu, long jitMicros) {
        return new HostSample(2, 1_000_000, Math.round(cpu * 2_000_000), 0, 0, 100, 1_000, "", -1, -1, -1, jitMicros);
    }

    @Test
    void shouldKeepTheJitCompilersTimeAsAShareOfTheProcessors() {
        HostFigures.Accumulator a = new HostFigures.Accumulator();
        a.add("w1", compiling(0.9, 200_000));
        a.add("w2", compiling(0.3, 500_000));
        a.add("w3", cpu(0.3, 0, 100)); // not Linux, or an earlier worker
        assertEquals(0.25, a.result().jitShareMax(), 1e-9, "0.5 s in 1 s on 2 processors, whoever was busiest");
        HostFigures.Accumulator none = new HostFigures.Accumulator();
        none.add("w3", cpu(0.3, 0, 100));
        assertEquals(-1, none.result().jitShareMax(), "no worker measured it");
        WorkerHostTotals t = new WorkerHostTotals();
        t.add(compiling(0.8, 600_000));
        t.add(compiling(0.4, 0));
        t.add(cpu(0.6, 0, 100)); // not told in this interval: not averaged as 0
        WorkerHostTotals.Figures f = t.figures();
        assertEquals(0.15, f.jitShareMean(), 1e-9, "0.6 s over 2 s on 2 processors");
        assertEquals(0.30, f.jitShareMax(), 1e-9);
        assertEquals(600_000, f.jitMicros());
        assertEquals(0.25, f.jitShareOfCpu(), 1e-9, "0.15 of the processors out of the worker's 0.6");
        WorkerHostTotals old = new WorkerHostTotals();
        old.add(cpu(0.2, 0, 100));
        assertEquals(-1, old.figures().jitShareMean());
        assertEquals(-1, old.figures().jitShareOfCpu());
    }

    @Test
    void shouldKeepEachWorkersTotalsOverTheMeasuredIntervalsOnly() {
        IntervalMerger m = new IntervalMerger(List.of("w1", "w2"), SummaryHistograms.from(1_000_000));
        m.add(snap("w1", 0, cpu(1.0, 90_000, 500))); // warm-up: not in the totals
        m.add(snap("w2", 0, cpu(1.0, 0, 500)));
        m.add(snap("w1", 1, cpu(0.5, 10_000, 200)));
        List<MergedInterval> out = m.add(snap("w2", 1, HostSample.NONE));
        m.add(snap("w1", 2, cpu(0.3, 0, 300)));
        out = m.add(snap("w2", 2, HostSample.NONE));
        assertEquals(1, out.size());
        assertEquals(1, out.get(0).hosts().workers(), "only w1 sent figures");
        WorkerHostTotals.Figures w1 = m.host("w1");
        assertEquals(2, w1.intervals());
        assertEquals(0.4, w1.cpuMean(), 1e-9, "(0.5 + 0.3) / 2: the warm-up's 1.0 left out");
        assertEquals(0.5, w1.cpuMax(), 1e-9);
        assertEquals(10_000, w1.gcMicros());
        assertEquals(300, w1.heapAfterGcMaxBytes());
        assertNull(m.host("w2"), "a worker that sent no figures in the window has none");
    }
}
