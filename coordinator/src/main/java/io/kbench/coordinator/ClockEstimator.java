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
}
