package io.kbench.worker;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The message values one worker's producers cycle through, prepared before the run. HOT PATH:
 * {@link #valueFor(long)} is an array lookup (monotonic values: one small array per message).
 *
 * <p>Either explicit values (a payload file's records, in order) or generated ones: {@link #GENERATED}
 * distinct values of the message size, each with the given fraction of random bytes and the rest zeros,
 * so compression codecs see data as compressible as the workload says (all-zero payloads would make any
 * compression result meaningless; all-random ones make compression pure cost). Or monotonic: each
 * message's number in decimal ({@link #monotonic}).
 */
public final class Payloads {
    /** Distinct generated values, capped so they take at most {@link #GENERATED_BYTES_CAP} in all. */
    static final int GENERATED = 256;
    static final long GENERATED_BYTES_CAP = 64L * 1024 * 1024;
    /**
     * Distinct values for producers that compress: at least this many bytes of them, so that a batch — compressed on
     * its own — does not hold the same value twice (256 values of 100 B cycled through a 128 KB batch repeat each about
     * five times, and lz4 compressed values that were all random bytes to 0.44 of their size).
     */
    static final long COMPRESSED_DISTINCT_BYTES = 4L * 1024 * 1024;
    /** Most distinct values (each an array: 10-byte values are about 32 bytes apiece). */
    static final int DISTINCT_MAX = 1 << 20;

    private final byte[][] values;
    /** Monotonic values (stride > 0): message i carries {@code first + i * stride} in decimal. */
    private final long first;
    private final long stride;

    private Payloads(byte[][] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no payloads");
        }
        this.values = values;
        this.first = 0;
        this.stride = 0;
    }

    private Payloads(long first, long stride) {
        this.values = null;
        this.first = first;
        this.stride = stride;
    }

    /**
     * kafka-producer-perf-test's {@code --payload-monotonic}: message i of producer {@code producer} (of
     * {@code producers} in the run) carries the decimal ASCII of {@code producer + i * producers}, so the numbers
     * are unique across the run and a single producer sends 0, 1, 2 ... as the tool does. One small array
     * per message, as in the tool.
     */
    public static Payloads monotonic(int producer, int producers) {
        if (producers < 1 || producer < 0 || producer >= producers) {
            throw new IllegalArgumentException("producer " + producer + " of " + producers);
        }
        return new Payloads(producer, producers);
    }

    public static Payloads of(List<byte[]> explicit) {
        return new Payloads(explicit.toArray(new byte[0][]));
    }

    /**
     * @param size             bytes per value
     * @param randomBytesRatio fraction of each value that is random (0 to 1); the rest are zeros
     * @param seed             random seed
     */
    public static Payloads generate(int size, double randomBytesRatio, long seed) {
        return generate(size, randomBytesRatio, seed, 0);
    }

    /**
     * The same, with at least {@code distinctBytes} of distinct values (a compressing producer's batch should not see
     * a value twice: {@link #COMPRESSED_DISTINCT_BYTES}), within {@link #GENERATED_BYTES_CAP} and
     * {@link #DISTINCT_MAX} values.
     */
    public static Payloads generate(int size, double randomBytesRatio, long seed, long distinctBytes) {
        if (randomBytesRatio < 0 || randomBytesRatio > 1) {
            throw new IllegalArgumentException("random bytes ratio must be 0..1, got " + randomBytesRatio);
        }
        long wanted = Math.max(GENERATED, (distinctBytes + Math.max(1, size) - 1) / Math.max(1, size));
        int count = (int) Math.max(1, Math.min(Math.min(wanted, DISTINCT_MAX), GENERATED_BYTES_CAP / Math.max(1, size)));
        int random = (int) Math.round(size * randomBytesRatio);
        SplittableRandom rng = new SplittableRandom(seed);
        byte[][] values = new byte[count][];
        for (int i = 0; i < count; i++) {
            byte[] v = new byte[size];
            for (int b = 0; b < random; b++) {
                v[b] = (byte) rng.nextInt(256);
            }
            values[i] = v;
        }
        return new Payloads(values);
    }

    // HOT PATH: an array lookup, or for monotonic values one small array per message (the branch is taken the
    // same way for a whole run)
    public byte[] valueFor(long messageIndex) {
        if (stride != 0) {
            return Long.toString(first + messageIndex * stride).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
        return values[(int) (messageIndex % values.length)];
    }

    /** Distinct values cycled through; 0 for monotonic values (every one differs). */
    public int count() {
        return values == null ? 0 : values.length;
    }
}
