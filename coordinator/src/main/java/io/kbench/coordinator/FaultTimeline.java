package io.kbench.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kbench.coordinator.workload.Fault;

/**
 * What the run's scheduled faults did and when: each fault's requested instant, the instant it took effect
 * (the broker had stopped, or serves again), and any error; from those, the windows in which each broker was
 * down, so intervals can be marked. A broker counts as down from the moment its stop was requested until its
 * restart completed (or the run's end).
 *
 * <p>Threads: the fault thread records, gRPC threads and the coordinator read; every method is synchronized.
 */
public final class FaultTimeline {
    /**
     * One fault as it happened (coordinator time, µs).
     *
     * @param fault         what was scheduled
     * @param requestMicros when it was started
     * @param doneMicros    when it took effect, 0 if it failed or has not yet
     * @param error         why it failed, or null
     */
    public record Event(Fault fault, long requestMicros, long doneMicros, String error) { }

    private final List<Event> events = new ArrayList<>();

    /** Records that {@code fault} started at {@code requestMicros}; returns its index for {@link #done}. */
    public synchronized int begin(Fault fault, long requestMicros) {
        events.add(new Event(fault, requestMicros, 0, null));
        return events.size() - 1;
    }

    /** Records how the fault at {@code index} ended: at {@code doneMicros}, or with {@code error}. */
    public synchronized void done(int index, long doneMicros, String error) {
        Event e = events.get(index);
        events.set(index, new Event(e.fault(), e.requestMicros(), error == null ? doneMicros : 0, error));
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /**
     * The brokers down at any time within [{@code startMicros}, {@code endMicros}), as "broker N down" in
     * broker order; empty when none was.
     */
    public synchronized List<String> downDuring(long startMicros, long endMicros) {
        Map<Integer, long[]> open = new TreeMap<>();
        List<String> out = new ArrayList<>();
        java.util.Set<Integer> marked = new java.util.TreeSet<>();
        for (Event e : events) {
            int b = e.fault().broker();
            if (e.fault().action() == Fault.Action.stop) {
                open.put(b, new long[] {e.requestMicros()});
            } else {
                long[] from = open.remove(b);
                long to = e.doneMicros() != 0 ? e.doneMicros() : Long.MAX_VALUE;
                if (from != null && from[0] < endMicros && to > startMicros) {
                    marked.add(b);
                }
            }
        }
        for (Map.Entry<Integer, long[]> o : open.entrySet()) {
            if (o.getValue()[0] < endMicros) {
                marked.add(o.getKey());
            }
        }
        marked.forEach(b -> out.add("broker " + b + " down"));
        return out;
    }
}
