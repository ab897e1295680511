package io.kbench.worker;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread of a run on this worker, owned from its start to its join — the only way a run starts one (each
 * producer and consumer, the snapshot stream). Modelled on Agrona's {@code AgentRunner}: the runner names the
 * daemon thread, asks its {@link Task} to stop, and hands whatever the task let escape (a bug; the loops report
 * their own failures) to its error handler once, never to the thread's default handler, which would only print it.
 *
 * <p>Threads: {@link #start}, {@link #stop}, {@link #interrupt} and {@link #joinAll} from the run's control
 * threads; the task on the runner's thread.
 */
final class Runner {
    private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

    /** What a runner runs: its whole life on the runner's thread, until it returns. */
    interface Task extends Runnable {
        /** Asks the task to return soon; any thread, any number of times. */
        void stop();
    }

    private final Thread thread;
    private final Task task;

    private Runner(String name, Task task, Consumer<String> onError) {
        this.task = task;
        this.thread = new Thread(() -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                onError.accept(name + " failed: " + ErrorSlot.describe(e));
            }
        }, name);
        thread.setDaemon(true);
    }

    /**
     * Starts {@code task} on a daemon thread.
     *
     * @param name    the thread's name ({@code kbench-...})
     * @param onError receives, as one line, what the task threw (it has then ended)
     */
    static Runner start(String name, Task task, Consumer<String> onError) {
        Runner r = new Runner(name, task, onError);
        r.thread.start();
        return r;
    }

    /** Asks the task to stop and unparks its thread (a task parked until its next turn sees the stop); does not wait. */
    void stop() {
        task.stop();
        LockSupport.unpark(thread);
    }

    /** Interrupts the thread (one blocked in a client call that a stop alone does not end). */
    void interrupt() {
        thread.interrupt();
    }

    /** True when called on this runner's own thread. */
    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Waits for every runner's thread to end, within {@code millis} of real time in all (they are real threads,
     * whatever the run's clock); one still running then is logged and left (a daemon). Returns early, with the
     * interrupt flag set, when the calling thread is interrupted. Skips the calling thread's own runner.
     *
     * @return true when every thread has ended
     */
    static boolean joinAll(List<Runner> runners, long millis) {
        long deadline = System.currentTimeMillis() + millis;
        boolean all = true;
        for (Runner r : runners) {
            if (r.isCurrentThread()) {
                continue;
            }
            try {
                r.thread.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (r.thread.isAlive()) {
                LOG.warn("{} did not stop within {} ms", r.thread.getName(), millis);
                all = false;
            }
        }
        return all;
    }
}
