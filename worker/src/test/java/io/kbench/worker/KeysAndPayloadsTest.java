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

    private static Map<String, Integer> histogram(Keys keys, int messages) {
        Map<String, Integer> counts = new HashMap<>();
        for (long i = 0; i < messages; i++) {
            counts.merge(new String(keys.keyFor(i), StandardCharsets.UTF_8), 1, Integer::sum);
        }
        return counts;
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

    @Test
    void shouldCycleExplicitValuesInOrder() {
        Payloads p = Payloads.of(List.of(new byte[] {1}, new byte[] {2}, new byte[] {3}));
        assertArrayEquals(new byte[] {1}, p.valueFor(0));
        assertArrayEquals(new byte[] {3}, p.valueFor(2));
        assertArrayEquals(new byte[] {1}, p.valueFor(3));
    }
}
