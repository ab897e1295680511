package io.kbench.worker;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the first error of the current reporting interval so it can travel in the snapshot, without
 * logging on the load or I/O threads. Thread-safe; {@link #offer} allocates only on the error path.
 */
public final class ErrorSlot {
    private final AtomicReference<String> first = new AtomicReference<>();
    private volatile String stopping;

    /** Keeps {@code error}'s description if no error was kept since the last {@link #take()}. */
    public void offer(Throwable error) {
        if (first.get() == null) {
            offer(describe(error));
        }
    }

    /** Keeps {@code message} if no error was kept since the last {@link #take()}. */
    public void offer(String message) {
        String why = stopping;
        String m = why == null ? message : message + " (" + why + ")";
        first.compareAndSet(null, m.length() <= MAX_CHARS ? m : m.substring(0, MAX_CHARS) + "...");
    }

    /**
     * From now on each error kept says {@code why} after its own text: the errors of a stop kbench makes (producers
     * closed at once) are told from the cluster's.
     */
    public void stopping(String why) {
        stopping = why;
    }

    /** Longest error text a snapshot carries (the coordinator keeps less still). */
    static final int MAX_CHARS = 1_000;

    /** The kept error, or an empty string; clears the slot. */
    public String take() {
        String e = first.getAndSet(null);
        return e == null ? "" : e;
    }

    static String describe(Throwable error) {
        String m = error.getMessage();
        return error.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
