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
}
