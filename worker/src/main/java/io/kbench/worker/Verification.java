package io.kbench.worker;

/** Verification counts of one interval (deltas); see {@link SequenceTracker}. */
public record Verification(long lost, long duplicated, long outOfOrder, long verified, long untracked) {
    public static final Verification ZERO = new Verification(0, 0, 0, 0, 0);

    Verification minus(Verification o) {
        return new Verification(lost - o.lost, duplicated - o.duplicated, outOfOrder - o.outOfOrder,
                verified - o.verified, untracked - o.untracked);
    }

    Verification plus(SequenceTracker t) {
        return new Verification(lost + t.lost.get(), duplicated + t.duplicated.get(), outOfOrder + t.outOfOrder.get(),
                verified + t.verified.get(), untracked + t.untracked.get());
    }
}
