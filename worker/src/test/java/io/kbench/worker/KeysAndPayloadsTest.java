package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class KeysAndPayloadsTest {

    /** A run of {@code producers} producers (and one consumer) sending 1 MB values, keyed round-robin over 1,000 keys. */
    private static RunSpec spec(int producers) {
        List<RunSpec.Producer> p = new java.util.ArrayList<>();
        for (int i = 0; i < producers; i++) {
            p.add(new RunSpec.Producer(i, "t", 10, 0));
        }
        return new RunSpec("r", "coord:1", "wl", 0, "fake", new io.kbench.driver.DriverConfig(Map.of(), Map.of(), Map.of(),
                Map.of()), List.of(), List.of("t"), p, List.of(new RunSpec.Consumer(0, "t", "g")), 1_000_000,
                RunSpec.Values.generated(1 << 20, 1.0), new RunSpec.KeyChoice(Keys.Distribution.ROUND_ROBIN, 1_000, 0, 0),
                null, null, false, true, "d", false, List.of(), null, null, false);
    }

    @Test
    void shouldMakeValuesAndKeysOnlyForAWorkerThatSends() {
        assertNull(RunClients.payloads(spec(0)), "a consumer-only worker generates no values");
        assertEquals(Keys.NONE, RunClients.keys(spec(0)));
        Payloads values = RunClients.payloads(spec(2));
        assertEquals(Payloads.GENERATED_BYTES_CAP >> 20, values.count(), "64 values of 1 MB, shared by the producers");
        assertEquals(1 << 20, values.valueFor(0).length);
        assertTrue(RunClients.keys(spec(1)) != Keys.NONE);
    }

    private static Map<String, Integer> histogram(Keys keys, int messages) {
        Map<String, Integer> counts = new HashMap<>();
        for (long i = 0; i < messages; i++) {
            counts.merge(new String(keys.keyFor(i), StandardCharsets.UTF_8), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void shouldGiveEveryMessageAKeyOfTheSizeAsTheToolsLettersAndBoundTheirMemory() {
        Keys k = Keys.sized(5, 1);
        Map<String, Integer> counts = histogram(k, Keys.SEQUENCE_LENGTH);
        assertEquals(26, counts.size(), "A to Z: " + counts.keySet());
        assertTrue(counts.keySet().stream().allMatch(s -> s.matches("([A-Z])\\1{4}")), counts.keySet().toString());
        assertEquals(5, k.forProducer(7).keyFor(3).length);
        Keys big = Keys.sized(1024 * 1024, 1);
        assertEquals(4, histogram(big, 1000).size(), "26 keys of 1 MiB would be 26 MiB: 4 MiB of them");
        List<io.kbench.driver.MessageHeader> h = new io.kbench.worker.RunSpec.Headers(3, 2, -1).generate(9);
        assertEquals(3, h.size());
        assertTrue(h.stream().allMatch(x -> x.key().matches("([A-Z])\\1") && x.value() == null), h.toString());
        assertEquals(List.of(), io.kbench.worker.RunSpec.Headers.NONE.generate(9));
    }

    @Test
    void shouldCycleKeysExactlyInRoundRobin() {
        Map<String, Integer> counts = histogram(Keys.of(Keys.Distribution.ROUND_ROBIN, 7, 0, 1), 7 * 1000);
        assertEquals(7, counts.size());
        counts.values().forEach(c -> assertEquals(1000, c));
        assertEquals("key-3", new String(Keys.of(Keys.Distribution.ROUND_ROBIN, 7, 0, 1).keyFor(10), StandardCharsets.UTF_8));
    }

    @Test
    void shouldSpreadRandomKeysEvenly() {
        Map<String, Integer> counts = histogram(Keys.of(Keys.Distribution.RANDOM, 10, 0, 42), Keys.SEQUENCE_LENGTH);
        assertEquals(10, counts.size());
        counts.values().forEach(c -> assertTrue(Math.abs(c - Keys.SEQUENCE_LENGTH / 10) < Keys.SEQUENCE_LENGTH / 10 * 0.1, "count " + c));
    }

    @Test
    void shouldSkewZipfKeysAsTheExponentSays() {
        int n = 100;
        double s = 1.0;
        Map<String, Integer> counts = histogram(Keys.of(Keys.Distribution.ZIPF, n, s, 7), Keys.SEQUENCE_LENGTH);
        double harmonic = 0;
        for (int k = 1; k <= n; k++) {
            harmonic += 1.0 / Math.pow(k, s);
        }
        // P(key-0) = 1 / H(n,s) ≈ 19.3% for n=100, s=1; P(key-1) half of that
        double p0 = counts.get("key-0") / (double) Keys.SEQUENCE_LENGTH;
        double p1 = counts.get("key-1") / (double) Keys.SEQUENCE_LENGTH;
        assertEquals(1 / harmonic, p0, 0.01);
        assertEquals(0.5 / harmonic, p1, 0.01);
    }

    @Test
    void shouldSkewZipfKeysOverAHundredMillionKeysWithoutATableOfThem() {
        Runtime rt = Runtime.getRuntime();
        Keys keys = Keys.of(Keys.Distribution.ZIPF, 100_000_000, 1.2, 11);
        Map<String, Integer> counts = histogram(keys, Keys.SEQUENCE_LENGTH);
        // P(key-0) = 1 / zeta-partial(1.2, 1e8) ≈ 1 / 5.54 ≈ 0.18 for s = 1.2 (the tail beyond 1e8 is ~1%)
        double harmonic = 0;
        for (int k = 1; k <= 1_000_000; k++) {
            harmonic += 1.0 / Math.pow(k, 1.2);
        }
        harmonic += (Math.pow(1_000_000, -0.2) - Math.pow(100_000_000, -0.2)) / 0.2; // integral of the rest
        assertEquals(1 / harmonic, counts.get("key-0") / (double) Keys.SEQUENCE_LENGTH, 0.01);
        assertTrue(counts.size() < Keys.SEQUENCE_LENGTH, "only the keys drawn are kept");
        assertTrue(counts.keySet().stream().anyMatch(k -> Integer.parseInt(k.substring(4)) > 1_000_000),
                "the tail is reached: " + counts.size() + " distinct keys");
    }

    @Test
    void shouldGiveEachProducerItsOwnOffsetIntoTheSharedRandomSequence() {
        Keys worker = Keys.of(Keys.Distribution.RANDOM, 1_000_000, 0, 5);
        Keys a = worker.forProducer(1);
        Keys b = worker.forProducer(2);
        int same = 0;
        for (long i = 0; i < 1000; i++) {
            same += java.util.Arrays.equals(a.keyFor(i), b.keyFor(i)) ? 1 : 0;
        }
        assertTrue(same < 10, same + " of 1000 keys equal at the same message index");
        assertEquals(histogram(a, Keys.SEQUENCE_LENGTH), histogram(b, Keys.SEQUENCE_LENGTH),
                "the same draws, from another start");
    }

    @Test
    void shouldWriteRoundRobinKeysBeyondThePrecomputedTable() {
        Keys worker = Keys.of(Keys.Distribution.ROUND_ROBIN, 100_000_000, 0, 1);
        Keys p = worker.forProducer(9);
        assertEquals("key-0", new String(p.keyFor(0), StandardCharsets.UTF_8));
        assertEquals("key-7", new String(p.keyFor(7), StandardCharsets.UTF_8));
        assertEquals("key-1234567", new String(p.keyFor(1_234_567), StandardCharsets.UTF_8));
        assertEquals("key-99999999", new String(p.keyFor(99_999_999), StandardCharsets.UTF_8));
        assertEquals("key-0", new String(p.keyFor(100_000_000), StandardCharsets.UTF_8));
        assertEquals("key-30", new String(p.keyFor(100_000_010L * 3), StandardCharsets.UTF_8));
        Map<String, Integer> counts = histogram(p, 200_000);
        assertEquals(200_000, counts.size(), "every message of the first 200,000 has its own key");
    }

    @Test
    void shouldSendNoKeyWhenNoneIsWanted() {
        assertNull(Keys.NONE.keyFor(5));
    }

    @Test
    void shouldGenerateValuesWithTheRequestedShareOfRandomBytes() {
        Payloads p = Payloads.generate(1000, 0.25, 3);
        byte[] v = p.valueFor(0);
        assertEquals(1000, v.length);
        for (int i = 250; i < 1000; i++) {
            assertEquals(0, v[i], "byte " + i + " should be zero");
        }
        int nonZero = 0;
        for (int i = 0; i < 250; i++) {
            nonZero += v[i] != 0 ? 1 : 0;
        }
        assertTrue(nonZero > 200, "random part looks constant");
        assertTrue(Payloads.generate(10 * 1024 * 1024, 1, 1).count() * 10L * 1024 * 1024 <= Payloads.GENERATED_BYTES_CAP);
    }

    /**
     * Values all random, 100 B, in a 128 KB batch compressed with lz4 (the throughput profile): the batch holds 1,300
     * consecutive values. With 256 distinct values it repeats each about five times and lz4 finds them (about half the
     * size, where the workload asked for incompressible values); with the compressing producers' pool it holds each
     * once and stays incompressible.
     */
    @Test
    void shouldGiveACompressingProducersBatchNoValueTwice() {
        Payloads few = Payloads.generate(100, 1.0, 7);
        Payloads many = Payloads.generate(100, 1.0, 7, Payloads.COMPRESSED_DISTINCT_BYTES);
        assertEquals(256, few.count());
        assertEquals(41_944, many.count());
        assertTrue(lz4Ratio(few, 1_300) < 0.6, "256 values cycled: " + lz4Ratio(few, 1_300));
        assertTrue(lz4Ratio(many, 1_300) > 0.98, "each value once: " + lz4Ratio(many, 1_300));
        // small values: a million at most; large ones: within the 64 MiB cap as before
        assertEquals(419_431, Payloads.generate(10, 1.0, 7, Payloads.COMPRESSED_DISTINCT_BYTES).count());
        assertEquals(Payloads.DISTINCT_MAX, Payloads.generate(1, 1.0, 7, Payloads.COMPRESSED_DISTINCT_BYTES).count());
        assertEquals(64, Payloads.generate(1024 * 1024, 1.0, 7, Payloads.COMPRESSED_DISTINCT_BYTES).count());
    }

    /** Compressed over uncompressed size of one lz4 batch of the first {@code n} values. */
    private static double lz4Ratio(Payloads p, int n) {
        org.apache.kafka.common.record.internal.SimpleRecord[] records =
                new org.apache.kafka.common.record.internal.SimpleRecord[n];
        for (int i = 0; i < n; i++) {
            records[i] = new org.apache.kafka.common.record.internal.SimpleRecord(p.valueFor(i));
        }
        int plain = org.apache.kafka.common.record.internal.MemoryRecords.withRecords(
                org.apache.kafka.common.compress.Compression.NONE, records).sizeInBytes();
        int lz4 = org.apache.kafka.common.record.internal.MemoryRecords.withRecords(
                org.apache.kafka.common.compress.Compression.lz4().build(), records).sizeInBytes();
        return (double) lz4 / plain;
    }

    @Test
    void shouldCycleExplicitValuesInOrder() {
        Payloads p = Payloads.of(List.of(new byte[] {1}, new byte[] {2}, new byte[] {3}));
        assertArrayEquals(new byte[] {1}, p.valueFor(0));
        assertArrayEquals(new byte[] {3}, p.valueFor(2));
        assertArrayEquals(new byte[] {1}, p.valueFor(3));
    }

    @Test
    void shouldNumberMonotonicValuesUniquelyAcrossTheRunsProducers() {
        Payloads one = Payloads.monotonic(0, 1);
        assertEquals("0", new String(one.valueFor(0), StandardCharsets.US_ASCII));
        assertEquals("1234567", new String(one.valueFor(1_234_567), StandardCharsets.US_ASCII));
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int p = 0; p < 3; p++) {
            Payloads mine = Payloads.monotonic(p, 3);
            for (int i = 0; i < 100; i++) {
                assertTrue(seen.add(new String(mine.valueFor(i), StandardCharsets.US_ASCII)));
            }
        }
        assertEquals(300, seen.size());
        assertTrue(seen.contains("0") && seen.contains("299"), "0 .. 299, each once");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Payloads.monotonic(3, 3));
    }
}
