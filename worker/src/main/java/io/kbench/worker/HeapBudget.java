package io.kbench.worker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kbench.protocol.HeapNeed;

/**
 * The heap a worker's share of a run takes at the least ({@link HeapNeed}), checked against its JVM's before any
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
        long paced = spec.producers().stream().filter(p -> p.ratePerSecond() >= 0).count();
        long share = spec.consumers().stream().filter(RunSpec.Consumer::share).count();
        java.util.Map<String, String> settings = new java.util.HashMap<>(spec.driverConfig().common());
        settings.putAll(spec.driverConfig().producer());
        RunSpec.Values v = spec.values();
        long value = v.payloads().isEmpty() ? v.messageSize()
                : v.payloads().stream().mapToLong(b -> b.length).max().orElse(0);
        RunSpec.Headers h = v.headers();
        long extra = spec.keys().size() + (long) h.count() * (h.keySize() + Math.max(0, h.valueSize()));
        HeapNeed.ProducerBatches batches = HeapNeed.ProducerBatches.of(settings, value + extra);
        java.util.Map<String, Integer> partitions = new java.util.HashMap<>();
        spec.createTopics().forEach(t -> partitions.put(t.name(), t.partitions()));
        long held = 0;
        for (RunSpec.Producer p : spec.producers()) {
            // an existing topic's partitions are not known yet: one (the least the bound can be)
            held = HeapNeed.sum(held, batches.of(p.ratePerSecond(), partitions.getOrDefault(p.topic(), 1),
                    p.recordLimit()));
        }
        java.util.Map<String, String> consumer = new java.util.HashMap<>(spec.driverConfig().common());
        consumer.putAll(spec.driverConfig().consumer());
        HeapNeed.ConsumerFetches fetches = HeapNeed.ConsumerFetches.of(consumer);
        // how the group's partitions split is the coordinator's to count (it sees every worker's consumers): here one
        // partition each, the least a consumer reads
        long fetched = 0;
        for (int i = 0; i < spec.consumers().size(); i++) {
            fetched = HeapNeed.sum(fetched, fetches.of(1));
        }
        return new HeapNeed(paced, spec.producers().size() - paced, spec.consumers().size() - share, share, held,
                fetched);
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
                throw new WorkerException(WorkerException.Kind.INVALID, need.refusal("its share of the run does not fit its heap", held, maxHeap));
            }
            if (RESERVED.compareAndSet(held, held + need.bytes())) {
                return new Reservation(need.bytes());
            }
        }
    }
}
