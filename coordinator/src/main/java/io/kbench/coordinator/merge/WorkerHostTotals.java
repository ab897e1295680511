package io.kbench.coordinator.merge;

import io.kbench.protocol.HostSample;

/**
 * One worker's host figures over the measured intervals: CPU time and wall time (their ratio over the
 * processors is its mean CPU share), the busiest interval, collection time in all and in the worst interval, the
 * fullest heap after a collection, the longest a load thread of it woke late from a park, its whole host's
 * running and stolen CPU share (mean and the worst interval), and its JIT compiler threads' CPU (mean share of its
 * processors and the worst interval). Constant size per worker. Not thread-safe.
 */
public final class WorkerHostTotals {
    private int intervals;
    private int processors;
    private long cpuMicros;
    private long wallMicros;
    private double cpuMax;
    private long gcMicros;
    private long gcMicrosMax;
    private long gcCount;
    private long heapAfterGcMaxBytes = -1;
    private long heapMaxBytes;
    private String sharedWith = "";
    private long stallMicrosMax = -1;
    private final Share hostBusy = new Share();
    private final Share hostSteal = new Share();
    private long jitMicros;
    private long jitWallMicros;
    private double jitMax = -1;

    /** Adds one measured interval's sample; unknown samples are skipped. */
    public void add(HostSample s) {
        if (!s.known()) {
            return;
        }
        intervals++;
        processors = s.processors();
        sharedWith = s.sharedWith();
        cpuMicros += s.cpuMicros();
        wallMicros += s.wallMicros();
        cpuMax = Math.max(cpuMax, s.cpuShare());
        gcMicros += s.gcMicros();
        gcMicrosMax = Math.max(gcMicrosMax, s.gcMicros());
        gcCount += s.gcCount();
        heapAfterGcMaxBytes = Math.max(heapAfterGcMaxBytes, s.heapAfterGcBytes());
        heapMaxBytes = Math.max(heapMaxBytes, s.heapMaxBytes());
        stallMicrosMax = Math.max(stallMicrosMax, s.stallMicros());
        hostBusy.add(s.hostBusyShare());
        hostSteal.add(s.hostStealShare());
        if (s.jitMicros() >= 0) {
            jitMicros += s.jitMicros();
            jitWallMicros += s.wallMicros();
            jitMax = Math.max(jitMax, s.jitShare());
        }
    }

    /** The figures so far, or null when the worker reported none. */
    public Figures figures() {
        if (intervals == 0) {
            return null;
        }
        return new Figures(intervals, processors, Math.min(1.0, (double) cpuMicros / wallMicros / processors), cpuMax,
                gcMicros, gcMicrosMax, gcCount, heapAfterGcMaxBytes, heapMaxBytes, sharedWith, stallMicrosMax,
                hostBusy.mean(), hostBusy.max, hostSteal.mean(), hostSteal.max,
                jitWallMicros <= 0 ? -1 : Math.min(1.0, (double) jitMicros / jitWallMicros / processors), jitMax,
                jitWallMicros <= 0 ? -1 : jitMicros);
    }

    /** The mean and the highest of a share over the intervals that measured it (-1: none did). */
    private static final class Share {
        private int n;
        private double sum;
        private double max = -1;

        void add(double v) {
            if (v >= 0) {
                n++;
                sum += v;
                max = Math.max(max, v);
            }
        }

        double mean() {
            return n == 0 ? -1 : sum / n;
        }
    }

    /**
     * @param intervals           measured intervals with figures
     * @param processors          processors the worker's JVM may use
     * @param cpuMean             CPU time over wall time over processors (0..1)
     * @param cpuMax              the busiest interval's share
     * @param gcMicros            collection time over the measured intervals, µs
     * @param gcMicrosMax         the most in one interval, µs
     * @param gcCount             collections
     * @param heapAfterGcMaxBytes the fullest heap after a collection (-1: no collection yet)
     * @param heapMaxBytes        the heap's maximum
     * @param sharedWith          what else ran in the worker's process ("" for none)
     * @param stallMicrosMax      the longest a load thread of it woke late from a park, µs (-1: not measured)
     * @param hostBusyMean        its host's share of CPU time spent running (every process), mean over the intervals
     *                            that measured it (-1: none did)
     * @param hostBusyMax         the same in its busiest interval
     * @param hostStealMean       its host's CPU time stolen by the hypervisor, mean share (-1: not measured)
     * @param hostStealMax        the same in its worst interval
     * @param jitShareMean        its JIT compiler threads' CPU over the intervals that measured it, as a share of its
     *                            processors (comparable with {@code cpuMean}; -1: not measured)
     * @param jitShareMax         the same in its worst interval
     * @param jitMicros           its JIT compiler threads' CPU over those intervals, µs (-1: not measured)
     */
    public record Figures(int intervals, int processors, double cpuMean, double cpuMax, long gcMicros,
                          long gcMicrosMax, long gcCount, long heapAfterGcMaxBytes, long heapMaxBytes,
                          String sharedWith, long stallMicrosMax, double hostBusyMean, double hostBusyMax,
                          double hostStealMean, double hostStealMax, double jitShareMean, double jitShareMax,
                          long jitMicros) {

        /** The JIT compilers' share of the worker's own CPU over the window (0..1); -1 when not measured. */
        public double jitShareOfCpu() {
            return jitShareMean < 0 || cpuMean <= 0 ? -1 : Math.min(1.0, jitShareMean / cpuMean);
        }
    }
}
