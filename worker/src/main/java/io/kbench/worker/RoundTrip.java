package io.kbench.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.kbench.driver.NanoClock;
import io.kbench.protocol.RoundTripSample;

/**
 * The closed loop of a round-trip run (Kafka's EndToEndLatency, {@code roundTrip: true}): this worker's one producer
 * sends message {@code i + 1} only once its one consumer has read message {@code i} back and the send of {@code i}
 * was acknowledged, so exactly one message is in flight. The end-to-end latency of each message is the consumer's
 * usual figure (receipt minus the message's stamp, which is its send time here); this class keeps, in addition, the
 * round trips of messages 0, 1000, 2000 ... ({@link RoundTripSample}) for the tool's progress lines, until the next
 * snapshot takes them.
 *
 * <p>A message read while none is in flight did not come from this loop (something else produces to the topic):
 * the run fails, as the Kafka tool does when its poll returns anything but the one record it sent.
 *
 * <p>Threads: {@link #sending} and {@link #await} on the producer's thread, {@link #read} on the consumer's,
 * {@link #takeSamples} on the snapshot thread.
 */
final class RoundTrip {
    /** How long a message may take to come back: the Kafka tool's poll timeout. */
    static final long TIMEOUT_NANOS = 60_000_000_000L;
    /** Longest park while waiting, so that a stop is seen promptly. */
    private static final long MAX_PARK_NANOS = 50_000_000L;
    /** Park while only the acknowledgement is still missing (it comes within microseconds of the read). */
    private static final long ACK_PARK_NANOS = 20_000L;

    private final NanoClock nanos;
    private final ErrorSlot fatal;
    /** Number of the message sent and not yet read back; -1 when none is in flight. */
    private volatile long inFlight = -1;
    private volatile long sentNanos;
    /** Messages read back so far. */
    private volatile long read;
    private volatile Thread waiter;
    private final List<RoundTripSample> samples = new ArrayList<>();

    RoundTrip(NanoClock nanos, ErrorSlot fatal) {
        this.nanos = nanos;
        this.fatal = fatal;
    }

    /** The producer is about to send message {@code index} at {@code sendNanos}. */
    void sending(long index, long sendNanos) {
        waiter = Thread.currentThread();
        sentNanos = sendNanos;
        inFlight = index; // published last: the consumer reads sentNanos after seeing it
    }

    /**
     * The consumer received a message at {@code receivedNanos}. Returns false (and fails the run) when none was in
     * flight: it was not this loop's.
     */
    boolean read(long receivedNanos) {
        long index = inFlight;
        if (index < 0) {
            fatal.offer("round trip: a message came back that this run's producer did not send (is something else "
                    + "producing to the topic?)");
            return false;
        }
        long sent = sentNanos;
        inFlight = -1;
        if (index % RoundTripSample.EVERY == 0) {
            synchronized (samples) {
                if (samples.size() < RoundTripSample.MAX_PER_SNAPSHOT) { // 1,000 per second: 1 µs round trips
                    samples.add(new RoundTripSample(index, Math.max(0, receivedNanos - sent) / 1000));
                }
            }
        }
        read = index + 1;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        return true;
    }

    /**
     * Waits until message {@code index} was read back and its send completed ({@code completed} counts the
     * producer's acknowledged and failed sends). Returns false when {@code stopped} says so, when the send failed,
     * or when the message did not come back within {@link #TIMEOUT_NANOS} (both fail the run).
     */
    boolean await(long index, java.util.function.LongSupplier completed, java.util.function.LongSupplier failed,
                  java.util.function.BooleanSupplier stopped) {
        long deadline = sentNanos + TIMEOUT_NANOS;
        while (!stopped.getAsBoolean()) {
            if (failed.getAsLong() > 0) {
                fatal.offer("round trip: the send of message " + index + " failed (the interval's error says why); "
                        + "a round trip needs every message");
                return false;
            }
            boolean back = read > index;
            if (back && completed.getAsLong() > index) {
                return true;
            }
            long now = nanos.nanoTime();
            if (now - deadline >= 0) {
                fatal.offer("round trip: message " + index + " was not read back within " + TIMEOUT_NANOS / 1_000_000_000L
                        + " s" + (back ? " (read, but its send was never acknowledged)" : " (is the consumer assigned "
                        + "the topic's partitions?)"));
                return false;
            }
            nanos.park(Math.min(back ? ACK_PARK_NANOS : MAX_PARK_NANOS, deadline - now));
        }
        return false;
    }

    /** The samples since the last call, in order (at most {@link RoundTripSample#MAX_PER_SNAPSHOT}). */
    List<RoundTripSample> takeSamples() {
        synchronized (samples) {
            if (samples.isEmpty()) {
                return List.of();
            }
            List<RoundTripSample> out = List.copyOf(samples);
            samples.clear();
            return out;
        }
    }
}
