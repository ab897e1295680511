package io.kbench.worker;

import java.util.SplittableRandom;

import io.kbench.driver.NanoClock;
import io.kbench.driver.RecordListener;
import io.kbench.driver.ShareRecordListener;
import io.kbench.protocol.Counters;

/**
 * Everything measured about one share consumer, and what it does with each record (docs/share-groups.md). HOT
 * PATH: called by the driver inside poll on the consumer's load thread (the only writer).
 *
 * <ul>
 *   <li>Each delivery is counted, and a delivery whose count is above 1 as a redelivery. The time from the
 *       record's intended send to its <em>first</em> delivery is {@code shareDelivery} (coordinator time at both
 *       ends, the clock read once per poll).</li>
 *   <li>The record is then processed: the consumer waits the processing time ({@link Processing}).</li>
 *   <li>Then it is acknowledged. With explicit acknowledgement a record delivered for the first time is released
 *       or rejected with the configured probabilities (a seeded draw per consumer), else accepted; a record
 *       delivered again is always accepted, so a released record is read twice, not without end. Implicit
 *       acknowledgement accepts every record. The time from the intended send to the acceptance (after the
 *       processing) is {@code shareAccept}.</li>
 * </ul>
 *
 * <p>A record intended in a timed warm-up and counted after it (delivered after it, or in a warm-up poll whose
 * earlier records' processing took it past the warm-up) is counted, but its latencies are not recorded (as
 * {@link ConsumerMetrics} does).
 *
 * <p>The consumer's thread cuts its figures at the interval boundaries itself ({@link #intervals}), as
 * {@link ConsumerMetrics} does: a delivery belongs to the interval its poll returned in — or, for a consumer that
 * spends time on each record, the interval in which it is counted — and its acknowledgement to the interval in which
 * it was made (after the processing); latencies go to the recorder of that interval's parity, counts to running
 * counters noted at each boundary passed. An acknowledgement commit ({@code shareCommit: sync}) belongs to the
 * interval in which it returned.
 */
public final class ShareConsumerMetrics implements ShareRecordListener {
    private final RunClock clock;
    private final NanoClock nanos;
    private final Processing processing;
    private final double release;
    private final double releaseOrReject;
    private final SplittableRandom draws;
    /** Time to first delivery, one recorder per interval parity. */
    private final LatencyRecorder[] deliveries = {new LatencyRecorder(), new LatencyRecorder()};
    /** Time to acceptance, one recorder per interval parity. */
    private final LatencyRecorder[] accepts = {new LatencyRecorder(), new LatencyRecorder()};
    /** The recorders of the interval the consumer's thread is in (of the last boundary's parity). Its thread only. */
    private LatencyRecorder deliveryNow = deliveries[0];
    private LatencyRecorder acceptNow = accepts[0];
    /** Whether each record takes processing time. */
    private final boolean processes;
    /**
     * Each poll's acknowledgement commit, when the consumer commits itself (shareCommit: sync), one recorder per
     * interval parity; made at the first commit (a consumer that commits with its poll never has them).
     */
    private volatile LatencyRecorder[] commits;
    final SingleWriterCounter delivered = new SingleWriterCounter();
    final SingleWriterCounter deliveredBytes = new SingleWriterCounter();
    final SingleWriterCounter redelivered = new SingleWriterCounter();
    final SingleWriterCounter accepted = new SingleWriterCounter();
    final SingleWriterCounter released = new SingleWriterCounter();
    final SingleWriterCounter rejected = new SingleWriterCounter();
    /** Coordinator time of the latest poll that returned records. */
    private volatile long receivedMicros;
    /** Where each delivery's sequence number goes for the per-record check; null without verification. */
    private ShareDeliveryLog log;
    /** End of a timed warm-up, coordinator µs; {@code Long.MIN_VALUE}: none. */
    private volatile long measureMicros = Long.MIN_VALUE;
    /** The interval boundaries and the counts (share fields) at each passed (the consumer's thread writes). */
    private final BoundaryMarks<Counters> marks = new BoundaryMarks<>();
    /** When the latest poll that returned records returned, nanoTime; the consumer's thread only. */
    private long polledNanos;
    /** The next boundary the consumer's thread has not passed; {@code Long.MIN_VALUE}: not read yet. Its thread only. */
    private long nextBoundaryNanos = Long.MIN_VALUE;

