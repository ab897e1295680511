package io.kbench.protocol;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * The one histogram shape kbench uses for every latency metric, and its wire codec.
 *
 * <p>Values are microseconds, recorded with 3 significant decimal digits over a fixed range of
 * 1 µs to {@link #HIGHEST_TRACKABLE_MICROS} (one hour). A histogram of this shape takes about 0.2 MB in
 * memory and compresses to a few KB per interval. Values above the range are recorded as the range's
 * maximum and counted by the recorder ("clamped"), never dropped; see {@link #clamp(long)}.
 *
 * <p>On the wire a histogram is HdrHistogram's compressed encoding. HdrHistogram's encoder silently
 * truncates when the buffer is too small, so {@link #encode} sizes the buffer with
 * {@code getNeededByteBufferCapacity()} and checks the length it returns.
 *
 * <p>Thread-safety: static, stateless methods; the histograms passed in belong to the caller.
 */
public final class LatencyHistograms {
    /** Lowest discernible value, microseconds. */
    public static final long LOWEST_DISCERNIBLE_MICROS = 1;
    /** Highest value recorded as itself, microseconds (1 hour). Larger values are clamped to it. */
    public static final long HIGHEST_TRACKABLE_MICROS = 3_600_000_000L;
    /** Significant decimal digits kept for every value. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private LatencyHistograms() { }

    /** A new, empty histogram of kbench's shape. */
    public static Histogram create() {
        return new Histogram(LOWEST_DISCERNIBLE_MICROS, HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    }

    /**
     * The shape's counts-array layout as HdrHistogram lays it out (unit magnitude 0 for 1 µs, 3 digits: sub-buckets
     * of 2^11, half of them 2^10 per bucket after the first): the magnitude of half a bucket's sub-buckets.
     */
    public static final int HALF_BUCKET_MAGNITUDE = 10;
    /** Half a bucket's sub-buckets, 1,024. */
    public static final int HALF_BUCKET = 1 << HALF_BUCKET_MAGNITUDE;
    /** 64 - unit magnitude (0) - sub-bucket count magnitude (11). */
    private static final int LEADING_ZERO_COUNT_BASE = 53;
    private static final long SUB_BUCKET_MASK = 2L * HALF_BUCKET - 1;
    /** The counts array's length for the range: (22 buckets + 1) × {@link #HALF_BUCKET} = 23,552. */
    public static final int COUNTS_LENGTH = 23 * HALF_BUCKET;

    /**
     * The counts index of {@code value} (0 to {@link #HIGHEST_TRACKABLE_MICROS}) in a histogram of this shape, as
     * HdrHistogram's {@code countsArrayIndex} computes it.
     */
    public static int countsIndex(long value) {
        int bucket = LEADING_ZERO_COUNT_BASE - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
        int subBucket = (int) (value >>> bucket);
        return ((bucket + 1) << HALF_BUCKET_MAGNITUDE) + subBucket - HALF_BUCKET;
    }

    /** The lowest value counted at {@code index} in this shape, as HdrHistogram's {@code valueFromIndex}. */
    public static long valueAtIndex(int index) {
        int bucket = (index >> HALF_BUCKET_MAGNITUDE) - 1;
        int subBucket = (index & (HALF_BUCKET - 1)) + HALF_BUCKET;
        if (bucket < 0) {
            subBucket -= HALF_BUCKET;
            bucket = 0;
        }
        return (long) subBucket << bucket;
    }

    /** The value to record for {@code micros}: itself when in range, else the range's maximum. */
    public static long clamp(long micros) {
        return Math.min(micros, HIGHEST_TRACKABLE_MICROS);
    }

    /** Compressed encoding of {@code histogram}. */
    public static byte[] encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        if (length <= 0 || length > buffer.capacity()) {
            throw new IllegalStateException("histogram encoding failed: " + length + " bytes");
        }
        byte[] out = new byte[length];
        buffer.flip();
        buffer.get(out, 0, length);
        return out;
    }

    /**
     * Decodes a compressed histogram of kbench's shape; an empty array decodes to an empty histogram.
     *
     * @throws IllegalArgumentException when the bytes are not a compressed histogram (truncated, corrupt), or
     *                                  one of another shape (other precision, or values beyond the range), which
     *                                  could not be added to kbench's exactly
     */
    public static Histogram decode(byte[] encoded) {
        if (encoded.length == 0) {
            return create();
        }
        Histogram h;
        try {
            h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(encoded), HIGHEST_TRACKABLE_MICROS);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram (truncated or corrupt"
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", e);
        }
        if (h.getLowestDiscernibleValue() != LOWEST_DISCERNIBLE_MICROS
                || h.getNumberOfSignificantValueDigits() != SIGNIFICANT_DIGITS
                || h.getTotalCount() > 0 && h.getMaxValue() > h.highestEquivalentValue(HIGHEST_TRACKABLE_MICROS)) {
            throw new IllegalArgumentException(String.format("a histogram of another shape (lowest %d, %d significant "
                    + "digits, max value %d); kbench's are %d µs, %d digits, values up to %d µs",
                    h.getLowestDiscernibleValue(), h.getNumberOfSignificantValueDigits(),
                    h.getTotalCount() > 0 ? h.getMaxValue() : 0, LOWEST_DISCERNIBLE_MICROS, SIGNIFICANT_DIGITS,
                    HIGHEST_TRACKABLE_MICROS));
        }
        return h;
    }
}
