package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kbench.protocol.HostSample;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HostSamplerTest {
    /** Running totals set by the test. */
    static final class Fake implements HostSampler.Source {
        long nanos;
        long cpu;
        long gcMs;
        long gcN;
        long heapAfter = -1;
        long stall = -1;
        long jitNs = -1;
        HostCpuTicks host;

        @Override public int processors() { return 4; }
        @Override public HostCpuTicks hostCpu() { return host; }
        @Override public long nanoTime() { return nanos; }
        @Override public long processCpuNanos() { return cpu; }
        @Override public long gcMillis() { return gcMs; }
        @Override public long gcCount() { return gcN; }
        @Override public long heapAfterGcBytes() { return heapAfter; }
        @Override public long heapMaxBytes() { return 1_000; }
        @Override public long jitNanos() { return jitNs; }

        @Override
        public long takeStallMicros() {
            long s = stall;
            stall = -1; // taken: nothing more until the load threads park again
            return s;
        }
    }

    @AfterEach
    void alone() {
        HostSampler.sharedWith("");
    }

    @Test
    void shouldReportDeltasOverTheirOwnWallTime() {
        Fake f = new Fake();
        f.nanos = 5_000_000_000L;
        f.cpu = 70_000_000_000L; // CPU before the run: not in any sample
        f.gcMs = 900;
        f.gcN = 40;
        HostSampler s = new HostSampler(f);
        f.nanos += 1_250_000_000L; // a first interval that began with the start lead: 1.25 s
        f.cpu += 2_500_000_000L;
        f.gcMs += 30;
        f.gcN += 2;
        f.heapAfter = 250;
        f.stall = 12_345;
        HostSample a = s.sample();
        assertEquals(1_250_000, a.wallMicros());
        assertEquals(2_500_000, a.cpuMicros());
        assertEquals(0.5, a.cpuShare(), 1e-9, "2.5 s of CPU in 1.25 s on 4 processors");
        assertEquals(30_000, a.gcMicros());
        assertEquals(2, a.gcCount());
        assertEquals(0.25, a.heapAfterGcShare(), 1e-9);
        assertEquals("", a.sharedWith());
        assertEquals(12_345, a.stallMicros());
        f.nanos += 1_000_000_000L;
        f.cpu += 4_000_000_000L;
        HostSampler.sharedWith("coordinator");
        HostSample b = s.sample();
        assertEquals(1.0, b.cpuShare(), 1e-9, "every core busy");
        assertEquals(0, b.gcMicros(), "no collection in this one");
        assertEquals("coordinator", b.sharedWith());
        assertEquals(-1, b.stallMicros(), "no load thread parked in this one");
    }

    @Test
    void shouldReportTheHostsBusyAndStolenShareOfItsTicks() {
        Fake f = new Fake();
        f.host = new HostCpuTicks(5_000, 100, 20_000);
        HostSampler s = new HostSampler(f);
        f.nanos += 1_000_000_000L;
        f.cpu += 500_000_000L;
        f.host = new HostCpuTicks(5_000 + 150, 100 + 20, 20_000 + 200); // 2 processors at 100 ticks a second
        HostSample a = s.sample();
        assertEquals(0.75, a.hostBusyShare(), 1e-9, "150 of 200 ticks running");
        assertEquals(0.10, a.hostStealShare(), 1e-9, "20 of 200 stolen");
        assertEquals(0.125, a.cpuShare(), 1e-9, "the worker's own share of its 4 processors, apart");
        f.nanos += 1_000_000_000L;
        HostSample same = s.sample();
        assertEquals(-1, same.hostBusyShare(), "no tick counted since: unknown, not 0");
        f.nanos += 1_000_000_000L;
        f.host = null;
        assertEquals(-1, s.sample().hostStealShare(), "the file could not be read this time");
        f.nanos += 1_000_000_000L;
        f.host = new HostCpuTicks(6_000, 200, 21_000);
        assertEquals(-1, s.sample().hostBusyShare(), "no counters to take the difference from");
        f.nanos += 1_000_000_000L;
        f.host = new HostCpuTicks(6_000 + 100, 200, 21_000 + 100);
        HostSample all = s.sample();
        assertEquals(1.0, all.hostBusyShare(), 1e-9);
        assertEquals(0.0, all.hostStealShare(), 1e-9);
    }

    @Test
    void shouldReportTheJitCompilersTimeSinceTheLastSample() {
        Fake f = new Fake();
        f.jitNs = 7_000_000_000L; // compiled before the sampler: not in any sample
        HostSampler s = new HostSampler(f);
        f.nanos += 1_000_000_000L;
        f.cpu += 2_000_000_000L;
        f.jitNs += 600_000_000L;
        HostSample a = s.sample();
        assertEquals(600_000, a.jitMicros());
        assertEquals(0.15, a.jitShare(), 1e-9, "0.6 s compiling in 1 s on 4 processors");
        f.nanos += 1_000_000_000L;
        assertEquals(0, s.sample().jitMicros(), "compiled nothing in this one");
        f.nanos += 1_000_000_000L;
        f.jitNs = -1;
        assertEquals(-1, s.sample().jitMicros(), "the JVM stopped telling: unknown, not 0");
        f.nanos += 1_000_000_000L;
        f.jitNs = 8_000_000_000L;
        assertEquals(-1, s.sample().jitMicros(), "no total to take the difference from");
        f.nanos += 1_000_000_000L;
        f.jitNs = 8_050_000_000L;
        assertEquals(50_000, s.sample().jitMicros());
    }

    @Test
    void shouldTakeTheStallFromItsOwnStartAndReportItOnce() {
        Fake f = new Fake();
        f.stall = 90_000; // before the sampler: not in any sample
        HostSampler s = new HostSampler(f);
        f.nanos += 1_000_000_000L;
        f.cpu += 10;
        assertEquals(-1, s.sample().stallMicros(), "the stall before the sampler was made is not reported");
        f.nanos += 1_000_000_000L;
        f.stall = 25_000;
        assertEquals(25_000, s.sample().stallMicros());
        f.nanos += 1_000_000_000L;
        assertEquals(-1, s.sample().stallMicros(), "taken: the next interval starts again");
    }

    @Test
    void shouldSayNothingWhenThePlatformCannotTellOrNoTimePassed() {
        Fake f = new Fake();
        f.cpu = -1;
        HostSampler s = new HostSampler(f);
        f.nanos += 1_000_000_000L;
        assertFalse(s.sample().known(), "no process CPU time on this platform");
        Fake g = new Fake();
        HostSampler t = new HostSampler(g);
        assertFalse(t.sample().known(), "two samples in the same instant");
        g.nanos += 1_000_000_000L;
        g.cpu += 10;
        assertTrue(t.sample().known());
    }

    @Test
    void shouldReadThisJvm() {
        long[] stalls = {900, 250};
        int[] takes = {0};
        HostSampler s = HostSampler.ofThisJvm(() -> stalls[takes[0]++]); // the first take resets at the start
        long until = System.nanoTime() + 50_000_000L;
        long x = 0;
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime()); // busy: some CPU to see
        }
        System.gc();
        HostSample h = s.sample();
        assertTrue(h.known() && x >= 0, String.valueOf(h));
        assertEquals(Runtime.getRuntime().availableProcessors(), h.processors());
        assertTrue(h.cpuMicros() > 0 && h.wallMicros() >= 50_000, String.valueOf(h));
        assertTrue(h.heapAfterGcBytes() > 0 && h.heapAfterGcBytes() <= h.heapMaxBytes(), String.valueOf(h));
        assertTrue(h.gcCount() >= 1, "System.gc() counted: " + h);
        assertEquals(250, h.stallMicros(), "the stalls as the run's load threads give them");
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/schedstat"))) {
            assertTrue(h.jitMicros() >= 0 && h.jitMicros() <= 60_000_000L, "Linux tells the compilers' CPU: " + h);
        }
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat"))) {
            assertTrue(h.hostBusyShare() > 0 && h.hostBusyShare() <= 1, "this test kept a processor busy: " + h);
            assertTrue(h.hostStealShare() >= 0 && h.hostStealShare() <= 1, String.valueOf(h));
        }
    }
}
