package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;

class ClientOverridesTest {
    /** One flag giving a key twice leaves no telling which value was meant; the refusal repeats neither value. */
    @Test
    void shouldRefuseAKeyGivenTwiceInOneFlag() {
        UserException e = assertThrows(UserException.class, () -> new ClientOverrides()
                .pairs(List.of("producer.batch.size=1000", "producer.acks=all", " producer.batch.size = 2000"), null,
                        "--set"));
        assertEquals("--set producer.batch.size is given twice; give each key once", e.getMessage());
        UserException secret = assertThrows(UserException.class, () -> new ClientOverrides()
                .pairs(List.of("sasl.jaas.config=one-secret", "sasl.jaas.config=other-secret"), "producer",
                        "--producer-props"));
        assertEquals("--producer-props sasl.jaas.config is given twice; give each key once", secret.getMessage());
    }

    /** Later sources still win over earlier ones: --set over a file, one flag over another. */
    @Test
    void shouldLetALaterFlagOverrideAnEarlierOne() {
        ClientOverrides o = new ClientOverrides()
                .pairs(List.of("batch.size=1000"), "producer", "--producer-props")
                .pairs(List.of("producer.batch.size=2000"), null, "--set");
        assertEquals(List.of("producer.batch.size"), List.copyOf(o.keys()));
        assertEquals("--set", o.source("producer.batch.size"));
    }
}
