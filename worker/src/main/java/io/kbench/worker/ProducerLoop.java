package io.kbench.worker;

import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;

/**
 * The send loop of one producer, on its own thread. HOT PATH.
 *
 * <p>Throttled, it is an open loop: message {@code i} has an intended send time from the
 * {@link RateSchedule}, and the loop sends every message that is due, then parks until the next one is due,
 * but for at least {@link #SLICE_NANOS}. Waking once per slice instead of once per message keeps the CPU
 * cost per message low and lets the client fill real batches; every message keeps its own intended time, so
 * a late send still shows in publish delay and response time. When the client blocks (buffer full, broker
 * stalled), the loop falls behind and catches up by sending what is due at once, without parking: nothing is
 * skipped, so the stall is visible in the response-time figure (no coordinated omission).
 *
 * <p>At the end of a timed warm-up ({@link #window}'s {@code measure}), a throttled loop without a record limit
 * that is still more than {@link #SKIP_BEHIND_NANOS} behind its schedule skips the messages it owes from the
 * warm-up and goes on with the first
 * message due at or after that instant: the warm-up is not measured, and a backlog it built (a cold JVM,
 * connections being made) would otherwise be paid off inside the measured window — sent faster than the
 * target, with response times that describe the warm-up, not the rate. Only the warm-up's debt is skipped;
 * inside the measured window nothing ever is. {@link #skippedInWarmup()} counts them.
 *
 * <p>Unthrottled (rate -1), it sends back to back and a message's intended time is its send time.
 *
 * <p>In a closed loop ({@link #closedLoop}, a round-trip run) it sends one message, waits until the worker's consumer
 * read it back and its send was acknowledged, then sends the next; a message's intended time is its send time.
 *
 * <p>Transactional, it opens a transaction before a message when none is open and commits it after
 * {@code transactionRecords} messages or once it has been open {@code transactionMillis} (checked per message
 * and after every park), recording each commit's duration; the last transaction is committed at the end.
 * A commit blocks the loop, so sends fall behind their schedule meanwhile, and response time shows it.
 *
 * <p>Messages whose intended time is before the end instant are sent, at most {@code recordLimit} of them
 * when one is set; then the loop flushes and reports done. Message {@code i} carries the key and value that
 * {@link Keys} and {@link Payloads} prepared for index {@code i}.
 * {@link #stop()} ends it early from any thread.
 */
final class ProducerLoop implements Runner.Task {
    /** Minimum park between bursts of due sends. */
    static final long SLICE_NANOS = 1_000_000L;
    /**
     * How far behind its schedule the loop must be when measuring begins for the warm-up's debt to be skipped:
     * a lag up to this long (the saturation threshold's default) is caught up as inside the window.
     */
    static final long SKIP_BEHIND_NANOS = 10_000_000L;
    /** Longest park, so that a stop request is seen promptly even at low rates. */
    private static final long MAX_PARK_NANOS = 50_000_000L;

    private final ProducerHandle handle;
    private final ProducerMetrics metrics;
    private final RunClock clock;
    private final long ratePerSecond;
    private final long limit;
    private final Payloads payloads;
    private final Keys keys;
    private final long transactionRecords;
    private final long transactionNanos;
    private final boolean transactional;
    private boolean inTransaction;
    private long transactionStartNanos;
    private long transactionCount;
    private final ErrorSlot fatal;
    private final String name;
    private volatile long startNanos;
    private volatile long measureNanos;
    private volatile long endNanos;
    private volatile long skippedInWarmup;
    private volatile boolean stopped;
    private volatile boolean done;
    private volatile long doneNanos;
    /** The closed loop this producer is one end of; null: it is not. */
    private RoundTrip roundTrip;

    ProducerLoop(String name, ProducerHandle handle, ProducerMetrics metrics, RunClock clock, long ratePerSecond,
                 long recordLimit, Payloads payloads, Keys keys, long transactionRecords, long transactionMillis,
                 ErrorSlot fatal) {
        this.name = name;
        this.handle = handle;
        this.metrics = metrics;
        this.clock = clock;
        this.ratePerSecond = ratePerSecond;
        this.limit = recordLimit > 0 ? recordLimit : Long.MAX_VALUE;
        this.payloads = payloads;
        this.keys = keys;
        this.transactionRecords = transactionRecords;
        this.transactionNanos = transactionMillis * 1_000_000L;
        this.transactional = transactionRecords > 0 || transactionMillis > 0;
        this.fatal = fatal;
    }

    /** Sets the window without a timed warm-up, local nanoTime units; called before the thread starts. */
    void window(long start, long end) {
        window(start, start, end);
    }

    /**
     * Sets the window, local nanoTime units; called before the thread starts.
     *
     * @param measure end of a timed warm-up ({@code start}: none), where a loop behind its schedule skips what
     *                it owes from the warm-up
     */
    void window(long start, long measure, long end) {
        this.startNanos = start;
        this.measureNanos = measure;
        this.endNanos = end;
        if (measure > start) {
            metrics.measureFrom(measure);
        }
    }

