package io.kbench.coordinator.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.HeapNeed;

/**
 * Every worker's share of the plan against the heap its Identify answer gave ({@link HeapNeed}), before any worker is
 * asked to prepare: a share that cannot fit is refused in one line, exit 2, before topics are made or clients built
 * (a worker checks its own again). Workers that read the same clock run in one JVM (the in-process workers): their
 * shares count together against its heap.
 */
final class HeapCheck {
    private HeapCheck() {
    }

    /** @throws UserException naming the first worker (or JVM of in-process workers) whose share does not fit */
    static void check(Plan plan, List<WorkerClient.Identity> ids) {
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
                throw new UserException(need.refusal(lead, 0, maxHeap));
            }
        }
    }

    static HeapNeed need(Plan.WorkerAssignment w) {
        long paced = w.producers().stream().filter(p -> p.ratePerSecond() >= 0).count();
        long share = w.consumers().stream().filter(Plan.ConsumerTask::share).count();
        return new HeapNeed(paced, w.producers().size() - paced, w.consumers().size() - share, share);
    }
}
