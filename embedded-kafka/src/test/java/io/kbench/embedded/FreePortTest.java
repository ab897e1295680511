package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The ports of an embedded cluster's listeners: a free port the OS hands out can be the one asked for ({@code kbench
 * broker --port 42039}), not bound until the node starts — BrokerMetricsIT's broker stopped with "If you have two
 * listeners on the same port then one needs to be IPv4 and the other IPv6, listeners: [PLAINTEXT://127.0.0.1:42039,
 * CONTROLLER://127.0.0.1:42039]".
 */
class FreePortTest {
    @Test
    void shouldNeverHandOutAPortAlreadyTaken() {
        Set<Integer> taken = new HashSet<>(Set.of(42039));
        Iterator<Integer> offered = List.of(42039, 42039, 40001, 40001, 40002).iterator();
        assertEquals(40001, EmbeddedKafka.freePort(offered::next, taken), "the asked-for port is passed over");
        assertEquals(40002, EmbeddedKafka.freePort(offered::next, taken), "and so is one handed out before");
        assertEquals(Set.of(42039, 40001, 40002), taken);
        assertThrows(java.io.UncheckedIOException.class, () -> EmbeddedKafka.freePort(() -> 42039, taken),
                "an OS that offers only taken ports: refused, not looped on");
    }
}
