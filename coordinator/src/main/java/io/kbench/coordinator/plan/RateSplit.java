package io.kbench.coordinator.plan;

/**
 * Splits a total rate into whole messages per second: every part gets {@code total / parts}, and the first
 * {@code total % parts} parts one more, so the parts sum to the total exactly. Pure.
 */
public final class RateSplit {
    private RateSplit() { }

    /**
     * @param total messages per second, or -1 (unthrottled: every part is -1)
     * @param parts number of parts, at least 1
     */
    public static long[] split(long total, int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be >= 1, got " + parts);
        }
        long[] out = new long[parts];
        if (total < 0) {
            java.util.Arrays.fill(out, -1);
            return out;
        }
        long base = total / parts;
        long extra = total % parts;
        for (int i = 0; i < parts; i++) {
            out[i] = base + (i < extra ? 1 : 0);
        }
        return out;
    }
}
