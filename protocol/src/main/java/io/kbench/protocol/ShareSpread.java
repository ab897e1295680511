package io.kbench.protocol;

/**
 * How evenly a share group's records spread over its consumers: the fewest and the most deliveries one share
 * consumer has had since the run started (running totals, not the interval's), over a worker's share consumers or,
 * merged, over every worker's.
 *
 * @param consumers share consumers counted
 * @param min       the fewest deliveries of one of them
 * @param max       the most
 */
public record ShareSpread(int consumers, long min, long max) {
    /** No share consumers. */
    public static final ShareSpread NONE = new ShareSpread(0, 0, 0);

    public ShareSpread {
        if (consumers < 0 || min < 0 || max < min) {
            throw new IllegalArgumentException("share spread of " + consumers + " consumers: " + min + " to " + max);
        }
    }

    /** Both spreads together (the consumers of two workers). */
    public ShareSpread plus(ShareSpread o) {
        if (consumers == 0) {
            return o;
        }
        if (o.consumers == 0) {
            return this;
        }
        return new ShareSpread(consumers + o.consumers, Math.min(min, o.min), Math.max(max, o.max));
    }
}
