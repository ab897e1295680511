package io.kbench.coordinator.run;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * One background loop of a run on a thread of its own — the only way the coordinator runs one (lease
 * renewal, stream watch, clock re-check, faults, the end condition's poll). The loop owns its thread's whole
 * life: it calls its {@link Body} once per period of the injected clock until the body says it is done or
 * the loop is {@linkplain #close closed}; an exception from the body ends the loop and goes to its error
 * handler once, never to the thread's default handler.
 *
 * <p>Threads: {@link #start} and {@link #close} from the owner's thread; the body on the loop's daemon thread.
 */
public final class Loop implements AutoCloseable {
    /** One turn of a loop. */
    @FunctionalInterface
    public interface Body {
        /**
         * @param nowMicros the clock's reading at the start of this turn
         * @return false when the loop has nothing more to do
         */
        boolean turn(long nowMicros) throws InterruptedException;
    }

    private final Thread thread;
    private volatile boolean closed;
    /** Guards {@link #inTurn} against {@link #finish}'s interrupt. */
    private final Object turnLock = new Object();
    private boolean inTurn;

    private Loop(String name, Duration period, CoordinatorClock clock, Body body, Consumer<RuntimeException> onError) {
        this.thread = new Thread(() -> {
            try {
                while (!closed) {
                    synchronized (turnLock) {
                        if (closed) {
                            break;
                        }
                        inTurn = true;
                    }
                    boolean more;
                    try {
                        more = body.turn(clock.micros());
                    } finally {
                        synchronized (turnLock) {
                            inTurn = false;
                        }
                    }
                    if (!more || closed) {
                        break;
                    }
                    clock.sleep(period);
                }
            } catch (InterruptedException e) {
                // closed
            } catch (RuntimeException e) {
                if (!closed) {
                    onError.accept(e);
                }
            }
        }, name);
        thread.setDaemon(true);
    }

    /**
     * Starts a loop whose first turn runs at once.
     *
     * @param name    the thread's name ({@code kbench-...})
     * @param period  wait between turns
     * @param onError receives what a turn threw (the loop has then ended)
     */
    public static Loop start(String name, Duration period, CoordinatorClock clock, Body body,
                             Consumer<RuntimeException> onError) {
        Loop loop = new Loop(name, period, clock, body, onError);
        loop.thread.start();
        return loop;
    }

    /**
     * Stops the loop: no new turn starts, the thread is interrupted — a wait between turns, or a blocking call of a
     * turn under way — and this returns once the thread has ended or {@code wait} has passed.
     *
     * @return true when the thread has ended
     */
    public boolean close(Duration wait) {
        return stop(wait, true);
    }

    /**
     * Stops the loop after the turn under way, if any, without interrupting it (a broker being restarted by a fault
     * waits for it to serve; interrupted, it would be left half started and the fault reported failed): no new turn
     * starts, a wait between turns is interrupted, and this returns once the thread has ended or {@code wait} has
     * passed.
     *
     * @return true when the thread has ended
     */
    public boolean finish(Duration wait) {
        return stop(wait, false);
    }

    private boolean stop(Duration wait, boolean interruptTurn) {
        closed = true;
        synchronized (turnLock) {
            if (interruptTurn || !inTurn) {
                thread.interrupt();
            }
        }
        try {
            thread.join(Math.max(1, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** {@link #close(Duration)} with 15 s. */
    @Override
    public void close() {
        close(Duration.ofSeconds(15));
    }

    /** True while the thread runs. */
    public boolean running() {
        return thread.isAlive();
    }
}
