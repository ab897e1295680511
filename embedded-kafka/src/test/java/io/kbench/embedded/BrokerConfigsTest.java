package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A broker setting is checked against Kafka's own broker config definitions. */
class BrokerConfigsTest {
    @Test
    void shouldTakeWhatABrokerTakesAndSayWhyNot() {
        assertNull(BrokerConfigs.problem("num.partitions", "3"));
        assertNull(BrokerConfigs.problem("log.flush.interval.ms", "1000"));
        assertNull(BrokerConfigs.problem("listener.name.plain.ssl.keystore.type", "PKCS12"), "listener-prefixed: as given");
        assertEquals("'num.io.thread' is not a Kafka broker config", BrokerConfigs.problem("num.io.thread", "4"));
        assertEquals("Invalid value four for configuration num.io.threads: Not a number of type INT",
                BrokerConfigs.problem("num.io.threads", "four"));
        assertEquals("Invalid value 0 for configuration num.io.threads: Value must be at least 1",
                BrokerConfigs.problem("num.io.threads", "0"));
    }
}