    /** Makes this loop one end of {@code loop} (a round-trip run); called before the thread starts. */
    void closedLoop(RoundTrip loop) {
        this.roundTrip = loop;
    }

    /** Messages skipped at the end of the warm-up because the loop was behind its schedule then. */
    long skippedInWarmup() {
        return skippedInWarmup;
    }

    @Override
    public void stop() {
        stopped = true;
    }

    boolean done() {
        return done;
    }

    @Override
    public void run() {
        try {
            parkUntil(startNanos);
            if (ratePerSecond < 0 || roundTrip != null) {
                sendUnthrottled();
            } else {
                sendOnSchedule();
            }
            if (!stopped) {
                if (inTransaction) {
                    commit();
                }
                handle.flush();
            }
        } catch (RuntimeException | Error e) {
            fatal.offer(name + " failed: " + ErrorSlot.describe(e));
        } finally {
            doneNanos = clock.nanoClock().nanoTime();
            done = true;
        }
    }

    /** When the loop finished (after its flush), {@link NanoClock} units; valid once {@link #done()}. */
    long doneNanos() {
        return doneNanos;
    }

    // HOT PATH. In a closed loop, each message is sent once the previous one came back (see {@link RoundTrip}).
    private void sendUnthrottled() {
        NanoClock nanos = clock.nanoClock();
        long end = endNanos;
        RoundTrip loop = roundTrip;
        for (long index = 0; index < limit && !stopped; index++) {
            long now = nanos.nanoTime();
            if (now >= end) {
                return;
            }
            if (loop != null) {
                loop.sending(index, now);
            }
            send(index, now, now);
            if (loop != null && !loop.await(index, metrics.acked::get, metrics.failed::get, () -> stopped)) {
                return;
            }
        }
    }

    // HOT PATH
    private void sendOnSchedule() {
        NanoClock nanos = clock.nanoClock();
        RateSchedule schedule = new RateSchedule(startNanos, ratePerSecond);
        long end = endNanos;
        long measure = measureNanos;
        boolean inWarmup = measure > startNanos && limit == Long.MAX_VALUE;
        long index = 0;
        long next = schedule.intendedNanos(0);
        while (!stopped && next < end && index < limit) {
            long now = nanos.nanoTime();
            if (inWarmup && now >= measure) {
                inWarmup = false;
                long first = schedule.dueBefore(measure); // the first message due at or after the measure start
                if (index < first && measure - next > SKIP_BEHIND_NANOS) {
                    skippedInWarmup = first - index;
                    index = first;
                    next = schedule.intendedNanos(index);
                }
            }
            while (next <= now && next < end && index < limit && !stopped) {
                long sendNanos = nanos.nanoTime();
                if (inWarmup && sendNanos >= measure) {
                    // a warm-up backlog still being sent when measuring begins: skip the rest (above), so that no
                    // message owed from the warm-up is sent, and its delay recorded, inside the window
                    break;
                }
                send(index, next, sendNanos);
                next = schedule.intendedNanos(++index);
            }
            if (next >= end || index >= limit || stopped) {
                return;
            }
            now = nanos.nanoTime();
            if (inTransaction && transactionNanos > 0 && now - transactionStartNanos >= transactionNanos) {
                commit();
                now = nanos.nanoTime();
            }
            if (next <= now) {
                continue; // a send or commit blocked past the next due time: catch up at once, do not park
            }
            long wait = Math.min(Math.min(Math.max(next - now, SLICE_NANOS), MAX_PARK_NANOS), end - now);
            nanos.park(wait);
            metrics.parked(nanos.nanoTime() - now - wait); // late: the host gave the thread no core, or a pause
        }
    }

    // HOT PATH (package-private for the JMH benchmark)
    void send(long index, long intendedNanos, long sendNanos) {
        if (transactional && !inTransaction) {
            handle.beginTransaction();
            inTransaction = true;
            transactionStartNanos = sendNanos;
            transactionCount = 0;
        }
        handle.send(keys.keyFor(index), payloads.valueFor(index), clock.coordinatorMicros(intendedNanos),
                intendedNanos, sendNanos);
        metrics.onSent(intendedNanos, sendNanos);
        if (transactional && (++transactionCount == transactionRecords
                || transactionNanos > 0 && sendNanos - transactionStartNanos >= transactionNanos)) {
            commit();
        }
    }

    /** Commits the open transaction (blocking), recording how long the commit took. */
    private void commit() {
        NanoClock nanos = clock.nanoClock();
        long t0 = nanos.nanoTime();
        handle.commitTransaction();
        metrics.committed((nanos.nanoTime() - t0) / 1000);
        inTransaction = false;
    }

    private void parkUntil(long deadline) {
        NanoClock nanos = clock.nanoClock();
        long now;
        while (!stopped && (now = nanos.nanoTime()) < deadline) {
            nanos.park(Math.min(deadline - now, MAX_PARK_NANOS));
        }
    }
}
