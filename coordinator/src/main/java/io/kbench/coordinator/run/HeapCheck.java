package io.kbench.coordinator.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.KeysAndHeaders;
import io.kbench.coordinator.workload.Messages;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.HeapNeed;
import io.kbench.protocol.HeapNeed.Buffers;

/**
 * Every worker's share of the plan against the heap its Identify answer gave ({@link HeapNeed}: its clients' recorders,
 * the producers' batches and the consumers' fetches), before any worker is asked to prepare: a share that cannot fit
 * is refused in one line, exit 2, before topics are made or clients built (a worker checks its own again; a run of
 * existing topics is checked again with their partitions once the first worker has found them). Workers that read the
 * same clock run in one JVM (the in-process workers): their shares count together against its heap.
 */
public final class HeapCheck {
    private HeapCheck() {
    }

    /** @throws UserException naming the first worker (or JVM of in-process workers) whose share does not fit */
    static void check(Plan plan, List<WorkerClient.Identity> ids, Buffers buffers) {
        check(plan, ids, buffers, "");
    }

    /**
     * As {@link #check(Plan, List, Buffers)}, the refusal led by {@code where} (a sweep's combination, checked with all
     * the others before the first runs: a sweep is never stopped halfway by a share known too big from the start).
     */
    public static void check(Plan plan, List<WorkerClient.Identity> ids, Buffers buffers,
                             String where) {
        Map<String, List<Integer>> jvms = new LinkedHashMap<>();
        for (int i = 0; i < ids.size() && i < plan.workers().size(); i++) {
            WorkerClient.Identity id = ids.get(i);
            if (id.hostFacts() == null || id.hostFacts().maxHeapBytes() <= 0) {
                continue; // a worker that does not tell: its own check still holds
            }
            String jvm = id.clockId().isEmpty() ? "worker:" + id.id() : id.clockId();
            jvms.computeIfAbsent(jvm, k -> new ArrayList<>()).add(i);
        }
        Shape shape = Shape.of(plan);
        for (List<Integer> workers : jvms.values()) {
            HeapNeed need = new HeapNeed(0, 0, 0, 0);
            for (int w : workers) {
                need = need.plus(need(shape, plan.workers().get(w), buffers));
            }
            long maxHeap = ids.get(workers.get(0)).hostFacts().maxHeapBytes();
            if (!need.fits(0, maxHeap)) {
                String lead = workers.size() == 1
                        ? "worker " + ids.get(workers.get(0)).id() + "'s share of the run does not fit its heap"
                        : "the shares of the " + workers.size() + " in-process workers (" + String.join(", ",
                        workers.stream().map(w -> ids.get(w).id()).toList()) + "; one JVM) do not fit its heap";
                throw new UserException(need.refusal(where + lead, 0, maxHeap));
            }
        }
    }

    /**
     * Every combination of a sweep planned on {@code ids}' workers and checked, in order, before the first runs, each
     * with {@code profile} and its own overrides.
     *
     * @throws UserException naming the first combination and worker whose share does not fit
     */
    public static void checkSweep(List<Sweep.Point> points, List<WorkerClient.Identity> ids, Profile profile) {
        Map<String, Long> payloads = new HashMap<>(); // a payload file (up to 32 MB) read once, not once a combination
        for (int i = 0; i < points.size(); i++) {
            Sweep.Point p = points.get(i);
            check(Planner.plan(p.workload(), ids.size(), "heap-check"), ids,
                    buffers(profile.with(p.profileOverrides()), p.workload(), payloads), String.format(Locale.ROOT,
                            "sweep combination %d of %d (%s): ", i + 1, points.size(), p.label()));
        }
    }

    /** The bounds for {@code workload}'s records with {@code profile}'s producer and consumer settings. */
    static Buffers buffers(Profile profile, Workload workload) {
        return buffers(profile, workload, new HashMap<>());
    }

    /** As {@link #buffers(Profile, Workload)}, the largest value of each payload file kept in {@code payloads}. */
    private static Buffers buffers(Profile profile, Workload workload, Map<String, Long> payloads) {
        Messages m = workload.messages();
        long value = m.payloadFile() == null ? m.messageSize() : payloads.computeIfAbsent(m.payloadFile() + "\0"
                + m.payloadDelimiter(), k -> m.payloadValues().stream().mapToLong(v -> v.length).max().orElse(0));
        KeysAndHeaders kh = m.keysAndHeaders();
        return Buffers.of(profile.common(), profile.producer(), profile.consumer(), HeapNeed.recordContent(value,
                kh.keySize(), kh.headersPerMessage(), kh.headerKeySize(), kh.headerValueSize()));
    }

    /** The plan's topics' partitions and its groups' sizes, counted once for every worker's need. */
    record Shape(Map<String, Integer> partitions, Map<String, Integer> groupSizes) {
        static Shape of(Plan plan) {
            Map<String, Integer> partitions = new HashMap<>();
            plan.topics().forEach(t -> partitions.put(t.name(), t.partitions()));
            Map<String, Integer> groupSizes = new HashMap<>();
            for (Plan.WorkerAssignment any : plan.workers()) {
                for (Plan.ConsumerTask c : any.consumers()) {
                    groupSizes.merge(c.group() + "\0" + c.topic(), 1, Integer::sum);
                }
            }
            return new Shape(partitions, groupSizes);
        }
    }

    /** As {@link #need(Shape, Plan.WorkerAssignment, Buffers)} for one worker of {@code plan}. */
    static HeapNeed need(Plan plan, Plan.WorkerAssignment w, Buffers buffers) {
        return need(Shape.of(plan), w, buffers);
    }

    /**
     * {@code w}'s clients: a producer's batches on its topic's partitions; a classic consumer reads its share of its
     * topic's partitions (the group's consumers in the whole plan split them), a share consumer may read every one.
     */
    static HeapNeed need(Shape shape, Plan.WorkerAssignment w, Buffers buffers) {
        HeapNeed.Tally tally = buffers.tally();
        for (Plan.ProducerTask p : w.producers()) {
            tally.producer(p.ratePerSecond(), shape.partitions().getOrDefault(p.topic(), 1), p.recordLimit());
        }
        for (Plan.ConsumerTask c : w.consumers()) {
            int p = shape.partitions().getOrDefault(c.topic(), 1);
            int group = shape.groupSizes().getOrDefault(c.group() + "\0" + c.topic(), 1);
            tally.consumer(c.share(), c.share() ? p : (p + group - 1) / group);
        }
        return tally.need();
    }
}
