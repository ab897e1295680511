package io.kbench.worker;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The keys one producer sends, prepared before the run so choosing a key costs an array lookup. HOT PATH:
 * {@link #keyFor(long)}.
 *
 * <p>Keys are the UTF-8 bytes of {@code "key-<n>"}. Round-robin takes key {@code i mod count} for message
 * {@code i}; random and Zipf draw from a precomputed sequence of {@link #SEQUENCE_LENGTH} key indices
 * (seeded per producer, so producers differ), cycled.
 */
public final class Keys {
    /** Length of a precomputed random sequence (a power of two). */
    static final int SEQUENCE_LENGTH = 1 << 16;

    /** How keys are chosen. */
    public enum Distribution { NONE, ROUND_ROBIN, RANDOM, ZIPF }

    private final byte[][] keys;
    private final int[] sequence;
    private final boolean roundRobin;

    private Keys(byte[][] keys, int[] sequence, boolean roundRobin) {
        this.keys = keys;
        this.sequence = sequence;
        this.roundRobin = roundRobin;
    }

    /** No keys: {@link #keyFor} returns null. */
    public static final Keys NONE = new Keys(null, null, false);

    public static Keys of(Distribution distribution, int count, double zipfExponent, long seed) {
        if (distribution == Distribution.NONE) {
            return NONE;
        }
        if (count < 1) {
            throw new IllegalArgumentException("key count must be >= 1, got " + count);
        }
        byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = name(i).getBytes(StandardCharsets.UTF_8);
        }
        if (distribution == Distribution.ROUND_ROBIN) {
            return new Keys(keys, null, true);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] sequence = new int[SEQUENCE_LENGTH];
        if (distribution == Distribution.RANDOM) {
            for (int i = 0; i < sequence.length; i++) {
                sequence[i] = random.nextInt(count);
            }
        } else {
            if (!(zipfExponent > 0)) {
                throw new IllegalArgumentException("zipf exponent must be > 0, got " + zipfExponent);
            }
            double[] cumulative = zipfCumulative(count, zipfExponent);
            for (int i = 0; i < sequence.length; i++) {
                sequence[i] = draw(cumulative, random.nextDouble());
            }
        }
        return new Keys(keys, sequence, false);
    }

    /** The key's name: {@code key-<n>}. */
    public static String name(int n) {
        return "key-" + n;
    }

    // HOT PATH
    public byte[] keyFor(long messageIndex) {
        if (keys == null) {
            return null;
        }
        if (roundRobin) {
            return keys[(int) (messageIndex % keys.length)];
        }
        return keys[sequence[(int) (messageIndex & (SEQUENCE_LENGTH - 1))]];
    }

    /** P(key <= k) for k = 0..count-1, with P(k) proportional to 1 / (k+1)^s. */
    static double[] zipfCumulative(int count, double s) {
        double[] c = new double[count];
        double sum = 0;
        for (int k = 0; k < count; k++) {
            sum += 1.0 / Math.pow(k + 1, s);
            c[k] = sum;
        }
        for (int k = 0; k < count; k++) {
            c[k] /= sum;
        }
        c[count - 1] = 1.0;
        return c;
    }

    /** The smallest k with cumulative[k] > u. */
    static int draw(double[] cumulative, double u) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
