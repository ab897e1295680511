package io.kbench.protocol;

/**
 * A worker process's use of its host over one interval (the {@code HostMetrics} message's figures): how much CPU
 * it used of the processors it may use, how long its garbage collectors ran, and how full its heap stays after a
 * collection — so a run limited by its client hosts shows as such.
 *
 * @param processors       processors the JVM may use; 0 when the sample is unknown ({@link #NONE})
 * @param wallMicros       the wall time the CPU and GC figures cover, µs (about the interval)
 * @param cpuMicros        CPU time of the whole process over that time, µs
 * @param gcMicros         collection time over the interval, µs (stop-the-world pauses for G1, Parallel, Serial)
 * @param gcCount          collections over the interval
 * @param heapAfterGcBytes heap in use right after the latest collection so far; -1 before the first
 * @param heapMaxBytes     the heap's maximum size
 * @param sharedWith       what else runs in the process and is included ("" for a worker of its own)
 * @param stallMicros      the longest a load thread of the worker woke later than its park between bursts of sends
 *                         asked, over the interval, µs: a stop-the-world pause, or the host giving it no core in
 *                         time; -1 when no load thread parked (none paced, or behind throughout) or not measured
 *                         (a worker of an earlier version)
 * @param hostBusyShare    the share of the whole host's CPU time (all its processors, every process on it: this worker,
 *                         a broker, anything else) spent running over the interval, 0..1; -1 when unknown (not Linux,
 *                         or a worker of an earlier version)
 * @param hostStealShare   the share of the host's CPU time its hypervisor gave to other guests while this virtual
 *                         machine's processors wanted to run (a VM's CPU steal), 0..1; -1 when unknown
 */
public record HostSample(int processors, long wallMicros, long cpuMicros, long gcMicros, long gcCount,
                         long heapAfterGcBytes, long heapMaxBytes, String sharedWith, long stallMicros,
                         double hostBusyShare, double hostStealShare, long jitMicros) {
    /** No figures (a worker that sent none). */
    public static final HostSample NONE = new HostSample(0, 0, 0, 0, 0, -1, 0, "", -1, -1, -1, -1);

    public HostSample {
        sharedWith = sharedWith == null ? "" : sharedWith;
        stallMicros = Math.max(-1, stallMicros);
        jitMicros = Math.max(-1, jitMicros);
        hostBusyShare = share(hostBusyShare);
        hostStealShare = share(hostStealShare);
    }

    /** A sample without the host's CPU figures. */
    public HostSample(int processors, long wallMicros, long cpuMicros, long gcMicros, long gcCount,
                      long heapAfterGcBytes, long heapMaxBytes, String sharedWith, long stallMicros) {
        this(processors, wallMicros, cpuMicros, gcMicros, gcCount, heapAfterGcBytes, heapMaxBytes, sharedWith,
                stallMicros, -1, -1, -1);
    }

    /** A share as 0..1, or -1 for unknown (negative, NaN, infinite). */
    private static double share(double v) {
        return Double.isFinite(v) && v >= 0 ? Math.min(1.0, v) : -1;
    }

    public boolean known() {
        return processors > 0;
    }

    /** Share of the processors used over the sample's wall time (0..1). */
    public double cpuShare() {
        return !known() || wallMicros <= 0 ? 0 : Math.min(1.0, (double) cpuMicros / wallMicros / processors);
    }

    /**
     * The JIT compiler threads' CPU as a share of the processors over the sample's wall time (0..1, comparable with {@link
     * #cpuShare}); -1 when unknown.
     */
    public double jitShare() {
        return !known() || wallMicros <= 0 || jitMicros < 0 ? -1
                : Math.min(1.0, (double) jitMicros / wallMicros / processors);
    }

    /** Heap in use after the latest collection as a share of the maximum; -1 when unknown. */
    public double heapAfterGcShare() {
        return heapAfterGcBytes < 0 || heapMaxBytes <= 0 ? -1 : (double) heapAfterGcBytes / heapMaxBytes;
    }
}
