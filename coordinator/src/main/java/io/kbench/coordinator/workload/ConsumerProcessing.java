package io.kbench.coordinator.workload;

/**
 * The time every consumer, classic or share, spends on each message it receives ({@code consumerProcessingMillis},
 * {@code consumerProcessingDistribution}): a mean, and how each message's time is drawn around it.
 *
 * @param meanMicros   the mean time per message (0: none)
 * @param distribution how each message's time is drawn
 */
public record ConsumerProcessing(long meanMicros, Distribution distribution) {
    public static final ConsumerProcessing NONE = new ConsumerProcessing(0, Distribution.fixed);

    /** How each message's time is drawn around the mean. */
    public enum Distribution {
        /** Every message the mean. */
        fixed,
        /** Uniform between 0 and twice the mean. */
        uniform,
        /** Exponential with the mean: many short, a few long (each at most a minute). */
        exponential
    }

    public ConsumerProcessing {
        if (meanMicros < 0) {
            throw new IllegalArgumentException("processing " + meanMicros + " µs");
        }
        distribution = distribution == null ? Distribution.fixed : distribution;
    }
}
