package io.kbench.worker;

import java.util.concurrent.atomic.AtomicLong;

import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerListener;

/**
 * Everything measured about one producer. HOT PATH: the load thread calls {@link #onSent}; the client's I/O
 * thread calls {@link #onAck} and {@link #onError}. A few primitive operations each: an ack reads the clock
 * once and records into two single-writer histograms.
 *
 * <p>An unthrottled producer sends each message at its intended time: its publish delay is 0 and its response
 * time equals its publish latency by definition, so it records neither (a histogram record is two atomic
 * increments) and the snapshot takes its latency for both ({@link #paced}).
 *
 * <p>A message intended in a timed warm-up but acknowledged after it ({@link #measureFrom}) is counted and its
 * publish latency recorded, but not its response time: that time runs from the warm-up's schedule, which a
 * generator that was behind in the warm-up (a cold JVM) had not kept, and would otherwise carry the warm-up's
 * backlog into the measured window's response times. The window's response time is that of the messages
 * intended in it.
 *
 * <p>Writers: {@code delays}, {@code commit} and {@code sent} by the load thread; {@code latencies},
 * {@code responses} and {@code ackedBytes} by the I/O thread (the acknowledged count is the latency
 * histograms' count); {@code failed} by either (atomic). Readers: the
 * snapshot thread.
 *
 * <p>Each thread cuts its own figures at the interval boundaries, by the clock it already reads: the load thread its
 * sends and their delays ({@link #onSent}), the I/O thread its acknowledgements — latency, response time and bytes —
 * by the time it read for them ({@link #onAck}). Each keeps two recorders, one per interval parity, and notes its
 * running count as it passes a boundary, so that the snapshot thread, whenever it harvests interval k, takes what was
 * sent and what was acknowledged in k — not what had been recorded by the time it woke (a late harvest, a pause of
 * its own, would otherwise move the first moments of k+1 into k). A harvest more than a whole interval late also
 * takes the first records of the interval two after (same parity).
 */
public final class ProducerMetrics implements ProducerListener {
    private final NanoClock clock;
    /** Publish latency and response time, one recorder each per interval parity (I/O thread; see the class comment). */
    private final LatencyRecorder[] latencies = {new LatencyRecorder(), new LatencyRecorder()};
    private final LatencyRecorder[] responses;
    /**
     * Publish delay, one recorder per interval parity: the load thread records a send into the one of the interval it
     * was sent in (it knows the boundaries, {@link #intervals}), so that an interval's delays are its sent messages',
     * as its sent count is ({@link #sentBefore}) — not those recorded until the snapshot thread harvested it.
     */
    private final LatencyRecorder[] delays;
    /** Transaction commit durations; made and written by the load thread at its first commit (null before: 184 KB a
     * producer that never commits does not hold). */
    private volatile LatencyRecorder commit;
    final SingleWriterCounter sent = new SingleWriterCounter();
    final SingleWriterCounter ackedBytes = new SingleWriterCounter();
    /** Acknowledged so far: the live count (the metrics endpoint); snapshots count the histogram instead. */
    final SingleWriterCounter acked = new SingleWriterCounter();
    final AtomicLong failed = new AtomicLong();
    /** Acknowledged so far by partition; written by the I/O thread, read once at the end (the last snapshot). */
    final PartitionCounts partitions = new PartitionCounts();
    private final ErrorSlot errors;
    /** False for an unthrottled producer: no delay or response recorded (see the class comment). */
    final boolean paced;
    /**
     * The longest a park of the load thread between bursts of due sends overran what it asked for, since the
     * snapshot thread last took it, ns; -1 when it has not parked since. Raised by the load thread, taken (reset)
     * by the snapshot thread.
     */
    private final AtomicLong overslept = new AtomicLong(-1);
    /** End of a timed warm-up, {@link NanoClock} units; {@code Long.MIN_VALUE}: none. */
    private volatile long measureNanos = Long.MIN_VALUE;

