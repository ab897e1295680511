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
 * <p>Writers: {@code delay}, {@code commit} and {@code sent} by the load thread; {@code latency},
 * {@code response} and {@code ackedBytes} by the I/O thread (the acknowledged count is the latency
 * histogram's count); {@code failed} by either (atomic). Readers: the
 * snapshot thread.
 */
public final class ProducerMetrics implements ProducerListener {
    private final NanoClock clock;
    final LatencyRecorder latency = new LatencyRecorder();
    final LatencyRecorder response = new LatencyRecorder();
    /**
     * Publish delay, one recorder per interval parity: the load thread records a send into the one of the interval it
     * was sent in (it knows the boundaries, {@link #intervals}), so that an interval's delays are its sent messages',
     * as its sent count is ({@link #sentBefore}) — not those recorded until the snapshot thread harvested it.
     */
    private final LatencyRecorder[] delays = {new LatencyRecorder(), new LatencyRecorder()};
    /** Transaction commit durations; written by the load thread. */
    final LatencyRecorder commit = new LatencyRecorder();
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
    /** The next interval boundary the load thread has not passed yet ({@link NanoClock} units); load thread only. */
    private long nextBoundaryNanos = Long.MAX_VALUE;
    private volatile long intervalNanos;
    /** The last boundary passed: 1 is the end of interval 0; load thread only. */
    private long boundary;
    /** The sent count at each of the last {@link #BOUNDARY_MARKS} boundaries passed, by boundary modulo their number. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Mark> marks =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(BOUNDARY_MARKS);

    /** What had been sent when the load thread passed interval boundary {@code boundary}. */
    private record Mark(long boundary, long sent) {
    }

    public ProducerMetrics(NanoClock clock, ErrorSlot errors) {
        this(clock, errors, true);
    }

    /** @param paced the producer follows a rate schedule (false: unthrottled) */
    public ProducerMetrics(NanoClock clock, ErrorSlot errors, boolean paced) {
        this.clock = clock;
        this.errors = errors;
        this.paced = paced;
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
        this.intervalNanos = intervalNanos;
        this.nextBoundaryNanos = startNanos + intervalNanos;
    }

    // HOT PATH (load thread)
    void onSent(long intendedNanos, long sendNanos) {
        if (sendNanos >= nextBoundaryNanos) {
            passBoundaries(sendNanos);
        }
        if (paced) {
            delays[(int) (boundary & 1)].record((sendNanos - intendedNanos) / 1000);
        }
        sent.add(1);
    }

    /** Load thread, once an interval: the sent count so far is the count at every boundary up to {@code now}. */
    private void passBoundaries(long now) {
        long sentSoFar = sent.get();
        do {
            boundary++;
            marks.setRelease((int) (boundary % BOUNDARY_MARKS), new Mark(boundary, sentSoFar));
            nextBoundaryNanos += intervalNanos;
        } while (now >= nextBoundaryNanos);
    }

    /**
     * Moves interval {@code sequence}'s publish delays into {@code target} (snapshot thread): those of the sends the load
     * thread made in it, whenever it passes the boundary after it; {@code last} (or without interval boundaries) every
     * delay recorded so far. A harvest more than an interval late also takes the sends of the interval two after.
     */
    void addDelaysTo(org.HdrHistogram.Histogram target, long sequence, boolean last) {
        if (last || intervalNanos == 0) {
            delays[0].addIntervalTo(target);
            delays[1].addIntervalTo(target);
        } else {
            delays[(int) (sequence & 1)].addIntervalTo(target);
        }
    }

    /** Publish delays above the histograms' range so far (cumulative). */
    long delaysClamped() {
        return delays[0].clamped() + delays[1].clamped();
    }

    /**
     * Messages this producer sent before interval boundary {@code b} (1: the end of interval 0), for the snapshot
     * thread. Exact when the load thread has passed it within the last {@link #BOUNDARY_MARKS} boundaries; when it
     * has not passed it, every send it counted so far was before it, so the live count is exact too; when the
     * harvest comes more than that many boundaries late, the live count (what an interval counted before).
     */
    long sentBefore(long b) {
        long live = sent.get(); // first: a send counted after the boundary was counted after its mark was set
        Mark m = marks.getAcquire((int) (b % BOUNDARY_MARKS));
        return m != null && m.boundary() == b ? m.sent() : live;
    }

    // HOT PATH (I/O thread)
    @Override
    public void onAck(long intendedNanos, long sendNanos, int valueBytes, int partition) {
        long now = clock.nanoTime();
        latency.record((now - sendNanos) / 1000);
        long measure = measureNanos;
        if (paced && (intendedNanos >= measure || now < measure)) {
            response.record((now - intendedNanos) / 1000);
        }
        ackedBytes.add(valueBytes);
        acked.add(1);
        partitions.add(partition);
    }

    @Override
    public void onError(long intendedNanos, long sendNanos, Throwable error) {
        failed.incrementAndGet();
        errors.offer(error);
    }
}
