package io.kbench.worker;

import java.time.Duration;
import java.util.Map;

import io.kbench.driver.Driver;
import io.kbench.driver.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the run's share groups' backlog ({@link Driver#shareGroupBacklog}) once an interval on a thread of its own,
 * so that a slow or unreachable cluster holds up no snapshot: a snapshot takes the last reading if it is at most
 * two intervals old, else -1 (not known); the last snapshot of a run reads afresh ({@link #readNow}). A failed read
 * logs once per kind of failure and counts as not known.
 *
 * <p>Threads: {@link #latest} from the snapshot thread, {@link #close} from any; the reading thread is its own.
 */
final class ShareBacklogReader implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShareBacklogReader.class);

    private final Driver driver;
    private final Map<String, String> groups;
    private final long intervalNanos;
    private final NanoClock nanos;
    private final Thread thread;
    private volatile boolean closed;
    /** The last reading and when it was taken; a pair, written together by the reading thread. */
    private volatile long[] reading = {-1, Long.MIN_VALUE};
    private String lastFailure = "";

    ShareBacklogReader(Driver driver, Map<String, String> groups, long intervalMicros, NanoClock nanos, String runId) {
        this.driver = driver;
        this.groups = Map.copyOf(groups);
        this.intervalNanos = intervalMicros * 1000L;
        this.nanos = nanos;
        this.thread = new Thread(this, "kbench-share-backlog-" + runId);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        while (!closed) {
            long begin = nanos.nanoTime();
            long value;
            try {
                value = driver.shareGroupBacklog(groups, readTimeout());
            } catch (RuntimeException e) { // a DriverException, or the client failing
                value = -1;
                String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                if (!failure.equals(lastFailure)) {
                    LOG.warn("cannot read the share groups' backlog: {}", e.getMessage());
                    lastFailure = failure;
                }
            }
            reading = new long[] {value, nanos.nanoTime()};
            long next = begin + intervalNanos;
            long now;
            while (!closed && (now = nanos.nanoTime()) < next) {
                nanos.park(next - now);
            }
        }
    }

    /** Reads now on the calling thread (the last snapshot's reading); -1 when the read fails or times out. */
    long readNow() {
        try {
            long value = driver.shareGroupBacklog(groups, readTimeout());
            reading = new long[] {value, nanos.nanoTime()};
            return value;
        } catch (RuntimeException e) {
            LOG.warn("cannot read the share groups' backlog at the end: {}", e.getMessage());
            return -1;
        }
    }

    /** The last reading if it is at most two intervals old at {@code nowNanos}, else -1. */
    long latest(long nowNanos) {
        long[] r = reading;
        return r[1] != Long.MIN_VALUE && nowNanos - r[1] <= 2 * intervalNanos ? r[0] : -1;
    }

    /** Stops reading and waits for a read in progress (at most its timeout): the driver may be closed next. */
    @Override
    public void close() {
        closed = true;
        java.util.concurrent.locks.LockSupport.unpark(thread);
        if (thread.isAlive() && thread != Thread.currentThread()) {
            try {
                thread.join(readTimeout().toMillis() + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A read's bound: 5 s, or an interval when longer (a cold Admin client's first answer can take over a second). */
    private Duration readTimeout() {
        return Duration.ofNanos(Math.max(intervalNanos, 5_000_000_000L));
    }
}