    /** How many interval boundaries back {@link #sentBefore} can answer exactly. */
    static final int BOUNDARY_MARKS = 8;
    /** The interval boundaries and the sent count at each the load thread passed ({@link BoundaryMarks}). */
    private final BoundaryMarks<Long> sentMarks = new BoundaryMarks<>();
    /** The next interval boundary the load thread has not passed yet ({@link NanoClock} units); load thread only. */
    private long nextBoundaryNanos = Long.MAX_VALUE;
    /** The delay recorder of the interval the load thread is in (its parity); load thread only. */
    private int sendSlot;
    /** The interval boundaries and the acknowledged bytes at each the I/O thread passed. */
    private final BoundaryMarks<Long> ackMarks = new BoundaryMarks<>();
    /** The next boundary the I/O thread has not passed; {@code Long.MIN_VALUE}: not read yet. I/O thread only. */
    private long ackNextBoundaryNanos = Long.MIN_VALUE;
    /** The latency and response recorders of the interval the I/O thread is in (its parity); I/O thread only. */
    private int ackSlot;

    public ProducerMetrics(NanoClock clock, ErrorSlot errors) {
        this(clock, errors, true);
    }

    /** @param paced the producer follows a rate schedule (false: unthrottled) */
    public ProducerMetrics(NanoClock clock, ErrorSlot errors, boolean paced) {
        this.clock = clock;
        this.errors = errors;
        this.paced = paced;
        // an unthrottled producer records neither (see the class comment): four recorders it would not use (736 KB)
        this.responses = paced ? new LatencyRecorder[] {new LatencyRecorder(), new LatencyRecorder()} : null;
        this.delays = paced ? new LatencyRecorder[] {new LatencyRecorder(), new LatencyRecorder()} : null;
    }

    /** A transaction's commit took {@code micros}. Load thread. */
    void committed(long micros) {
        LatencyRecorder c = commit;
        if (c == null) {
            c = new LatencyRecorder();
            commit = c;
        }
        c.record(micros);
    }

    /** Moves the interval's commit durations into {@code target} (snapshot thread). */
    void addCommitsTo(org.HdrHistogram.Histogram target) {
        LatencyRecorder c = commit;
        if (c != null) {
            c.addIntervalTo(target);
        }
    }

    /**
     * The load thread's park returned {@code lateNanos} later than it asked for (negative or 0: on time or early). HOT PATH, once per park (at most one a millisecond): one read, a write only for a new maximum.
     */
    void parked(long lateNanos) {
        long late = Math.max(0, lateNanos);
        if (late > overslept.get()) {
            overslept.accumulateAndGet(late, Math::max);
        }
    }

    /** The longest overrun of a park since the last take, µs, and starts again; -1 when the thread did not park. */
    long takeOversleptMicros() {
        long n = overslept.getAndSet(-1);
        return n < 0 ? -1 : n / 1000;
    }

    /** Sets the end of a timed warm-up (see the class comment); called before the first send. */
    void measureFrom(long nanos) {
        measureNanos = nanos;
    }

    /**
     * The run's interval boundaries on the load thread's clock: {@code startNanos} + k × {@code intervalNanos}, k ≥ 1.
     * Called before the first send. From then on the load thread notes the sent count as it passes each boundary, so
     * that an interval's sent count ends at its boundary, not at the moment the snapshot thread harvests it.
     */
    void intervals(long startNanos, long intervalNanos) {
        sentMarks.set(startNanos, intervalNanos);
        this.nextBoundaryNanos = startNanos + intervalNanos;
        ackMarks.set(startNanos, intervalNanos); // the I/O thread reads its first boundary at its next acknowledgement
    }

    // HOT PATH (load thread)
    void onSent(long intendedNanos, long sendNanos) {
        if (sendNanos >= nextBoundaryNanos) {
            passBoundaries(sendNanos);
        }
        if (paced) {
            delays[sendSlot].record((sendNanos - intendedNanos) / 1000);
        }
        sent.add(1);
    }

