package io.kbench.driver.kafka;

import io.kbench.driver.Driver;
import io.kbench.driver.DriverConfig;
import io.kbench.driver.DriverFactory;
import io.kbench.driver.NanoClock;

/** Registers the Kafka driver under the name {@code kafka}. Stateless. */
public final class KafkaDriverFactory implements DriverFactory {
    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public String version() {
        return "kafka-clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion();
    }

    @Override
    public Driver create(DriverConfig config) {
        return new KafkaDriver(config, NanoClock.SYSTEM);
    }

    @Override
    public Driver create(DriverConfig config, NanoClock clock) {
        return new KafkaDriver(config, clock);
    }
}