    /**
     * @param processingMicros time spent on each record before it is acknowledged, every record the same (0: none)
     * @param releasePpm       explicit: of first deliveries, parts per million released
     * @param rejectPpm        explicit: of first deliveries, parts per million rejected
     * @param seed             seed of this consumer's draws
     */
    public ShareConsumerMetrics(RunClock clock, long processingMicros, int releasePpm, int rejectPpm, long seed) {
        this(clock, new Processing(processingMicros, Processing.Distribution.FIXED, seed), releasePpm, rejectPpm, seed);
    }

    /** @param processing time spent on each record before it is acknowledged ({@link Processing}) */
    ShareConsumerMetrics(RunClock clock, Processing processing, int releasePpm, int rejectPpm, long seed) {
        if (releasePpm < 0 || rejectPpm < 0 || (long) releasePpm + rejectPpm > 1_000_000) {
            throw new IllegalArgumentException("release " + releasePpm + " ppm, reject " + rejectPpm + " ppm");
        }
        this.clock = clock;
        this.nanos = clock.nanoClock();
        this.processing = processing;
        this.processes = processing.any();
        this.release = releasePpm / 1e6;
        this.releaseOrReject = (releasePpm + rejectPpm) / 1e6;
        this.draws = new SplittableRandom(seed);
    }

    /** Records every delivery of this run's producers' records in {@code log} (verification). Before the first poll. */
    ShareConsumerMetrics verifyInto(ShareDeliveryLog deliveries) {
        this.log = deliveries;
        return this;
    }

    /** The delivery log, or null without verification. */
    ShareDeliveryLog deliveries() {
        return log;
    }

    /** End of a poll that returned records: what it delivered becomes harvestable. Consumer thread. */
    void pollDone() {
        if (log != null) {
            log.publish();
        }
    }

    /** A poll's acknowledgements committed (commit-sync mode): its duration, from the warm-up's end on. */
    @Override
    public void onCommitted(long nanos, boolean failed) {
        if (receivedMicros >= measureMicros) {
            long now = this.nanos.nanoTime();
            if (now >= nextBoundaryNanos) { // the commit is the interval's in which it returned
                passBoundaries(now);
            }
            LatencyRecorder[] c = commits;
            if (c == null) {
                c = new LatencyRecorder[] {new LatencyRecorder(), new LatencyRecorder()};
                commits = c;
            }
            c[marks.none() ? 0 : (int) (marks.passed() & 1)].record(nanos / 1000);
        }
    }

    /** Moves interval {@code sequence}'s commit durations into {@code target}; {@code last}: all so far (snapshot thread). */
    void addCommitsTo(org.HdrHistogram.Histogram target, long sequence, boolean last) {
        LatencyRecorder[] c = commits;
        if (c != null) {
            for (int slot = 0; slot < 2; slot++) {
                if (last || marks.none() || slot == (int) (sequence & 1)) {
                    c[slot].addIntervalTo(target);
                }
            }
        }
    }

    /** Commit durations above the histograms' range so far (cumulative). */
    long commitsClamped() {
        LatencyRecorder[] c = commits;
        return c == null ? 0 : c[0].clamped() + c[1].clamped();
    }

    /** Sets the end of a timed warm-up, coordinator µs. */
    void measureFrom(long coordinatorMicros) {
        measureMicros = coordinatorMicros;
    }

    /** The run's interval boundaries on the worker's clock: {@code startNanos} + k × {@code intervalNanos}, k ≥ 1. */
    void intervals(long startNanos, long intervalNanos) {
        marks.set(startNanos, intervalNanos);
    }

    /** The consumer's thread: the counts so far are those at every boundary up to {@code now}. */
    private void passBoundaries(long now) {
        if (marks.none()) {
            return; // no boundaries (yet): one recorder takes all
        }
        nextBoundaryNanos = marks.pass(now, nextBoundaryNanos, this::totals);
        int parity = (int) (marks.passed() & 1);
        deliveryNow = deliveries[parity];
        acceptNow = accepts[parity];
    }