    /** Load thread, once an interval: the sent count so far is the count at every boundary up to {@code now}. */
    private void passBoundaries(long now) {
        nextBoundaryNanos = sentMarks.pass(now, nextBoundaryNanos, sent::get);
        sendSlot = (int) (sentMarks.passed() & 1);
    }

    /**
     * Moves interval {@code sequence}'s publish delays into {@code target} (snapshot thread): those of the sends the load
     * thread made in it, whenever it passes the boundary after it; {@code last} (or without interval boundaries) every
     * delay recorded so far. A harvest more than an interval late also takes the sends of the interval two after.
     */
    void addDelaysTo(org.HdrHistogram.Histogram target, long sequence, boolean last) {
        if (!paced) {
            return;
        }
        if (last || sentMarks.none()) {
            delays[0].addIntervalTo(target);
            delays[1].addIntervalTo(target);
        } else {
            delays[(int) (sequence & 1)].addIntervalTo(target);
        }
    }

    /** Publish delays above the histograms' range so far (cumulative). */
    long delaysClamped() {
        return paced ? delays[0].clamped() + delays[1].clamped() : 0;
    }

    /**
     * Messages this producer sent before interval boundary {@code b} (1: the end of interval 0), for the snapshot
     * thread. Exact when the load thread has passed it within the last {@link #BOUNDARY_MARKS} boundaries; when it
     * has not passed it, every send it counted so far was before it, so the live count is exact too; when the
     * harvest comes more than that many boundaries late, the live count (what an interval counted before).
     */
    long sentBefore(long b) {
        return sentMarks.before(b, sent.get()); // the live count first: a send after the boundary came after its mark
    }

    /** Bytes of values acknowledged before boundary {@code b}, for the snapshot thread: as {@link #sentBefore}. */
    long ackedBytesBefore(long b) {
        return ackMarks.before(b, ackedBytes.get());
    }

    /**
     * Moves interval {@code sequence}'s acknowledgements' publish latencies and response times into the targets
     * (snapshot thread): those the I/O thread recorded in it; {@code last} (or without interval boundaries) all so
     * far. An unthrottled producer's response time is its latency ({@link #paced}).
     */
    void addAcksTo(org.HdrHistogram.Histogram latency, org.HdrHistogram.Histogram response, long sequence,
                   boolean last) {
        for (int slot = 0; slot < 2; slot++) {
            if (last || sentMarks.none() || slot == (int) (sequence & 1)) {
                if (paced) {
                    latencies[slot].addIntervalTo(latency);
                    responses[slot].addIntervalTo(response);
                } else {
                    latencies[slot].addIntervalTo(latency, response);
                }
            }
        }
    }

    /** Publish latencies and response times above the histograms' range so far (cumulative). */
    long acksClamped() {
        return latencies[0].clamped() + latencies[1].clamped()
                + (paced ? responses[0].clamped() + responses[1].clamped() : 0);
    }

    // HOT PATH (I/O thread)
    @Override
    public void onAck(long intendedNanos, long sendNanos, int valueBytes, int partition) {
        long now = clock.nanoTime();
        if (now >= ackNextBoundaryNanos) { // always before the first: reads the boundaries
            passAckBoundaries(now);
        }
        int slot = ackSlot;
        latencies[slot].record((now - sendNanos) / 1000);
        long measure = measureNanos;
        if (paced && (intendedNanos >= measure || now < measure)) {
            responses[slot].record((now - intendedNanos) / 1000);
        }
        ackedBytes.add(valueBytes);
        acked.add(1);
        partitions.add(partition);
    }

    /** I/O thread, once an interval: the acknowledged bytes so far are those at every boundary up to {@code now}. */
    private void passAckBoundaries(long now) {
        if (ackMarks.none()) {
            return; // no boundaries (yet): one recorder takes all
        }
        ackNextBoundaryNanos = ackMarks.pass(now, ackNextBoundaryNanos, ackedBytes::get);
        ackSlot = (int) (ackMarks.passed() & 1);
    }

    @Override
    public void onError(long intendedNanos, long sendNanos, Throwable error) {
        failed.incrementAndGet();
        errors.offer(error);
    }
}
