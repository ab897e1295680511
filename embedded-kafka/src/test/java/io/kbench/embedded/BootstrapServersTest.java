package io.kbench.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bootstrap list a broker prints is one its clients and kbench's --bootstrap-servers take. */
class BootstrapServersTest {
    @Test
    void shouldBracketAnIpv6AddressAndLeaveOthersAlone() {
        assertEquals("[::1]:9092", EmbeddedKafka.hostPort("::1", 9092), "::1:9092 is refused as HOST:PORT");
        assertEquals("[fe80::1%eth0]:9092", EmbeddedKafka.hostPort("fe80::1%eth0", 9092));
        assertEquals("[::1]:9092", EmbeddedKafka.hostPort("[::1]", 9092), "bracketed once only");
        assertEquals("127.0.0.1:9092", EmbeddedKafka.hostPort("127.0.0.1", 9092));
        assertEquals("broker-1.example:9092", EmbeddedKafka.hostPort("broker-1.example", 9092));
    }
}
