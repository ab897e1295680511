package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;

import io.kbench.protocol.BrokerSample;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Broker sources {@code local:N}: the embedded cluster's nodes in JVMs of their own, read through this process. */
class EmbeddedBrokersTest {
    @AfterEach
    void noReader() {
        EmbeddedBrokers.readWith(null);
    }

    @Test
    void shouldKnowOnlyLocalOneToNine() {
        assertEquals(1, EmbeddedBrokers.node("local:1"));
        assertEquals(9, EmbeddedBrokers.node("local:9"));
        for (String other : new String[] {"local", "local:0", "local:10", "local:", "local:a", "x:1", "broker:9092"}) {
            assertEquals(-1, EmbeddedBrokers.node(other), other);
        }
    }

    @Test
    void shouldRefuseANodeThisProcessDoesNotRun() {
        IOException e = assertThrows(IOException.class, () -> BrokerScraper.open("local:2", 500));
        assertTrue(e.getMessage().startsWith("no embedded broker 2 runs from this worker's process"), e.getMessage());
    }

    @Test
    void shouldReadTheNodeAskedForUnderItsOwnLabelAndSayWhenItCannot() throws IOException {
        double[] count = {1_000};
        EmbeddedBrokers.readWith((node, timeout) -> {
            if (node == 3) {
                throw new IOException("broker 3 is stopped");
            }
            count[0] += 1_000 * node;
            return Map.of("BytesInPerSec.count", count[0]);
        });
        BrokerScraper two = BrokerScraper.open("local:2", 500); // read once while prepared
        assertEquals("embedded-2", two.source());
        assertEquals("", two.sample(1_000_000_000L).error(), "the baseline");
        BrokerSample s = two.sample(2_000_000_000L);
        assertEquals("", s.error());
        IOException refused = assertThrows(IOException.class, () -> BrokerScraper.open("local:3", 500));
        assertEquals("broker 3 is stopped", refused.getMessage());
        EmbeddedBrokers.readWith(null); // the cluster stopped
        assertEquals("not read: IOException: the embedded cluster is stopped", two.sample(3_000_000_000L).error());
    }
}
