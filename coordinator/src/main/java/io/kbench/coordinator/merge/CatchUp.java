package io.kbench.coordinator.merge;

import java.util.List;

/**
 * The catch-up read of a backlog run: consumers released at {@code releaseMicros} with a backlog of
 * {@code backlogRecords} acknowledged messages, caught up (received the backlog, once per subscription)
 * {@code seconds} later. Counts at instants inside an interval are interpolated linearly within it, so the
 * figures are not bound to the interval length. Pure.
 *
 * @param backlogRecords messages acknowledged before the release (one subscription's share to read)
 * @param releaseMillis  when the consumers were released, coordinator time
 * @param seconds        from the release until the backlog was read by every subscription
 * @param rate           messages read per second during the catch-up (all subscriptions)
 * @param mbps           MB (1,048,576 bytes) read per second during the catch-up
 * @param endToEndAfterMicros end-to-end latency of the intervals after the one in which the backlog was read (drain
 *                       included): the live latency, which the run's end-to-end latency mixes with the backlog's wait
 *                       (its messages held until the release); null when no interval followed
 * @param afterMillis    when those intervals start (coordinator time), 0 with none
 */
public record CatchUp(long backlogRecords, long releaseMillis, double seconds, double rate, double mbps,
                      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                      LatencyStats endToEndAfterMicros,
                      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
                      long afterMillis) {
    private static final double MB = 1024.0 * 1024.0;

    /** A catch-up without the latency after it. */
    public CatchUp(long backlogRecords, long releaseMillis, double seconds, double rate, double mbps) {
        this(backlogRecords, releaseMillis, seconds, rate, mbps, null, 0);
    }

    /** This catch-up with the end-to-end latency after it ({@code after} null or empty: none). */
    public CatchUp withAfter(SummaryHistograms.AfterCatchUp after) {
        if (after == null || after.endToEnd().getTotalCount() == 0) {
            return this;
        }
        return new CatchUp(backlogRecords, releaseMillis, seconds, rate, mbps, LatencyStats.of(after.endToEnd()),
                after.fromMicros() / 1000);
    }

    /**
     * The catch-up, or null when the consumers never caught up with the backlog.
     *
     * @param ackedAtRelease messages the coordinator read as acknowledged when it released the consumers (live, so at
     *                       most what was acknowledged at the release): a floor under the interpolated backlog, which
     *                       takes the acknowledgements spread evenly over the interval holding the release and so
     *                       counts too few when the producers stopped in it (a backlog run that produces only the
     *                       backlog)
     */
    public static CatchUp of(List<MergedInterval> intervals, long releaseMicros, long ackedAtRelease, int subscriptions) {
        Tracker t = new Tracker(releaseMicros, ackedAtRelease, subscriptions, 0);
        intervals.forEach(t::add);
        return t.result();
    }

    /**
     * Follows a backlog's read interval by interval, in order: the backlog is the messages acknowledged by the release
     * (interpolated within the interval holding it, the count read live at the release a floor under it), times the
     * subscriptions; it is read once the intervals' received messages reach that, at an instant interpolated within the
     * interval. One implementation for the run's end ({@link #of}) and the merger, which keeps the end-to-end latency
     * after it apart while the run goes on ({@link SummaryHistograms}). Not thread-safe.
     */
    public static final class Tracker {
        private final long releaseMicros;
        private final long ackedAtRelease;
        private final int subscriptions;
        private double acked;
        private double received;
        private double backlog = Double.NaN;
        private CatchUp result;

        /** {@code ackedBefore}: messages acknowledged in the intervals before the first one given to {@link #add}. */
        public Tracker(long releaseMicros, long ackedAtRelease, int subscriptions, double ackedBefore) {
            this.releaseMicros = releaseMicros;
            this.ackedAtRelease = ackedAtRelease;
            this.subscriptions = subscriptions;
            this.acked = ackedBefore;
        }

        /** Adds the next interval; true when it comes after the one in which the backlog was read. */
        public boolean add(MergedInterval i) {
            if (result != null) {
                return true;
            }
            double before = acked;
            long a = i.counters().acked();
            long n = i.counters().received();
            acked += a;
            if (Double.isNaN(backlog) && i.endMicros() > releaseMicros) {
                backlog = Math.max(ackedAtRelease, before + (i.startMicros() < releaseMicros
                        ? a * (double) (releaseMicros - i.startMicros()) / (i.endMicros() - i.startMicros()) : 0));
            }
            double target = backlog * subscriptions;
            if (!Double.isNaN(backlog) && received + n >= target && n > 0) {
                double fraction = (target - received) / n;
                double end = i.startMicros() + fraction * (i.endMicros() - i.startMicros());
                double seconds = Math.max(1e-6, (end - releaseMicros) / 1e6);
                double bytes = target * (i.counters().receivedBytes() / (double) n);
                result = new CatchUp(Math.round(backlog), releaseMicros / 1000, round(seconds, 3),
                        round(target / seconds, 1), round(bytes / MB / seconds, 2));
            }
            received += n;
            return false;
        }

        /** The catch-up once the backlog was read; null before, or when it never was. */
        public CatchUp result() {
            return result;
        }
    }

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
