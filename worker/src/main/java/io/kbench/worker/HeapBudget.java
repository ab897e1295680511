package io.kbench.worker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.protocol.HeapNeed;

/**
 * The heap a worker's share of a run can take ({@link HeapNeed}), checked against its JVM's before any
 * client is built: a share that cannot fit is refused in one line (the coordinator exits 2, nothing started) rather
 * than run out of memory while its clients are built, which on a 6-GB heap took minutes of collections and a storm of
 * {@code OutOfMemoryError}s from the clients' threads (3,000 paced producers, 2026-12-01). The coordinator checks the
 * same before it prepares any worker; this is the worker's own check (a coordinator of another build, another
 * coordinator's run in the same JVM).
 *
 * <p>In-process workers share one JVM: each reservation counts against the same heap, and is given back when its run
 * ends ({@link Reservation#close}).
 */
final class HeapBudget {
    /** Bytes reserved by the runs this JVM's workers hold now. */
    private static final AtomicLong RESERVED = new AtomicLong();

    private HeapBudget() {
    }

    /** A reservation of heap for one run; given back once. */
    static final class Reservation implements AutoCloseable {
        private final long bytes;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                RESERVED.addAndGet(-bytes);
            }
        }
    }

    /** The clients of {@code spec} on this worker. */
    static HeapNeed need(RunSpec spec) {
        RunSpec.Values v = spec.values();
        long value = v.payloads().isEmpty() ? v.messageSize()
                : v.payloads().stream().mapToLong(b -> b.length).max().orElse(0);
        RunSpec.Headers h = v.headers();
        HeapNeed.Tally tally = HeapNeed.Buffers.of(spec.driverConfig().common(), spec.driverConfig().producer(),
                spec.driverConfig().consumer(), HeapNeed.recordContent(value, spec.keys().size(), h.count(),
                        h.keySize(), h.valueSize())).tally();
        java.util.Map<String, Integer> partitions = new java.util.HashMap<>();
        spec.createTopics().forEach(t -> partitions.put(t.name(), t.partitions()));
        for (RunSpec.Producer p : spec.producers()) {
            // an existing topic's partitions are not known yet: one (the least the bound can be)
            tally.producer(p.ratePerSecond(), partitions.getOrDefault(p.topic(), 1), p.recordLimit());
        }
        for (RunSpec.Consumer c : spec.consumers()) {
            // how a group's partitions split is the coordinator's to count (it sees every worker's consumers): here
            // one partition each, the least a consumer reads
            tally.consumer(c.share(), 1);
        }
        return tally.need();
    }

    /**
     * Reserves {@code spec}'s need against a heap of {@code maxHeap} bytes.
     *
     * @throws WorkerException INVALID when it does not fit beside what this JVM's other runs reserved
     */
    static Reservation reserve(RunSpec spec, long maxHeap) {
        HeapNeed need = need(spec);
        while (true) {
            long held = RESERVED.get();
            if (!need.fits(held, maxHeap)) {
                throw new WorkerException(WorkerException.Kind.INVALID,
                        need.refusal("its share of the run does not fit its heap", held, maxHeap));
            }
            if (RESERVED.compareAndSet(held, held + need.bytes())) {
                return new Reservation(need.bytes());
            }
        }
    }
}
