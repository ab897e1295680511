package io.kbench.worker;

import java.util.List;

import io.kbench.protocol.ClientMetricsMerge;
import io.kbench.protocol.ClientMetricsSample;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * Harvests one interval from every producer's and consumer's recorders into an {@link IntervalSnapshot}:
 * histograms are moved out of the recorders (so each sample lands in exactly one interval) and added per
 * metric across producers/consumers; counters are turned from running totals into interval deltas (messages
 * sent up to the interval's end as each load thread passed it: {@link ProducerMetrics#sentBefore}; acknowledged
 * ones, their bytes and latencies, up to it as each producer's I/O thread passed it: {@link ProducerMetrics#addAcksTo},
 * {@link ProducerMetrics#ackedBytesBefore}). The
 * interval's acknowledged count is its publish-latency histogram's count (every ack records exactly one
 * latency), and its received count its end-to-end histogram's count plus the messages received without one
 * ({@link ConsumerMetrics#unrecorded}), so counts and histograms never disagree at an interval boundary; the
 * consumers' figures, too, end at the boundary as each consumer's thread passed it ({@link ConsumerMetrics}).
 *
 * <p>Threads: one harvesting thread at a time (the snapshot thread, then the thread that stops the run).
 */
final class Snapshotter {
    private final List<ProducerMetrics> producers;
    private final List<ConsumerMetrics> consumers;
    private final Histogram latency = LatencyHistograms.create();
    private final Histogram response = LatencyHistograms.create();
    private final Histogram delay = LatencyHistograms.create();
    private final Histogram endToEnd = LatencyHistograms.create();
    private final Histogram commit = LatencyHistograms.create();
    private final Histogram shareDelivery = LatencyHistograms.create();
    private final Histogram shareAccept = LatencyHistograms.create();
    private final Histogram shareCommit = LatencyHistograms.create();
    private final List<ShareConsumerMetrics> shareConsumers;
    /** The share consumers' running totals at the last harvest. */
    private Counters shareTotals = Counters.ZERO;
    private long sent;
    private long failed;
    private long ackedBytes;
    /** The consumers' {@link ConsumerMetrics#unrecorded} at the last harvest. */
    private long unrecorded;
    private long receivedBytes;
    private long clamped;
    private long negative;
    private Verification verification = Verification.ZERO;
    private final List<io.kbench.driver.ProducerHandle> producerClients;

    private final String workerId;

    /**
     * @param workerId        the id every snapshot carries
     * @param producerClients the producers' handles, whose client metrics are read at each harvest
     */
    Snapshotter(String workerId, List<ProducerMetrics> producers, List<ConsumerMetrics> consumers,
                List<io.kbench.driver.ProducerHandle> producerClients) {
        this(workerId, producers, consumers, producerClients, List.of());
    }

    /** @param shareConsumers the share consumers' figures (their deliveries are not in {@code consumers}) */
    Snapshotter(String workerId, List<ProducerMetrics> producers, List<ConsumerMetrics> consumers,
                List<io.kbench.driver.ProducerHandle> producerClients, List<ShareConsumerMetrics> shareConsumers) {
        this.shareConsumers = List.copyOf(shareConsumers);
        this.workerId = workerId;
        this.producers = List.copyOf(producers);
        this.consumers = List.copyOf(consumers);
        this.producerClients = List.copyOf(producerClients);
    }

    /**
     * The longest a load thread's park overran in the interval, over this worker's producers, µs (taken: the next
     * call starts again); -1 when none parked (none paced, or all behind their schedule throughout).
     */
    long takeOversleptMicros() {
        long max = -1;
        for (ProducerMetrics p : producers) {
            max = Math.max(max, p.takeOversleptMicros());
        }
        return max;
    }

    /** The metrics of producer {@code i}, in the order given. */
    ProducerMetrics producer(int i) {
        return producers.get(i);
    }

    /**
     * The run's totals so far, read live from the running counters (sent, acked, failed, bytes, received and, with
     * verification, the duplicates among the received):
     * what every harvest starts from, and what the worker's metrics endpoint reads between harvests.
     */
    Counters live() {
        long s = 0;
        long a = 0;
        long f = 0;
        long ab = 0;
        long r = 0;
        long rb = 0;
        long dup = 0;
        for (ProducerMetrics p : producers) {
            s += p.sent.get();
            a += p.acked.get();
            f += p.failed.get();
            ab += p.ackedBytes.get();
        }
        for (ConsumerMetrics m : consumers) {
            r += m.received.get();
            rb += m.receivedBytes.get();
            if (m.tracker != null) {
                dup += m.tracker.duplicated.get();
            }
        }
        // duplicates too (with verification): the coordinator's drain counts each message once (Progress)
        return new Counters(s, a, f, ab, r, rb, 0, 0, 0, dup, 0, 0, 0);
    }

    /** The share consumers' running totals (in the share fields; the rest 0). */
    Counters shareLive() {
        Counters sum = Counters.ZERO;
        for (ShareConsumerMetrics m : shareConsumers) {
            sum = sum.plus(m.totals());
        }
        return sum;
    }

    /**
     * The share consumers' counts at boundary {@code b} (the end of interval b - 1) as each consumer's thread passed it,
     * each field at most the live total read first and at least the previous interval's; the last harvest takes the
     * live totals.
     */
    private Counters shareCut(boolean last, long b) {
        Counters live = shareLive();
        if (last || shareConsumers.isEmpty()) {
            return live;
        }
        long[] at = new long[6];
        for (ShareConsumerMetrics m : shareConsumers) {
            Counters t = m.totalsBefore(b);
            at[0] += t.shareDelivered();
            at[1] += t.shareDeliveredBytes();
            at[2] += t.shareRedelivered();
            at[3] += t.shareAccepted();
            at[4] += t.shareReleased();
            at[5] += t.shareRejected();
        }
        Counters p = shareTotals;
        return new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                between(p.shareDelivered(), at[0], live.shareDelivered()),
                between(p.shareDeliveredBytes(), at[1], live.shareDeliveredBytes()),
                between(p.shareRedelivered(), at[2], live.shareRedelivered()),
                between(p.shareAccepted(), at[3], live.shareAccepted()),
                between(p.shareReleased(), at[4], live.shareReleased()),
                between(p.shareRejected(), at[5], live.shareRejected()));
    }

    private static long between(long previous, long at, long live) {
        return Math.max(previous, Math.min(at, live));
    }

    /** The share consumers' fewest and most deliveries so far. */
    private io.kbench.protocol.ShareSpread shareSpread() {
        if (shareConsumers.isEmpty()) {
            return io.kbench.protocol.ShareSpread.NONE;
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (ShareConsumerMetrics m : shareConsumers) {
            long d = m.delivered.get();
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        return new io.kbench.protocol.ShareSpread(shareConsumers.size(), min, max);
    }

    /** Most ranges one snapshot's share deliveries carry; the records of further ones count as untracked. */
    static final int MAX_SNAPSHOT_RANGES = 131_072;

    /**
     * What the share consumers were delivered since the last harvest, per group, producer and partition
     * ({@link io.kbench.protocol.ShareDeliveries#NONE} without verification).
     */
    private io.kbench.protocol.ShareDeliveries shareDeliveries() {
        ShareDeliveryLog.Table all = new ShareDeliveryLog.Table();
        long untracked = 0;
        boolean any = false;
        for (ShareConsumerMetrics m : shareConsumers) {
            ShareDeliveryLog log = m.deliveries();
            if (log != null) {
                any = true;
                untracked += log.harvest(all);
            }
        }
        if (!any) {
            return io.kbench.protocol.ShareDeliveries.NONE;
        }
        List<io.kbench.protocol.ShareDeliveries.Stream> streams = new java.util.ArrayList<>(all.size);
        long ranges = 0;
        for (ShareDeliveryLog.Stream s : all.streams()) {
            var stream = new io.kbench.protocol.ShareDeliveries.Stream(s.group, s.producerId, s.partition,
                    s.firstRanges(), s.againRanges());
            ranges += (stream.first().length + stream.again().length) / 2;
            if (ranges > MAX_SNAPSHOT_RANGES) {
                untracked += stream.firstCount() + stream.againCount();
            } else {
                streams.add(stream);
            }
        }
        return new io.kbench.protocol.ShareDeliveries(streams, untracked);
    }

    private static Counters minus(Counters now, Counters before) {
        return new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, now.shareDelivered() - before.shareDelivered(),
                now.shareDeliveredBytes() - before.shareDeliveredBytes(),
                now.shareRedelivered() - before.shareRedelivered(), now.shareAccepted() - before.shareAccepted(),
                now.shareReleased() - before.shareReleased(), now.shareRejected() - before.shareRejected());
    }

    /**
     * A producer count's running total at the interval's end boundary: each producer's count as its thread passed the
     * boundary ({@code before}), at most the {@code live} total read first and at least the {@code previous}
     * interval's; the last harvest takes the live total.
     */
    private long cut(boolean last, long live, long previous, java.util.function.ToLongFunction<ProducerMetrics> before) {
        if (last) {
            return live;
        }
        long at = 0;
        for (ProducerMetrics p : producers) {
            at += before.applyAsLong(p);
        }
        return Math.max(previous, Math.min(at, live));
    }

    IntervalSnapshot harvest(long sequence, long startMicros, long endMicros, boolean producersDone,
                             long producersDoneMicros, boolean last, String error) {
        latency.reset();
        response.reset();
        delay.reset();
        endToEnd.reset();
        commit.reset();
        shareDelivery.reset();
        shareAccept.reset();
        shareCommit.reset();
        // counters first: a sample counted here is in this or the next interval's histogram, never lost
        Counters totals = live();
        // messages sent: up to the interval's end boundary as each load thread passed it; bytes acknowledged: up to it
        // as each producer's I/O thread passed it, as its latencies are
        long sentTotal = cut(last, totals.sent(), sent, p -> p.sentBefore(sequence + 1));
        long ackedBytesTotal = cut(last, totals.ackedBytes(), ackedBytes, p -> p.ackedBytesBefore(sequence + 1));
        Counters share = shareCut(last, sequence + 1);
        long c = 0;
        long n = 0;
        for (ProducerMetrics p : producers) {
            c += p.acksClamped() + p.delaysClamped();
            p.addAcksTo(latency, response, sequence, last);
            p.addDelaysTo(delay, sequence, last);
            p.addCommitsTo(commit);
        }
        long lastReceive = 0;
        Verification v = Verification.ZERO;
        long lag = 0;
        boolean lagKnown = false;
        ClientMetricsMerge consumerMetrics = new ClientMetricsMerge();
        long u = 0;
        long rb = 0;
        for (ConsumerMetrics m : consumers) {
            // counted up to the interval's end as the consumer's thread passed it, as its end-to-end latencies are
            u += last ? m.unrecorded.get() : m.unrecordedBefore(sequence + 1);
            rb += last ? m.receivedBytes.get() : m.receivedBytesBefore(sequence + 1);
            if (m.tracker != null) {
                v = v.plus(m.tracker);
            }
            long l = m.lag;
            if (l >= 0) {
                lag += l;
                lagKnown = true;
            }
            consumerMetrics.add(m.clientMetrics, 1);
            lastReceive = Math.max(lastReceive, m.lastReceiveMicros());
            c += m.endToEndClamped();
            n += m.endToEndNegative();
            m.addEndToEndTo(endToEnd, sequence, last);
        }
        for (ShareConsumerMetrics m : shareConsumers) {
            lastReceive = Math.max(lastReceive, m.lastReceiveMicros());
            c += m.latenciesClamped();
            n += m.latenciesNegative();
            // their latencies up to the interval's end as the consumer's thread passed it, as its counts (shareCut)
            m.addLatenciesTo(shareDelivery, shareAccept, sequence, last);
            c += m.commitsClamped();
            m.addCommitsTo(shareCommit, sequence, last);
        }
        ClientMetricsMerge producerMetrics = new ClientMetricsMerge();
        for (io.kbench.driver.ProducerHandle h : producerClients) {
            try {
                producerMetrics.add(h.metrics(), 1);
            } catch (RuntimeException e) {
                // a closed client has no metrics; the interval goes without them
            }
        }
        Verification dv = v.minus(verification);
        // received: what the end-to-end histograms hold plus the messages received without a latency, not the live
        // counter read above (a message received between the two would be in this interval's histogram but the next's
        // count); the last harvest takes every message, so the run's total is the counter's
        long receivedDelta = endToEnd.getTotalCount() + (u - unrecorded);
        IntervalSnapshot snap = new IntervalSnapshot(workerId, sequence, startMicros, endMicros,
                new Counters(sentTotal - sent, latency.getTotalCount(), totals.failed() - failed,
                        ackedBytesTotal - ackedBytes, receivedDelta,
                        Math.max(receivedBytes, rb) - receivedBytes, c - clamped, n - negative, dv.lost(), dv.duplicated(),
                        dv.outOfOrder(), dv.verified(), dv.untracked()).withShare(minus(share, shareTotals)),
                shareConsumers.isEmpty()
                        ? IntervalSnapshot.histograms(LatencyHistograms.encode(latency),
                                LatencyHistograms.encode(response), LatencyHistograms.encode(delay),
                                LatencyHistograms.encode(endToEnd), LatencyHistograms.encode(commit))
                        : IntervalSnapshot.histograms(LatencyHistograms.encode(latency),
                                LatencyHistograms.encode(response), LatencyHistograms.encode(delay),
                                LatencyHistograms.encode(endToEnd), LatencyHistograms.encode(commit),
                                LatencyHistograms.encode(shareDelivery), LatencyHistograms.encode(shareAccept),
                                LatencyHistograms.encode(shareCommit)),
                producersDone, producersDoneMicros, lastReceive, last, error, lagKnown ? lag : -1,
                new ClientMetricsSample(producerMetrics.clients(), producerMetrics.result()),
                new ClientMetricsSample(consumerMetrics.clients(), consumerMetrics.result())).withShareSpread(shareSpread())
                .withShareDeliveries(shareDeliveries());
        shareTotals = share;
        sent = sentTotal;
        failed = totals.failed();
        ackedBytes = ackedBytesTotal;
        unrecorded = Math.max(unrecorded, u);
        receivedBytes = Math.max(receivedBytes, rb);
        clamped = c;
        negative = n;
        verification = v;
        return snap;
    }
}
