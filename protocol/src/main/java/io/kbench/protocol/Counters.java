package io.kbench.protocol;

/**
 * Message counts of an interval or a run. Bytes are value bytes.
 *
 * @param sent             handed to the client
 * @param acked            acknowledged by the broker
 * @param failed           failed to send or not acknowledged
 * @param ackedBytes       value bytes acknowledged
 * @param received         received by consumers (every subscription counts separately)
 * @param receivedBytes    value bytes received
 * @param clamped          latency samples above the histogram range, recorded as its maximum
 * @param negativeEndToEnd end-to-end samples below zero, recorded as 0
 * @param lost             verification: messages missing from a producer's sequence in a partition
 * @param duplicated       verification: messages received again
 * @param outOfOrder       verification: messages received after a later one of the same producer and partition
 * @param verified         verification: distinct messages of the run's producers received
 * @param untracked        verification: messages beyond the consumers' tracking bound
 * @param shareDelivered      share consumers: deliveries (a record delivered again counts again)
 * @param shareDeliveredBytes share consumers: value bytes delivered
 * @param shareRedelivered    share consumers: deliveries of a record delivered before (delivery count above 1)
 * @param shareAccepted       share consumers: deliveries acknowledged as processed (ACCEPT)
 * @param shareReleased       share consumers: deliveries released, to be delivered again (RELEASE)
 * @param shareRejected       share consumers: deliveries rejected, archived (REJECT)
 */
public record Counters(long sent, long acked, long failed, long ackedBytes, long received, long receivedBytes,
                       long clamped, long negativeEndToEnd, long lost, long duplicated, long outOfOrder,
                       long verified, long untracked, long shareDelivered, long shareDeliveredBytes,
                       long shareRedelivered, long shareAccepted, long shareReleased, long shareRejected) {
    public static final Counters ZERO = new Counters(0, 0, 0, 0, 0, 0, 0, 0);

    /** Counters without share-consumer counts. */
    public Counters(long sent, long acked, long failed, long ackedBytes, long received, long receivedBytes,
                    long clamped, long negativeEndToEnd, long lost, long duplicated, long outOfOrder,
                    long verified, long untracked) {
        this(sent, acked, failed, ackedBytes, received, receivedBytes, clamped, negativeEndToEnd, lost, duplicated,
                outOfOrder, verified, untracked, 0, 0, 0, 0, 0, 0);
    }

    /** Counters without verification counts. */
    public Counters(long sent, long acked, long failed, long ackedBytes, long received, long receivedBytes,
                    long clamped, long negativeEndToEnd) {
        this(sent, acked, failed, ackedBytes, received, receivedBytes, clamped, negativeEndToEnd, 0, 0, 0, 0, 0);
    }

    public Counters plus(Counters o) {
        return new Counters(sent + o.sent, acked + o.acked, failed + o.failed, ackedBytes + o.ackedBytes,
                received + o.received, receivedBytes + o.receivedBytes, clamped + o.clamped,
                negativeEndToEnd + o.negativeEndToEnd, lost + o.lost, duplicated + o.duplicated,
                outOfOrder + o.outOfOrder, verified + o.verified, untracked + o.untracked,
                shareDelivered + o.shareDelivered, shareDeliveredBytes + o.shareDeliveredBytes,
                shareRedelivered + o.shareRedelivered, shareAccepted + o.shareAccepted,
                shareReleased + o.shareReleased, shareRejected + o.shareRejected);
    }

    /** These counters with the share consumers' counts of {@code share} (the rest of it ignored). */
    public Counters withShare(Counters share) {
        return new Counters(sent, acked, failed, ackedBytes, received, receivedBytes, clamped, negativeEndToEnd, lost,
                duplicated, outOfOrder, verified, untracked, share.shareDelivered, share.shareDeliveredBytes,
                share.shareRedelivered, share.shareAccepted, share.shareReleased, share.shareRejected);
    }
}
