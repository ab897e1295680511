package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The consumers' receive buffer is left to the OS for brokers on loopback, and only when nothing else sets it. */
class LoopbackSocketsTest {
    @TempDir
    Path dir;

    private Sweep sweep(String text) throws IOException {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, text);
        return Sweep.load(p);
    }

    @Test
    void shouldTellLoopbackAddressesFromOthers() {
        assertTrue(LoopbackSockets.loopback("127.0.0.1:9092"));
        assertTrue(LoopbackSockets.loopback("localhost:9092, 127.1.2.3:9093,[::1]:9094"));
        assertTrue(LoopbackSockets.loopback("LOCALHOST:1"));
        assertFalse(LoopbackSockets.loopback("127.0.0.1:9092,10.0.0.5:9092"), "one broker elsewhere: a network");
        assertFalse(LoopbackSockets.loopback("kafka-0.kafka:9092"));
        assertFalse(LoopbackSockets.loopback("127.0.0.1.example.com:9092"));
        assertFalse(LoopbackSockets.loopback("[fe80::1]:9092"));
        assertFalse(LoopbackSockets.loopback(null));
        assertFalse(LoopbackSockets.loopback(" "));
    }

    @Test
    void shouldLeaveTheBufferToTheOsOnlyWhenNothingSetsIt() throws IOException {
        Sweep plain = sweep("durationSeconds: 5\n");
        List<String> notes = new ArrayList<>();
        Profile embedded = LoopbackSockets.apply(Profile.defaults(), plain, null, true, notes::add);
        assertEquals("-1", embedded.consumer().get("receive.buffer.bytes"));
        assertEquals(1, notes.size());
        assertEquals("consumer.receive.buffer.bytes -1 for brokers on loopback: Kafka's 64 KB default stalls fetches "
                + "there for about 200 ms (docs/metrics.md#brokers-on-loopback)", notes.get(0));
        assertEquals("-1", LoopbackSockets.apply(Profile.defaults(), plain, "localhost:9092", false, s -> { })
                .consumer().get("receive.buffer.bytes"), "kbench broker on this host");

        notes.clear();
        Profile remote = Profile.defaults();
        assertSame(remote, LoopbackSockets.apply(remote, plain, "kafka-0:9092", false, notes::add), "a network: Kafka's default");
        Profile given = Profile.defaults().with(Map.of("consumer.receive.buffer.bytes", "65536"));
        assertSame(given, LoopbackSockets.apply(given, plain, null, true, notes::add), "the profile's value is measured");
        Profile common = Profile.defaults().with(Map.of("common.receive.buffer.bytes", "131072"));
        assertSame(common, LoopbackSockets.apply(common, plain, null, true, notes::add));
        Sweep swept = sweep("durationSeconds: 5\nmatrix:\n  consumer.receive.buffer.bytes: [65536, -1]\n");
        assertNull(LoopbackSockets.apply(Profile.defaults(), swept, null, true, notes::add).consumer()
                .get("receive.buffer.bytes"), "the matrix's values are measured, each");
        Sweep producersOnly = sweep("durationSeconds: 5\nsubscriptionsPerTopic: 0\n");
        assertNull(LoopbackSockets.apply(Profile.defaults(), producersOnly, null, true, notes::add).consumer()
                .get("receive.buffer.bytes"), "no consumers: nothing to say");
        assertEquals(List.of(), notes);
    }
}
