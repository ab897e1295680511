package io.kbench.coordinator.merge;

import io.kbench.protocol.HostSample;

/**
 * The client hosts in one interval, across the workers that reported their process's figures: CPU as a share
 * of each worker's processors (mean and the busiest worker), the longest garbage-collection time any worker
 * spent in the interval, and the fullest heap after a collection (share of its maximum). Constant size whatever
 * the number of workers.
 *
 * @param workers        workers that reported host figures (0: none did, {@link #NONE})
 * @param cpuMean        mean over those workers of CPU used / (interval × processors)
 * @param cpuMax         the busiest worker's share
 * @param busiest        that worker's id
 * @param gcMicrosMax    the most collection time of one worker in the interval, µs
 * @param heapAfterGcMax the fullest heap after its latest collection, share of its maximum (-1: unknown)
 * @param stallMicrosMax the longest a load thread of any worker woke late from a park in the interval ({@code
 *                       HostSample#stallMicros}), µs; -1 when no worker measured it
 * @param hostBusyMax    the busiest worker host's share of CPU time spent running, by every process on it ({@code
 *                       HostSample#hostBusyShare}), 0..1; -1 when no worker measured it
 * @param hostStealMax   the most CPU time a worker host's hypervisor stole, as a share, 0..1; -1 when none measured it
 * @param jitShareMax    the most CPU a worker's JIT compiler threads used, as a share of its processors ({@code
 *                       HostSample#jitShare}), 0..1; -1 when no worker measured it
 */
public record HostFigures(int workers, double cpuMean, double cpuMax, String busiest, long gcMicrosMax,
                          double heapAfterGcMax, long stallMicrosMax, double hostBusyMax, double hostStealMax,
                          double jitShareMax) {
    public static final HostFigures NONE = new HostFigures(0, 0, 0, "", 0, -1, -1, -1, -1, -1);

    /** Adds the workers' samples of one interval up. Not thread-safe. */
    public static final class Accumulator {
        private int workers;
        private double cpuSum;
        private double cpuMax = -1;
        private String busiest = "";
        private long gcMax;
        private double heapMax = -1;
        private long stallMax = -1;
        private double hostBusyMax = -1;
        private double hostStealMax = -1;
        private double jitMax = -1;

        /** Adds one worker's sample; unknown samples are skipped. */
        public void add(String workerId, HostSample s) {
            if (!s.known()) {
                return;
            }
            double cpu = s.cpuShare();
            workers++;
            cpuSum += cpu;
            if (cpu > cpuMax) {
                cpuMax = cpu;
                busiest = workerId;
            }
            gcMax = Math.max(gcMax, s.gcMicros());
            heapMax = Math.max(heapMax, s.heapAfterGcShare());
            stallMax = Math.max(stallMax, s.stallMicros());
            hostBusyMax = Math.max(hostBusyMax, s.hostBusyShare());
            hostStealMax = Math.max(hostStealMax, s.hostStealShare());
            jitMax = Math.max(jitMax, s.jitShare());
        }

        public HostFigures result() {
            return workers == 0 ? NONE : new HostFigures(workers, cpuSum / workers, cpuMax, busiest, gcMax, heapMax,
                    stallMax, hostBusyMax, hostStealMax, jitMax);
        }
    }
}
