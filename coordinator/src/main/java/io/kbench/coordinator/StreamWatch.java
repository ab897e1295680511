package io.kbench.coordinator;

import java.util.ArrayList;
import java.util.List;

/**
 * Notices a worker that has gone silent. Every worker sends a snapshot each interval, so a run stream that has
 * brought nothing for {@link #thresholdMicros} (two intervals and two seconds) belongs to a worker that is gone
 * or cut off, even while TCP has not said so yet: gRPC keeps a client's keepalive pings at least 10 s apart,
 * and a coordinator that sends nothing on the stream learns of a silent peer only through them.
 *
 * <p>Times are coordinator microseconds, passed in (tests use any clock). Threads: gRPC threads report
 * snapshots and closed streams, the watch thread asks; every method is synchronized.
 */
public final class StreamWatch {
    private final long[] lastHeard;
    private final boolean[] closed;
    private final long thresholdMicros;

    /**
     * @param workers        number of run streams
     * @param runStartMicros the run's start instant: the first snapshots are due one interval later
     * @param intervalMicros the reporting interval
     */
    public StreamWatch(int workers, long runStartMicros, long intervalMicros) {
        this.lastHeard = new long[workers];
        this.closed = new boolean[workers];
        java.util.Arrays.fill(lastHeard, runStartMicros);
        this.thresholdMicros = 2 * intervalMicros + 2_000_000;
    }

    /** How long a stream may bring nothing before its worker counts as lost (µs). */
    public long thresholdMicros() {
        return thresholdMicros;
    }

    /** Worker {@code index} sent a snapshot at {@code nowMicros}. */
    public synchronized void heard(int index, long nowMicros) {
        lastHeard[index] = Math.max(lastHeard[index], nowMicros);
    }

    /** Worker {@code index}'s stream ended (completed, failed or given up on): it is no longer watched. */
    public synchronized void closed(int index) {
        closed[index] = true;
    }

    /** The open streams silent for longer than the threshold at {@code nowMicros}, with their silence (µs). */
    public synchronized List<long[]> silent(long nowMicros) {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < lastHeard.length; i++) {
            long quiet = nowMicros - lastHeard[i];
            if (!closed[i] && quiet > thresholdMicros) {
                out.add(new long[] {i, quiet});
            }
        }
        return out;
    }
}
