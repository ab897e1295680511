package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class ProvenancesTest {
    @Test
    void shouldKeepTheCommandLineButNotTheSecretsInIt() {
        assertEquals(List.of("run", "--set", "common.sasl.jaas.config=[redacted]", "--set=producer.linger.ms=5",
                        "--set=admin.ssl.key.password=[redacted]", "--producer-props", "acks=all", "ssl.truststore.password=[redacted]",
                        "--bootstrap-servers", "b:9092", "w.yaml"),
                Provenances.redacted(List.of("run", "--set", "common.sasl.jaas.config=org.Foo required password=\"x=y\";",
                        "--set=producer.linger.ms=5", "--set=admin.ssl.key.password=hunter2", "--producer-props", "acks=all",
                        "ssl.truststore.password=s3cret", "--bootstrap-servers", "b:9092", "w.yaml")));
    }
}
