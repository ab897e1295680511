package io.kbench.coordinator.capacity;

import java.util.Locale;

/**
 * The "theoretical maximum" of the tuning posts: the most the brokers' network links let producers write, given each
 * broker's link bandwidth (full duplex: that much in and that much out at once), and how close a run came to it.
 * Pure.
 *
 * <p>Every byte produced crosses links {@code RF} times inbound (to its leader, then to each follower) and
 * {@code RF - 1 + groups} times outbound (from the leader to each follower and to each consumer group; consumers read
 * from leaders). Partitions and their replicas are spread as Kafka assigns them, round robin, and produce is spread
 * evenly over partitions, so the busiest broker leads {@code ceil(partitions / brokers)} partitions and holds
 * {@code ceil(partitions x RF / brokers)} replicas. Its links bound the cluster:
 * <pre>
 *   inbound:  produce x replicas(busiest) / partitions                     &lt;= link
 *   outbound: produce x leaders(busiest) x (RF - 1 + groups) / partitions  &lt;= link
 * </pre>
 * With partitions a multiple of the brokers that is the familiar {@code brokers x link / max(RF, RF - 1 + groups)};
 * with one partition the leader's outbound link alone decides. Request and protocol overheads are not counted: the
 * ceiling is of record bytes, as the brokers' {@code BytesInPerSec} counts them.
 *
 * @param gbps              each broker's link, Gbit/s each way
 * @param brokers           the cluster's brokers
 * @param partitions        the run's partitions over all its topics
 * @param replicationFactor replicas of each partition
 * @param groups            consumer groups (and share groups) reading every record
 */
public record NetworkCeiling(double gbps, int brokers, int partitions, int replicationFactor, int groups) {
    /** Bytes in a MB, as kbench prints MB/s. */
    public static final double MB = 1024.0 * 1024.0;

    public NetworkCeiling {
        if (!(gbps > 0) || brokers < 1 || partitions < 1 || replicationFactor < 1 || groups < 0) {
            throw new IllegalArgumentException("a network ceiling needs a bandwidth above 0, a broker, a partition and "
                    + "a replica; got " + gbps + " Gbit/s, " + brokers + ", " + partitions + ", " + replicationFactor);
        }
    }

    /** One link's bytes per second, each way. */
    public double linkBytes() {
        return gbps * 1e9 / 8;
    }

    /** Replicas per partition that exist: no more than the brokers. */
    private int replicas() {
        return Math.min(replicationFactor, brokers);
    }

    /** Partitions the busiest broker leads. */
    int busiestLeads() {
        return (partitions + brokers - 1) / brokers;
    }

    /** Replicas (leaders and followers) the busiest broker holds. */
    int busiestHolds() {
        return (int) (((long) partitions * replicas() + brokers - 1) / brokers);
    }

    /** Copies of each record a leader sends: one to each follower and one to each group. */
    int copiesOut() {
        return replicas() - 1 + groups;
    }

    /** The produce bytes per second the inbound links allow. */
    public double inboundBytes() {
        return linkBytes() * partitions / busiestHolds();
    }

    /** The produce bytes per second the outbound links allow (infinite when nothing leaves a leader). */
    public double outboundBytes() {
        return copiesOut() == 0 ? Double.POSITIVE_INFINITY
                : linkBytes() * partitions / ((double) busiestLeads() * copiesOut());
    }

    /** The most producers can write, bytes per second. */
    public double ceilingBytes() {
        return Math.min(inboundBytes(), outboundBytes());
    }

    /** Which direction bounds it: {@code in} or {@code out}. */
    public String bound() {
        return outboundBytes() < inboundBytes() ? "out" : "in";
    }

    /** How the bound comes about, in words, for the console and the docs. */
    public String reason() {
        if (bound().equals("in")) {
            return String.format(Locale.ROOT, "inbound: the busiest broker takes in %d replica(s) of the %d partition(s)",
                    busiestHolds(), partitions);
        }
        return String.format(Locale.ROOT, "outbound: the busiest broker leads %d of the %d partition(s) and sends each "
                + "record %d time(s): %d follower(s), %d group(s)", busiestLeads(), partitions, copiesOut(), replicas() - 1,
                groups);
    }

    /**
     * The summary's sentence for a run that wrote {@code produceBytes} per second ({@code source} says whose figure it
     * is).
     */
    public String line(double produceBytes, String source, boolean embedded) {
        return String.format(Locale.ROOT, "at %s Gbit/s per broker (%.0f MB/s each way), %d broker(s), %d "
                        + "partition(s), RF %d, %d group(s): at most %.1f MB/s produced (%s); this run %.2f MB/s (%s) = %.1f%% "
                        + "of it%s",
                number(gbps), linkBytes() / MB, brokers, partitions, replicas(), groups, ceilingBytes() / MB, reason(),
                produceBytes / MB, source, 100 * produceBytes / ceilingBytes(),
                embedded ? " (the embedded brokers share this host: no link carried it)" : "");
    }

    /** A bandwidth as given: 10, not 10.0. */
    public static String number(double gbps) {
        return gbps == Math.rint(gbps) && Math.abs(gbps) < 1e15 ? Long.toString((long) gbps) : Double.toString(gbps);
    }

    /** The most Gbit/s a link may be given (a 1.6 Tbit/s link is beyond any broker today). */
    public static final double MAX_GBPS = 1600;

    /** Why {@code text} is not a link bandwidth in Gbit/s, or null when it is one. */
    public static String problem(String text) {
        double v;
        try {
            v = Double.parseDouble(text.strip());
        } catch (NumberFormatException | NullPointerException e) {
            return "must be a number of Gbit/s (above 0, at most " + number(MAX_GBPS) + "), got '" + shown(text) + "'";
        }
        if (!(v > 0) || v > MAX_GBPS) {
            return "must be above 0 and at most " + number(MAX_GBPS) + " Gbit/s, got '" + shown(text) + "'";
        }
        return null;
    }

    private static String shown(String text) {
        return text == null ? "" : text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }
}
