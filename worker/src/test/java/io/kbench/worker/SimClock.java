package io.kbench.worker;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.NanoClock;

/**
 * Simulated time for several threads: it moves only when the test {@linkplain #advance advances} it, and then
 * only once every thread that waits on it is {@linkplain #park parked} until a later instant — from one such
 * instant to the next, so each thread sees every moment it asked for, in order, whatever the machine's speed.
 * A run's whole life (seconds or minutes of its time) takes milliseconds.
 *
 * <p>{@link #park} may also return early, after a millisecond of real time (a spurious wake-up, which
 * {@link NanoClock} allows): a thread asked to stop ({@code LockSupport.unpark} cannot reach a thread waiting
 * here) sees its flag then. Thread-safe.
 */
final class SimClock implements NanoClock {
    private static final long QUIET_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private long now;
    /** The threads that have waited here, and until when each waits now (absent: not waiting). */
    private final Set<Thread> known = new HashSet<>();
    private final Map<Thread, Long> waiting = new HashMap<>();

    SimClock(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public void park(long nanos) {
        Thread me = Thread.currentThread();
        synchronized (this) {
            long until = now + Math.max(1, nanos);
            known.add(me);
            waiting.put(me, until);
            notifyAll(); // an advance may be waiting for this thread to settle
            try {
                if (now < until) {
                    wait(1);
                }
            } catch (InterruptedException e) {
                me.interrupt(); // as LockSupport.parkNanos: return, the flag kept
            } finally {
                waiting.remove(me);
            }
        }
    }

    /**
     * Moves time forward by {@code nanos}: step by step to each instant a parked thread waits for, each step
     * taken once every known live thread waits for a later instant and at least {@code threads} threads are known.
     *
     * @throws AssertionError when the threads do not settle within 10 s of real time
     */
    synchronized void advance(long nanos, int threads) throws InterruptedException {
        long end = now + nanos;
        while (true) {
            awaitQuiet(threads);
            long next = end;
            for (long until : waiting.values()) {
                next = Math.min(next, until);
            }
            now = next;
            notifyAll();
            if (next == end) {
                awaitQuiet(threads);
                return;
            }
        }
    }

    /**
     * Waits until every known live thread waits for a later instant, and at least {@code threads} threads are known
     * (those that have ended count: a run's producer ends before its stream).
     */
    private void awaitQuiet(int threads) throws InterruptedException {
        long deadline = System.nanoTime() + QUIET_TIMEOUT_NANOS;
        while (!quiet(threads)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("threads did not settle at " + now + ": waiting " + describe());
            }
            wait(1);
        }
    }

    private boolean quiet(int threads) {
        for (Thread t : known) {
            if (!t.isAlive()) {
                continue;
            }
            Long until = waiting.get(t);
            if (until == null || until <= now) {
                return false;
            }
        }
        return known.size() >= threads;
    }

    private String describe() {
        StringBuilder b = new StringBuilder();
        for (Thread t : known) {
            b.append(t.getName()).append('=').append(t.isAlive() ? waiting.get(t) : "ended").append(' ');
        }
        return b.toString();
    }
}