    /**
     * The counts (share fields) before boundary {@code b}: as the consumer's thread passed it, or the live totals when
     * it has not passed it (it counted nothing since). Snapshot thread.
     */
    Counters totalsBefore(long b) {
        return marks.before(b, totals()); // the live totals first: a count after the boundary came after its mark
    }

    /** Moves interval {@code sequence}'s delivery and acceptance latencies into the targets; {@code last}: all so far. */
    void addLatenciesTo(org.HdrHistogram.Histogram delivery, org.HdrHistogram.Histogram accept, long sequence,
                        boolean last) {
        for (int slot = 0; slot < 2; slot++) {
            if (last || marks.none() || slot == (int) (sequence & 1)) {
                deliveries[slot].addIntervalTo(delivery);
                accepts[slot].addIntervalTo(accept);
            }
        }
    }

    /** Delivery and acceptance latencies above the histograms' range so far (cumulative). */
    long latenciesClamped() {
        return deliveries[0].clamped() + deliveries[1].clamped() + accepts[0].clamped() + accepts[1].clamped();
    }

    /** Negative delivery and acceptance latencies so far (clock skew; cumulative). */
    long latenciesNegative() {
        return deliveries[0].negative() + deliveries[1].negative() + accepts[0].negative() + accepts[1].negative();
    }

    /** The running totals so far, in the share fields of a {@link Counters} (the rest 0). Any thread. */
    Counters totals() {
        return new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, delivered.get(), deliveredBytes.get(),
                redelivered.get(), accepted.get(), released.get(), rejected.get());
    }

    /** Coordinator time of the latest poll that returned records, 0 if none did. */
    long lastReceiveMicros() {
        return receivedMicros;
    }

    /**
     * Waits the record's processing time; returns when it ended, the acknowledgement's time, having passed the
     * boundaries up to it (the acknowledgement is the interval's that holds it). Consumer thread.
     */
    private long processed() {
        processing.process(nanos);
        long now = nanos.nanoTime();
        if (now >= nextBoundaryNanos) {
            passBoundaries(now);
        }
        return now;
    }

    // HOT PATH
    @Override
    public void onPollReturned() {
        long now = nanos.nanoTime();
        polledNanos = now;
        receivedMicros = clock.coordinatorMicros(now);
    }

    // HOT PATH
    @Override
    public Acknowledge onRecord(int valueBytes, long stampMicros, int partition, long producerId, long sequence,
                                int deliveryCount) {
        // the interval it is counted in: its poll's, or now for a consumer that spends time on each record
        long counted = processes ? nanos.nanoTime() : polledNanos;
        if (counted >= nextBoundaryNanos) { // always before the first: reads the boundaries
            passBoundaries(counted);
        }
        delivered.add(1);
        deliveredBytes.add(valueBytes);
        boolean again = deliveryCount > 1;
        // a record of the warm-up is timed when counted in it (its poll returned in it, and the clock is still before
        // the window: a poll's records are counted one by one, after the processing of those before them)
        long received = receivedMicros; // each volatile read once per record
        long measure = measureMicros;
        boolean timed = stampMicros != RecordListener.NO_STAMP && (stampMicros >= measure
                || received < measure && clock.coordinatorMicrosNow() < measure);
        if (log != null && producerId != RecordListener.NO_PRODUCER) {
            log.record(producerId, partition, sequence, again);
        }
        if (again) {
            redelivered.add(1);
        } else if (timed) {
            deliveryNow.record(received - stampMicros);
        }
        long acknowledged = processes ? processed() : counted;
        if (!again && releaseOrReject > 0) {
            double d = draws.nextDouble();
            if (d < release) {
                released.add(1);
                return Acknowledge.RELEASE;
            }
            if (d < releaseOrReject) {
                rejected.add(1);
                return Acknowledge.REJECT;
            }
        }
        accepted.add(1);
        if (timed) {
            // without processing a record is accepted as it is delivered: the poll's clock reading serves, as for
            // the delivery (no clock read per record). A warm-up record whose processing ended in the window is not
            // timed there: its acceptance would land in the window's first interval, its delivery in the warm-up's
            long at = processes ? clock.coordinatorMicros(acknowledged) : received;
            if (stampMicros >= measure || at < measure) {
                acceptNow.record(at - stampMicros);
            }
        }
        return Acknowledge.ACCEPT;
    }

}
