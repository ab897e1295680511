package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClientConfigDefsTest {
    @Test
    void shouldNameEachClientsConfigsAndTheirUnionForCommon() {
        assertTrue(ClientConfigDefs.names("producer").contains("linger.ms"));
        assertFalse(ClientConfigDefs.names("producer").contains("fetch.min.bytes"));
        assertTrue(ClientConfigDefs.names("consumer").contains("fetch.min.bytes"));
        assertTrue(ClientConfigDefs.names("consumer").contains("share.acknowledgement.mode"), "the share consumer's too");
        assertTrue(ClientConfigDefs.names("admin").contains("default.api.timeout.ms"));
        assertTrue(ClientConfigDefs.names("common").containsAll(ClientConfigDefs.names("producer")));
        assertTrue(ClientConfigDefs.names("common").containsAll(ClientConfigDefs.names("consumer")));
        assertTrue(ClientConfigDefs.names("common").contains("security.protocol"));
        assertEquals(java.util.Set.of(), ClientConfigDefs.names("topic"), "not a client's section");
    }

    @Test
    void shouldSayWhyAValueIsNotTakenInKafkasOwnWords() {
        assertEquals("Invalid value al for configuration acks: String must be one of: all, -1, 0, 1",
                ClientConfigDefs.valueProblem("producer", "acks", "al"));
        assertEquals("Invalid value 5ms for configuration linger.ms: Not a number of type LONG",
                ClientConfigDefs.valueProblem("producer", "linger.ms", "5ms"));
        assertTrue(ClientConfigDefs.valueProblem("consumer", "fetch.min.bytes", "-1").contains("at least 0"),
                ClientConfigDefs.valueProblem("consumer", "fetch.min.bytes", "-1"));
        assertTrue(ClientConfigDefs.valueProblem("common", "security.protocol", "SSLL").contains("security.protocol"));
        assertNull(ClientConfigDefs.valueProblem("producer", "linger.ms", "5"));
        assertNull(ClientConfigDefs.valueProblem("common", "linger.ms", "5"), "taken by the one client that defines it");
        assertTrue(ClientConfigDefs.valueProblem("common", "linger.ms", "x") != null);
        assertNull(ClientConfigDefs.valueProblem("producer", "no.such.config", "x"), "a name it does not define: not its to say");
        assertNull(ClientConfigDefs.valueProblem("producer", "partitioner.class", "org.example.OnTheWorkersOnly"),
                "a class is loaded where the client runs");
    }

    @Test
    void shouldSayWhyTheClientsRefuseSettingsTogetherInKafkasOwnWords() {
        java.util.Map<String, String> inFlight = java.util.Map.of("max.in.flight.requests.per.connection", "10");
        assertEquals("To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. "
                + "Current value is 10.", ClientConfigDefs.togetherProblem("producer", inFlight, false));
        assertNull(ClientConfigDefs.togetherProblem("producer", java.util.Map.of("max.in.flight.requests.per.connection",
                "10", "enable.idempotence", "false"), false), "idempotence off: taken");
        assertNull(ClientConfigDefs.togetherProblem("producer", java.util.Map.of("acks", "1"), false),
                "acks=1 alone: the producer starts (idempotence is only implied)");
        assertEquals("Cannot set a transactional.id without also enabling idempotence.", ClientConfigDefs.togetherProblem(
                "producer", java.util.Map.of("enable.idempotence", "false"), true));
        assertEquals("partition.assignment.strategy cannot be set when group.protocol=CONSUMER",
                ClientConfigDefs.togetherProblem("consumer", java.util.Map.of("group.protocol", "consumer",
                        "partition.assignment.strategy", "org.apache.kafka.clients.consumer.RoundRobinAssignor"), false));
        assertNull(ClientConfigDefs.togetherProblem("consumer", java.util.Map.of("fetch.min.bytes", "1",
                "linger.ms", "5", "no.such.config", "x"), false), "a common section's other names: not the consumer's");
        assertNull(ClientConfigDefs.togetherProblem("producer", java.util.Map.of("interceptor.classes",
                "org.example.OnTheWorkersOnly", "partitioner.class", "org.example.Mine"), false), "classes load on the workers");
        assertNull(ClientConfigDefs.togetherProblem("producer", java.util.Map.of("config.providers", "file",
                "max.in.flight.requests.per.connection", "${file:/etc/kafka/p:inflight}"), false),
                "a config provider's values resolve where the client runs");
    }
}
