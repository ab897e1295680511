package io.kbench.coordinator.run;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

/**
 * Discrete-event time for a whole coordinator: time stands still while any thread that uses the clock is
 * running, and jumps to the earliest wake-up as soon as every one of them waits in {@link #sleep}. Listeners
 * ({@link #onAdvance}) run on the thread that moved time, before anyone wakes: the fake workers emit their
 * snapshots there. A run of minutes of clock time takes milliseconds, and no test waits for real time to
 * pass.
 *
 * <p>A thread joins when it first sleeps and leaves when it ends; {@link #nudge()} moves time when the last
 * running thread ended instead of sleeping (the harness calls it while it waits for the run).
 */
final class SimulatedClock implements CoordinatorClock {
    private long micros;
    private final Map<Thread, Long> sleepers = new HashMap<>();
    private final Set<Thread> known = new HashSet<>();
    private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();

    SimulatedClock(long startMicros) {
        this.micros = startMicros;
    }

    @Override
    public synchronized long micros() {
        return micros;
    }

    @Override
    public String id() {
        return "simulated";
    }

    /** Calls {@code listener} with the new time whenever time moves. */
    void onAdvance(LongConsumer listener) {
        listeners.add(listener);
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        Thread me = Thread.currentThread();
        long deadline;
        synchronized (this) {
            deadline = micros + Math.max(1, duration.toNanos() / 1000);
            known.add(me);
            sleepers.put(me, deadline);
        }
        nudge();
        synchronized (this) {
            try {
                while (micros < deadline) {
                    wait();
                }
            } finally {
                sleepers.remove(me);
            }
        }
    }

    /** Moves time to the earliest wake-up if every thread using the clock is asleep; true if it moved. */
    boolean nudge() {
        long to;
        synchronized (this) {
            known.removeIf(t -> !t.isAlive());
            if (sleepers.isEmpty() || !sleepers.keySet().containsAll(known)) {
                return false;
            }
            to = sleepers.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            if (to <= micros) {
                return false;
            }
            micros = to;
        }
        for (LongConsumer l : listeners) {
            l.accept(to);
        }
        synchronized (this) {
            notifyAll();
        }
        return true;
    }
}
