package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A topic setting is checked against the broker's own topic config definitions. */
class TopicConfigsTest {
    @Test
    void shouldKnowTheTopicConfigsAUserSetsAndNotTheInternalOnes() {
        assertTrue(TopicConfigs.names().containsAll(java.util.List.of("min.insync.replicas", "retention.ms",
                "segment.bytes", "compression.type", "cleanup.policy", "max.message.bytes")));
        assertFalse(TopicConfigs.names().contains("internal.segment.bytes"), "internal: not a user's to set");
        assertFalse(TopicConfigs.names().contains("linger.ms"), "a producer config, not a topic's");
    }

    @Test
    void shouldTakeWhatABrokerTakesAndSayWhyNot() {
        assertNull(TopicConfigs.valueProblem("retention.ms", "-1"));
        assertNull(TopicConfigs.valueProblem("cleanup.policy", "compact,delete"));
        assertNull(TopicConfigs.valueProblem("no.such.config", "x"), "an unknown name is the caller's to judge");
        assertEquals("Invalid value 7d for configuration retention.ms: Not a number of type LONG",
                TopicConfigs.valueProblem("retention.ms", "7d"));
        assertEquals("Invalid value 0 for configuration min.insync.replicas: Value must be at least 1",
                TopicConfigs.valueProblem("min.insync.replicas", "0"));
        String policy = TopicConfigs.valueProblem("cleanup.policy", "compacted");
        assertTrue(policy != null && policy.contains("compacted"), policy);
    }
}
