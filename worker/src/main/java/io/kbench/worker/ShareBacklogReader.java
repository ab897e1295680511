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
 * <p>The last reading waits first, at most {@link #MEMBERS_WAIT_NANOS}, until none of the run's share consumers is left in
 * the groups. The groups' consumers may be split over several workers, and this worker's last snapshot comes once
 * its own consumers have closed: the other workers' consumers may still be closing. Closing is what sends a
 * consumer's last acknowledgements (implicit mode acknowledges a batch with the next poll or the close), and a
 * consumer leaves its group after that; a reading taken before they left would count records already processed.
 *
 * <p>Threads: {@link #latest} from the snapshot thread, {@link #close} from any; the reading thread is its own.
 */
final class ShareBacklogReader implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShareBacklogReader.class);

    /** How long the last reading waits for the run's share consumers on other workers to leave their groups. */
    static final long MEMBERS_WAIT_NANOS = 5_000_000_000L;
    /** How often it asks meanwhile. */
    static final long MEMBERS_POLL_NANOS = 50_000_000L;

    private final Driver driver;
    private final Map<String, String> groups;
    private final String clientIdPrefix;
    private final long intervalNanos;
    private final NanoClock nanos;
    private final Thread thread;
    private volatile boolean closed;
    /** The last reading and when it was taken; a pair, written together by the reading thread. */
    private volatile long[] reading = {-1, Long.MIN_VALUE};
    private String lastFailure = "";

    /**
     * @param clientIdPrefix what the client ids of the run's share consumers, on every worker, start with
     */
    ShareBacklogReader(Driver driver, Map<String, String> groups, long intervalMicros, NanoClock nanos, String runId,
                       String clientIdPrefix) {
        this.driver = driver;
        this.groups = Map.copyOf(groups);
        this.clientIdPrefix = clientIdPrefix;
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

    /**
     * Reads on the calling thread (the last snapshot's reading) once the run's share consumers have left the groups,
     * or {@link #MEMBERS_WAIT_NANOS} has passed; -1 when the read fails or times out.
     */
    long readNow() {
        awaitMembersGone();
        try {
            long value = driver.shareGroupBacklog(groups, readTimeout());
            reading = new long[] {value, nanos.nanoTime()};
            return value;
        } catch (RuntimeException e) {
            LOG.warn("cannot read the share groups' backlog at the end: {}", e.getMessage());
            return -1;
        }
    }

    /**
     * Waits until no share consumer of the run is a member of the groups, at most {@link #MEMBERS_WAIT_NANOS}; gives up
     * at once when that cannot be told (the driver does not say, the cluster does not answer). Past the bound the
     * reading is still taken, with a warning: a consumer that died stays a member until its session times out.
     */
    private void awaitMembersGone() {
        long begin = nanos.nanoTime();
        long deadline = begin + MEMBERS_WAIT_NANOS;
        for (int asked = 1; ; asked++) {
            long left = deadline - nanos.nanoTime();
            int members;
            try {
                members = driver.shareGroupMembers(groups.keySet(), clientIdPrefix,
                        Duration.ofNanos(Math.max(left, MEMBERS_POLL_NANOS)));
            } catch (RuntimeException e) {
                LOG.warn("cannot tell whether the run's share consumers have left their groups: {}", e.getMessage());
                return;
            }
            if (members <= 0) { // none left, or not known
                if (asked > 1) {
                    LOG.info("read the share groups' backlog at the end once the run's share consumers on other workers "
                            + "had left their groups ({} ms)", (nanos.nanoTime() - begin) / 1_000_000);
                }
                return;
            }
            long now = nanos.nanoTime();
            if (now >= deadline) {
                LOG.warn("{} share consumer(s) of the run still in their groups after {} s: the backlog at the end is "
                        + "read without what they have not acknowledged yet", members, MEMBERS_WAIT_NANOS / 1_000_000_000L);
                return;
            }
            nanos.park(Math.min(MEMBERS_POLL_NANOS, deadline - now));
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
