package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.kbench.coordinator.workload.Profile;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * The coordinator cannot import Kafka, so it keeps Kafka's secret client properties in a resource; this test
 * holds that resource to the PASSWORD-typed keys of the kafka-clients kbench ships, so a Kafka upgrade that
 * adds one fails the build instead of printing it.
 */
class SecretKeysTest {
    @Test
    void shouldListExactlyThePasswordKeysOfKafkasClientConfigs() throws IOException {
        Set<String> kafka = new TreeSet<>();
        for (ConfigDef def : List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef())) {
            def.configKeys().forEach((name, key) -> {
                if (key.type == ConfigDef.Type.PASSWORD) {
                    kafka.add(name);
                }
            });
        }
        assertTrue(kafka.contains("sasl.jaas.config"), "kafka-clients' ConfigDefs read: " + kafka);
        Set<String> listed = new TreeSet<>();
        try (InputStream in = Profile.class.getResourceAsStream("secret-keys.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    listed.add(line.strip());
                }
            }
        }
        assertEquals(kafka, listed, "coordinator/src/main/resources/io/kbench/coordinator/workload/secret-keys.txt");
        for (String key : kafka) {
            for (String section : List.of("", "common.", "producer.", "consumer.", "admin.", "listener.name.sasl_ssl.")) {
                assertTrue(Profile.isSecret(section + key), section + key);
            }
        }
    }

    /**
     * The coordinator's notes on consumer settings a share consumer leaves out name exactly those the Kafka driver
     * leaves out of its share consumers.
     */
    @Test
    void shouldNoteExactlyTheConsumerSettingsTheDriverLeavesOutOfShareConsumers() throws Exception {
        java.lang.reflect.Field f = Class.forName("io.kbench.driver.kafka.KafkaDriver")
                .getDeclaredField("NOT_FOR_SHARE_CONSUMERS");
        f.setAccessible(true); // the driver's own, package-private: read as it is
        assertEquals(new TreeSet<>((Set<?>) f.get(null)),
                new TreeSet<>(io.kbench.coordinator.workload.ShareGroups.NOT_FOR_SHARE_CONSUMERS.keySet()));
    }
}
