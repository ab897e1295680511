package io.kbench.worker;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The keys producers send, prepared before the run so choosing a key costs an array lookup. HOT PATH:
 * {@link #keyFor(long)}.
 *
 * <p>Keys are the UTF-8 bytes of {@code "key-<n>"}. Round-robin takes key {@code i mod count} for message
 * {@code i}; random and Zipf cycle through a precomputed sequence of {@link #SEQUENCE_LENGTH} draws.
 *
 * <p>Memory does not grow with the key count (a workload may name 100,000,000 keys) nor with the number of
 * producers: {@link #of} builds one table per worker, and {@link #forProducer} gives each producer a view
 * of it. Random and Zipf draw {@link #SEQUENCE_LENGTH} keys and keep only the distinct ones drawn (Zipf by
 * rejection-inversion sampling, which needs no table over all keys); each producer starts the shared
 * sequence at its own offset. Round-robin precomputes up to {@link #SEQUENCE_LENGTH} keys; beyond that each
 * producer writes the key's digits into a reused array per key length — the driver copies the key
 * during {@code send}, as {@link io.kbench.driver.ProducerHandle#send} allows.
 *
 * <p>Threads: {@link #of} and {@link #forProducer} run during prepare; each view is used by one load thread.
 */
public final class Keys {
    /** Length of a precomputed random sequence, and most keys precomputed for round-robin (a power of two). */
    static final int SEQUENCE_LENGTH = 1 << 16;
    private static final byte[] PREFIX = "key-".getBytes(StandardCharsets.US_ASCII);

    /** How keys are chosen. */
    public enum Distribution { NONE, ROUND_ROBIN, RANDOM, ZIPF }

    /** Round-robin keys 0..count-1 or the drawn sequence; null for no keys or generated round-robin keys. */
    private final byte[][] table;
    private final boolean roundRobin;
    private final int count;
    private final int offset;
    /** Round-robin beyond the table: one array per decimal length of n, {@code "key-" + digits}. */
    private final byte[][] scratch;

    private Keys(byte[][] table, boolean roundRobin, int count, int offset, byte[][] scratch) {
        this.table = table;
        this.roundRobin = roundRobin;
        this.count = count;
        this.offset = offset;
        this.scratch = scratch;
    }

    /** No keys: {@link #keyFor} returns null. */
    public static final Keys NONE = new Keys(null, false, 0, 0, null);

    /**
     * The keys of one worker's producers, usable as the first producer's; {@link #forProducer} gives the others.
     *
     * @param count        distinct keys, 1 or more
     * @param zipfExponent exponent of the Zipf distribution (> 0), unused otherwise
     * @param seed         seed of the random draws
     */
    public static Keys of(Distribution distribution, int count, double zipfExponent, long seed) {
        if (distribution == Distribution.NONE) {
            return NONE;
        }
        if (count < 1) {
            throw new IllegalArgumentException("key count must be >= 1, got " + count);
        }
        if (distribution == Distribution.ROUND_ROBIN) {
            if (count > SEQUENCE_LENGTH) {
                return new Keys(null, true, count, 0, scratchArrays());
            }
            byte[][] keys = new byte[count][];
            for (int i = 0; i < count; i++) {
                keys[i] = name(i).getBytes(StandardCharsets.UTF_8);
            }
            return new Keys(keys, true, count, 0, null);
        }
        SplittableRandom random = new SplittableRandom(seed);
        Zipf zipf = distribution == Distribution.ZIPF ? new Zipf(count, zipfExponent) : null;
        Map<Integer, byte[]> drawn = new HashMap<>();
        byte[][] sequence = new byte[SEQUENCE_LENGTH][];
        for (int i = 0; i < sequence.length; i++) {
            int k = zipf != null ? zipf.sample(random) : random.nextInt(count);
            sequence[i] = drawn.computeIfAbsent(k, n -> name(n).getBytes(StandardCharsets.UTF_8));
        }
        return new Keys(sequence, false, count, 0, null);
    }

    /** Most bytes {@link #sized} keeps in distinct keys, whatever their size. */
    static final int SIZED_BYTES = 4 * 1024 * 1024;

    /**
     * Keys of {@code size} bytes each, as Kafka's EndToEndLatency sends them: one random capital letter repeated. Up
     * to 26 distinct keys (fewer when 26 would take more than {@link #SIZED_BYTES}), in a sequence drawn from
     * {@code seed}; each producer reads it from its own offset ({@link #forProducer}).
     */
    public static Keys sized(int size, long seed) {
        if (size < 1) {
            throw new IllegalArgumentException("key size must be >= 1, got " + size);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int distinct = Math.max(1, Math.min(26, SIZED_BYTES / size));
        byte[][] keys = new byte[distinct][];
        for (int i = 0; i < distinct; i++) {
            keys[i] = new byte[size];
            java.util.Arrays.fill(keys[i], (byte) ('A' + i));
        }
        byte[][] sequence = new byte[SEQUENCE_LENGTH][];
        for (int i = 0; i < sequence.length; i++) {
            sequence[i] = keys[random.nextInt(distinct)];
        }
        return new Keys(sequence, false, distinct, 0, null);
    }

    /** {@code length} copies of one random capital letter (Kafka's EndToEndLatency's keys, values and headers). */
    static byte[] letters(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte) ('A' + random.nextInt(26)));
        return b;
    }

    /**
     * This worker's keys as one producer sends them: round-robin from key 0, random and Zipf from an offset
     * into the shared sequence chosen by {@code producerSeed}, so producers do not send the same key at once.
     */
    public Keys forProducer(long producerSeed) {
        if (table == null && !roundRobin) {
            return NONE;
        }
        if (roundRobin) {
            return new Keys(table, true, count, 0, table == null ? scratchArrays() : null);
        }
        int start = (int) (new SplittableRandom(producerSeed).nextLong() & (SEQUENCE_LENGTH - 1));
        return new Keys(table, false, count, start, null);
    }

    private static byte[][] scratchArrays() {
        byte[][] s = new byte[11][];
        for (int digits = 1; digits < s.length; digits++) {
            s[digits] = new byte[PREFIX.length + digits];
            System.arraycopy(PREFIX, 0, s[digits], 0, PREFIX.length);
        }
        return s;
    }

    /** The key's name: {@code key-<n>}. */
    public static String name(int n) {
        return "key-" + n;
    }

    // HOT PATH
    public byte[] keyFor(long messageIndex) {
        if (roundRobin) {
            int n = (int) (messageIndex % count);
            return table != null ? table[n] : write(n);
        }
        if (table == null) {
            return null;
        }
        return table[(int) ((messageIndex + offset) & (SEQUENCE_LENGTH - 1))];
    }

    // HOT PATH: n's decimal digits into the reused array of its length
    private byte[] write(int n) {
        int digits = 1;
        for (int v = n; v >= 10; v /= 10) {
            digits++;
        }
        byte[] out = scratch[digits];
        int v = n;
        for (int i = out.length - 1; i >= PREFIX.length; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return out;
    }

    /**
     * Zipf-distributed key indices 0..n-1 with P(k) proportional to 1 / (k+1)^s, drawn by rejection-inversion
     * (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
     * distributions", 1996): constant memory and expected time for any n.
     */
    static final class Zipf {
        private final int n;
        private final double s;
        private final double hIntegralX1;
        private final double hIntegralN;
        private final double squeeze;

        Zipf(int n, double s) {
            if (n < 1 || !(s > 0)) {
                throw new IllegalArgumentException("zipf needs n >= 1 and exponent > 0, got " + n + ", " + s);
            }
            this.n = n;
            this.s = s;
            this.hIntegralX1 = hIntegral(1.5) - 1;
            this.hIntegralN = hIntegral(n + 0.5);
            this.squeeze = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
        }

        /** A key index, 0 (most frequent) to n-1. */
        int sample(SplittableRandom random) {
            while (true) {
                double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
                double x = hIntegralInverse(u);
                long k = Math.max(1, Math.min(n, (long) (x + 0.5)));
                if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) {
                    return (int) (k - 1);
                }
            }
        }

        /** h(x) = x^-s, the density the discrete distribution follows. */
        private double h(double x) {
            return Math.exp(-s * Math.log(x));
        }

        /** H(x), an antiderivative of h: (x^(1-s) - 1) / (1-s), log x at s = 1. */
        private double hIntegral(double x) {
            double logX = Math.log(x);
            return expm1OverX((1 - s) * logX) * logX;
        }

        private double hIntegralInverse(double y) {
            double t = y * (1 - s);
            if (t < -1) {
                t = -1; // rounding at the distribution's far end
            }
            return Math.exp(log1pOverX(t) * y);
        }

        /** log(1+x)/x, continuous at 0. */
        private static double log1pOverX(double x) {
            return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
        }

        /** (e^x - 1)/x, continuous at 0. */
        private static double expm1OverX(double x) {
            return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
        }
    }
}
