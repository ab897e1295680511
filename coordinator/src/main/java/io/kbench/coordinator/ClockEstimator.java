package io.kbench.coordinator;

import java.util.List;

/**
 * NTP-style estimate of a worker's clock offset from ping samples. For a sample sent at coordinator time
 * {@code t0}, answered with worker time {@code tw} and received at {@code t1}, the worker read its clock
 * somewhere within [t0, t1], so {@code offset = tw - (t0 + t1) / 2} is off by at most half the round trip.
 * The sample with the lowest round trip gives the tightest bound. Pure.
 */
public final class ClockEstimator {
    private ClockEstimator() { }

    /** One ping: coordinator send time, worker clock reading, coordinator receive time (all µs). */
    public record Sample(long sentMicros, long workerMicros, long receivedMicros) {
        long roundTrip() {
            return receivedMicros - sentMicros;
        }
    }

    /**
     * @param offsetMicros      worker clock minus coordinator clock
     * @param uncertaintyMicros the offset is within ± this (half the best round trip)
     */
    public record Estimate(long offsetMicros, long uncertaintyMicros) { }

    public static Estimate estimate(List<Sample> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no clock samples");
        }
        Sample best = samples.get(0);
        for (Sample s : samples) {
            if (s.roundTrip() < best.roundTrip()) {
                best = s;
            }
        }
        long mid = best.sentMicros() + best.roundTrip() / 2;
        return new Estimate(best.workerMicros() - mid, (best.roundTrip() + 1) / 2);
    }

    /**
     * One worker's clock over a run: the estimate in effect and how the estimates moved. A worker that reads
     * the coordinator's own clock (in-process) has offset 0 exactly and is never re-estimated.
     *
     * <p>A new estimate replaces the one in effect when it is tighter, or when the two cannot both be right
     * (their ± intervals do not overlap: the clocks drifted apart). The worker's uncertainty is the largest
     * ± of the estimates in effect plus the largest correction made (drift between two estimates shows in
     * the correction). Not thread-safe.
     */
    public static final class WorkerClock {
        private final boolean sameClock;
        private final long initialOffset;
        private long offset;
        private long uncertainty;
        private long maxUncertainty;
        private long maxStep;
        private int estimates;
        private int corrections;

        private WorkerClock(boolean sameClock, Estimate first) {
            this.sameClock = sameClock;
            this.initialOffset = first.offsetMicros();
            this.offset = first.offsetMicros();
            this.uncertainty = first.uncertaintyMicros();
            this.maxUncertainty = first.uncertaintyMicros();
            this.estimates = 1;
        }

        /** A worker reading the coordinator's own clock: offset 0 ± 0. */
        public static WorkerClock same() {
            return new WorkerClock(true, new Estimate(0, 0));
        }

        /** A worker whose offset was estimated as {@code first}. */
        public static WorkerClock estimated(Estimate first) {
            return new WorkerClock(false, first);
        }

        public boolean sameClock() {
            return sameClock;
        }

        /**
         * Considers a newer estimate.
         *
         * @return true when it replaces the one in effect (the worker must be told the new {@link #offset()})
         */
        public boolean offer(Estimate e) {
            if (sameClock) {
                return false;
            }
            estimates++;
            long step = Math.abs(e.offsetMicros() - offset);
            boolean tighter = e.uncertaintyMicros() < uncertainty;
            boolean disagrees = step > e.uncertaintyMicros() + uncertainty;
            if (!tighter && !disagrees) {
                return false;
            }
            corrections++;
            maxStep = Math.max(maxStep, step);
            offset = e.offsetMicros();
            uncertainty = e.uncertaintyMicros();
            maxUncertainty = Math.max(maxUncertainty, uncertainty);
            return true;
        }

        /** The offset in effect (worker clock minus coordinator clock). */
        public long offset() {
            return offset;
        }

        /** The offset first estimated. */
        public long initialOffset() {
            return initialOffset;
        }

        /** Bound on the error of any offset in effect during the run: largest ± plus largest correction. */
        public long uncertainty() {
            return maxUncertainty + maxStep;
        }

        /** Largest correction made during the run (0 when none). */
        public long maxStep() {
            return maxStep;
        }

        /** Estimates taken (the first included). */
        public int estimates() {
            return estimates;
        }

        /** Estimates that replaced the one in effect. */
        public int corrections() {
            return corrections;
        }
    }

    /**
     * Bound on the clock error of an end-to-end sample. A sample is stamped with the producing worker's
     * coordinator time and received in the consuming worker's: its error is the difference of their offset
     * errors, at most the sum of their uncertainties. When both are the same worker, the offset errors
     * cancel except for a correction made while a message was in flight. The bound is the worst over every
     * producing and consuming pair; 0 when no worker both produces and consumes and there is no such pair.
     *
     * @param clocks    every worker's clock
     * @param producing whether worker i runs producers
     * @param consuming whether worker i runs consumers
     */
    public static long endToEndBound(List<WorkerClock> clocks, List<Boolean> producing, List<Boolean> consuming) {
        long bound = 0;
        for (int p = 0; p < clocks.size(); p++) {
            if (!producing.get(p)) {
                continue;
            }
            for (int c = 0; c < clocks.size(); c++) {
                if (!consuming.get(c)) {
                    continue;
                }
                long pair = p == c ? clocks.get(p).maxStep()
                        : clocks.get(p).uncertainty() + clocks.get(c).uncertainty();
                bound = Math.max(bound, pair);
            }
        }
        return bound;
    }
}
