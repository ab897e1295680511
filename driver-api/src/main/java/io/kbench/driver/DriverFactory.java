package io.kbench.driver;

/**
 * Entry point of a driver, registered in {@code META-INF/services/io.kbench.driver.DriverFactory}.
 *
 * <p>Called by the worker's gRPC thread when a run is prepared; implementations must be stateless and
 * thread-safe.
 */
public interface DriverFactory {
    /** The name a profile selects the driver by, e.g. {@code "kafka"}. */
    String name();

    /** The client library and its version, e.g. {@code "kafka-clients 4.3.1"}, for results' provenance. */
    default String version() {
        return "";
    }

    /**
     * Creates a driver for one run.
     *
     * @throws DriverException when the configuration is unusable (the message says which key and why)
     */
    Driver create(DriverConfig config);

    /**
     * Creates a driver for one run whose own time (a producer's wait for room, a consumer's join time, a commit's
     * latency) is read from, and waited on, {@code clock}: the worker's clock, so that the times the driver reports
     * are on the same clock as the worker's and a test can drive both. A driver that reads no time of its own may
     * ignore it (the default).
     *
     * @throws DriverException when the configuration is unusable (the message says which key and why)
     */
    default Driver create(DriverConfig config, NanoClock clock) {
        return create(config);
    }
}
