package io.kbench.coordinator.merge;

import java.util.Locale;

/**
 * The brokers' bytes in over the measured window against what kbench had acknowledged: a benchmark whose client and
 * broker disagree says so. Brokers count a produced record's bytes as they arrive at the partition leader
 * ({@code BytesInPerSec}, replication apart, whatever the replication factor): the record's value, compressed as the
 * producer compressed it, plus its key, headers (kbench's stamp among them) and a share of its batch's header. So
 * with every broker read they agree when the bytes in lie between {@link #LOW} of the values acknowledged (times the
 * producers' {@code compression-rate-avg}) and {@link #HIGH} of that plus {@link #OVERHEAD} bytes per record.
 * Below: the brokers saw less than kbench counts. Above: someone else writes to these brokers too, or records are
 * retried (a retried batch's bytes count twice at the broker, once at the client). {@code acks=0} acknowledges what
 * was sent, so lost sends count against the brokers.
 *
 * <p>The two counts also differ at the window's edges: a broker counts a record when it appends it, kbench when it is
 * acknowledged, a publish latency later; and the brokers are read once an interval, up to {@link #READ_LAG_SECONDS}
 * after its end. Records within that much of an edge can fall inside one count and outside the other, so both bounds
 * widen by the share of the window they make up — (the longest publish latency + the read lag) / the window: a few
 * percent of a minute's window, most of a 1-s one (where the two counts cannot be told apart). Pure.
 */
public final class BrokerCrossCheck {
    /** Most bytes per record a broker counts beyond the value: record header, key, kbench's headers, batch share. */
    public static final double OVERHEAD = 100;
    public static final double LOW = 0.9;
    public static final double HIGH = 1.1;
    /** Longest a broker read may come after its interval's end (the snapshot's wait for the sources). */
    public static final double READ_LAG_SECONDS = 0.5;

    private BrokerCrossCheck() { }

    /**
     * Null when they agree, or cannot be compared (nothing acknowledged, no figure, or not every broker read);
     * otherwise the line that says how they disagree.
     *
     * @param brokerBytesIn   bytes in per second over the window, summed over the sources read
     * @param everyBroker     the sources read cover every broker of the cluster
     * @param ackedValueBytes value bytes acknowledged per second
     * @param ackedRecords    records acknowledged per second
     * @param compressionRate the producers' mean {@code compression-rate-avg} (compressed / uncompressed; NaN: 1)
     * @param windowSeconds   the measured window's length
     * @param latencyMaxSeconds the window's longest publish latency (send to acknowledgement)
     */
    public static String check(double brokerBytesIn, boolean everyBroker, double ackedValueBytes, double ackedRecords,
                               double compressionRate, double windowSeconds, double latencyMaxSeconds) {
        if (!everyBroker || !(brokerBytesIn >= 0) || !(ackedRecords > 0) || !(ackedValueBytes > 0)
                || !(windowSeconds > 0)) {
            return null;
        }
        double rate = Double.isNaN(compressionRate) || compressionRate <= 0 ? 1 : Math.min(1, compressionRate);
        double edges = edgeShare(windowSeconds, latencyMaxSeconds);
        double low = Math.max(0, LOW - edges) * ackedValueBytes * rate;
        double high = (HIGH + edges) * (ackedValueBytes * rate + OVERHEAD * ackedRecords);
        if (brokerBytesIn >= low && brokerBytesIn <= high) {
            return null;
        }
        double mb = 1024 * 1024;
        String edgeNote = edges >= 0.005 ? String.format(Locale.ROOT, ", %.0f%% wider for the window's edges", 100 * edges)
                : "";
        return String.format(Locale.ROOT, "the brokers took in %.2f MB/s over the measured window against %.2f MB/s of "
                + "values acknowledged%s: %s (expected %.2f-%.2f MB/s%s; docs/metrics.md#broker-figures)",
                brokerBytesIn / mb, ackedValueBytes / mb,
                rate < 1 ? String.format(Locale.ROOT, " (compressed to %.0f%%)", 100 * rate) : "",
                brokerBytesIn < low ? "the brokers saw less than kbench counts as acknowledged"
                        : "someone else writes to these brokers too, or batches were retried",
                low / mb, high / mb, edgeNote);
    }

    /** The share of a window of {@code windowSeconds} that its edges make uncertain (0 to 1). */
    static double edgeShare(double windowSeconds, double latencyMaxSeconds) {
        double latency = Double.isFinite(latencyMaxSeconds) && latencyMaxSeconds > 0 ? latencyMaxSeconds : 0;
        return Math.min(1, (latency + READ_LAG_SECONDS) / windowSeconds);
    }
}
