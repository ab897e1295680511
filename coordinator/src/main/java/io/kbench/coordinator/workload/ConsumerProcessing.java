package io.kbench.coordinator.workload;

/**
 * The time every consumer, classic or share, spends on each message it receives ({@code consumerProcessingMillis},
 * {@code consumerProcessingDistribution}): a mean, and how each message's time is drawn around it.
 *
 * @param meanMicros   the mean time per message (0: none)
 * @param distribution how each message's time is drawn
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"consumerProcessingMillis", "consumerProcessingDistribution"})
public record ConsumerProcessing(@com.fasterxml.jackson.annotation.JsonIgnore long meanMicros,
                                 @com.fasterxml.jackson.annotation.JsonProperty("consumerProcessingDistribution")
                                 Distribution distribution) {
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

    /** The mean in ms, as the workload file says it (result.json keeps the workload by its keys, for --repeat). */
    @com.fasterxml.jackson.annotation.JsonProperty("consumerProcessingMillis")
    public double meanMillis() {
        return meanMicros / 1000.0;
    }

    public ConsumerProcessing {
        if (meanMicros < 0) {
            throw new IllegalArgumentException("processing " + meanMicros + " µs");
        }
        distribution = distribution == null ? Distribution.fixed : distribution;
    }
}
