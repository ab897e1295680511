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
}
