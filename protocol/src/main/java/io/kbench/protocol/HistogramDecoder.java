package io.kbench.protocol;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import org.HdrHistogram.Histogram;

/**
 * Adds a compressed histogram of kbench's shape ({@link LatencyHistograms}) into another without building it
 * first. {@link LatencyHistograms#decode} materializes a full histogram (a 0.2 MB counts array, a fresh
 * {@link Inflater}) for every snapshot's every metric — 1 GB per interval for a coordinator of 1,000 workers;
 * this reads HdrHistogram's V2 encoding (a zlib-deflated 40-byte header, then the counts as ZigZag LEB128
 * longs, a negative one standing for that many empty buckets; the library keeps its reader package-private) with one reused inflater and buffer and records each
 * non-empty bucket's count at its value, which lands in the same bucket of the target: the sum is exactly
 * {@code target.add(decode(bytes))} (tested against it).
 *
 * <p>Anything else — another encoding version, shape, a shifted (normalized) histogram — goes through
 * {@link LatencyHistograms#decode} and its checks.
 *
 * <p>Not thread-safe: one per merging thread (or under its lock).
 */
public final class HistogramDecoder {
    private static final int COMPRESSED_V2 = 0x1c849304;
    private static final int UNCOMPRESSED_V2 = 0x1c849303;
    private static final int HEADER = 40;
    /** Sub-buckets per half bucket of kbench's shape (3 significant digits): 2^10. */
    private static final int HALF_MAGNITUDE = LatencyHistograms.HALF_BUCKET_MAGNITUDE;

    private final Inflater inflater = new Inflater();
    private byte[] buffer = new byte[16 * 1024];
    private final long highestValue = LatencyHistograms.create().highestEquivalentValue(
            LatencyHistograms.HIGHEST_TRACKABLE_MICROS);

    /**
     * Adds {@code encoded} (compressed, of kbench's shape; empty: nothing) into {@code target}; returns the
     * encoded histogram's own {@link Histogram#getMaxValue() maximum} (0 when empty), so that a caller that
     * also logs it need not decode it again.
     *
     * @throws IllegalArgumentException as {@link LatencyHistograms#decode} does, for bytes that are not a
     *                                  compressed histogram or one of another shape
     */
    public long addInto(Histogram target, byte[] encoded) {
        if (encoded.length == 0) {
            return 0;
        }
        int length = inflate(encoded);
        if (length < 0) {
            Histogram other = LatencyHistograms.decode(encoded); // not the common shape: the library's way, with its checks
            target.add(other);
            return other.getTotalCount() == 0 ? 0 : other.getMaxValue();
        }
        long max = 0;
        ByteBuffer in = ByteBuffer.wrap(buffer, 0, length);
        int index = 0;
        try {
            in.position(HEADER);
            int end = HEADER + ByteBuffer.wrap(buffer).getInt(4);
            if (end > length) {
                throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt: payload of "
                        + (end - HEADER) + " bytes, " + (length - HEADER) + " present)");
            }
            while (in.position() < end) {
                long count = zigZagLong(in);
                if (count < 0) {
                    index += (int) Math.min(-count, Integer.MAX_VALUE / 2);
                    continue;
                }
                if (count > 0) {
                    long value = index >= (44 << HALF_MAGNITUDE) ? Long.MAX_VALUE : LatencyHistograms.valueAtIndex(index);
                    if (value > highestValue) {
                        throw new IllegalArgumentException(String.format("a histogram of another shape (values up "
                                + "to %s µs); kbench's go up to %d µs", value == Long.MAX_VALUE ? "beyond 2^53" : value, LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
                    }
                    target.recordValueWithCount(value, count);
                    max = value + (1L << Math.max(0, (index >> HALF_MAGNITUDE) - 1)) - 1; // highest equivalent
                }
                index++;
            }
            return max;
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt)", e);
        }
    }

    /**
     * Inflates {@code encoded} into {@link #buffer}; its length, or -1 when it is not a V2 histogram of kbench's
     * shape (the caller then takes the library's path).
     */
    private int inflate(byte[] encoded) {
        ByteBuffer head = ByteBuffer.wrap(encoded);
        if (encoded.length < 8 || (head.getInt(0) & ~0xf0) != COMPRESSED_V2) {
            return -1;
        }
        int compressed = head.getInt(4);
        if (compressed < 0 || compressed > encoded.length - 8) {
            throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt)");
        }
        inflater.reset();
        inflater.setInput(encoded, 8, compressed);
        int length = 0;
        try {
            while (!inflater.finished()) {
                if (length == buffer.length) {
                    if (buffer.length >= 64 * 1024 * 1024) {
                        throw new IllegalArgumentException("not a compressed HdrHistogram (inflates beyond 64 MB)");
                    }
                    buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
                }
                int n = inflater.inflate(buffer, length, buffer.length - length);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt)");
                }
                length += n;
            }
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt: " + e.getMessage()
                    + ")", e);
        }
        if (length < HEADER) {
            throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt)");
        }
        ByteBuffer h = ByteBuffer.wrap(buffer, 0, length);
        boolean common = (h.getInt(0) & ~0xf0) == UNCOMPRESSED_V2
                && h.getInt(8) == 0 // normalizing index offset
                && h.getInt(12) == LatencyHistograms.SIGNIFICANT_DIGITS
                && h.getLong(16) == LatencyHistograms.LOWEST_DISCERNIBLE_MICROS;
        return common ? length : -1;
    }

    /**
     * One long as HdrHistogram writes it: LEB128 in at most 9 bytes (7 bits each, the 9th all 8), ZigZag-coded.
     */
    static long zigZagLong(ByteBuffer in) {
        long v = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            int b = in.get();
            v |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (v >>> 1) ^ -(v & 1);
            }
        }
        v |= (long) (in.get() & 0xff) << 56;
        return (v >>> 1) ^ -(v & 1);
    }
}
