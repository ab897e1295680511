package io.kbench.coordinator.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.protocol.HeapNeed;

/**
 * Every worker's share of the plan against the heap its Identify answer gave ({@link HeapNeed}), before any worker is
 * asked to prepare: a share that cannot fit is refused in one line, exit 2, before topics are made or clients built
 * (a worker checks its own again). Workers that read the same clock run in one JVM (the in-process workers): their
 * shares count together against its heap.
 */
public final class HeapCheck {
    private HeapCheck() {
    }

    /** @throws UserException naming the first worker (or JVM of in-process workers) whose share does not fit */
    static void check(Plan plan, List<WorkerClient.Identity> ids) {
        check(plan, ids, "");
    }

    /**
     * As {@link #check(Plan, List)}, the refusal led by {@code where} (a sweep's combination, checked with all the
     * others before the first runs: a sweep is never stopped halfway by a share known too big from the start).
     */
    public static void check(Plan plan, List<WorkerClient.Identity> ids, String where) {
        Map<String, List<Integer>> jvms = new LinkedHashMap<>();
        for (int i = 0; i < ids.size() && i < plan.workers().size(); i++) {
            WorkerClient.Identity id = ids.get(i);
            if (id.hostFacts() == null || id.hostFacts().maxHeapBytes() <= 0) {
                continue; // a worker that does not tell: its own check still holds
            }
            String jvm = id.clockId().isEmpty() ? "worker:" + id.id() : id.clockId();
            jvms.computeIfAbsent(jvm, k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> workers : jvms.values()) {
            HeapNeed need = new HeapNeed(0, 0, 0, 0);
            for (int w : workers) {
                need = need.plus(need(plan.workers().get(w)));
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
     * Every combination of a sweep planned on {@code ids}' workers and checked, in order, before the first runs.
     *
     * @throws UserException naming the first combination and worker whose share does not fit
     */
    public static void checkSweep(List<Sweep.Point> points, List<WorkerClient.Identity> ids) {
        for (int i = 0; i < points.size(); i++) {
            Sweep.Point p = points.get(i);
            check(Planner.plan(p.workload(), ids.size(), "heap-check"), ids, String.format(Locale.ROOT,
                    "sweep combination %d of %d (%s): ", i + 1, points.size(), p.label()));
        }
    }

    static HeapNeed need(Plan.WorkerAssignment w) {
        long paced = w.producers().stream().filter(p -> p.ratePerSecond() >= 0).count();
        long share = w.consumers().stream().filter(Plan.ConsumerTask::share).count();
        return new HeapNeed(paced, w.producers().size() - paced, w.consumers().size() - share, share);
    }
}
