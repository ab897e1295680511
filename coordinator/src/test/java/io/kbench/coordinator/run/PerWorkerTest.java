package io.kbench.coordinator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * With several workers the run's first line says how the producers, consumers and target split over them: three
 * workers running 4 producers, 6 consumers and 10,001 msg/s printed only the totals.
 */
class PerWorkerTest {
    @Test
    void shouldSayHowEachFigureSplitsOverTheWorkers() {
        // 2 topics x 2 producers, 1 group x 3 consumers each, 10,001 msg/s, on 3 workers
        Plan plan = Planner.plan(Workload.timed("split", 2, 5, 100, 2, 1, 3, 10_001, 2, 6), 3, "r");
        String producers = RunController.perWorker(plan, w -> w.producers().size());
        String rate = RunController.perWorker(plan, w -> w.producers().stream().mapToLong(Plan.ProducerTask::ratePerSecond)
                .sum());
        String consumers = RunController.perWorker(plan, w -> w.consumers().size());
        assertEquals(4, sum(producers));
        assertEquals(10_001, sum(rate));
        assertEquals(6, sum(consumers));
        assertEquals(3, rate.split("\\+").length, rate);
        assertEquals("", RunController.perWorker(Planner.plan(Workload.timed("one", 1, 5, 100, 2, 1, 3, 10_001, 2, 6), 1,
                "r"), w -> w.producers().size()), "one worker: the totals say it");
        assertEquals("", RunController.perWorker(plan, w -> 0), "none anywhere: nothing to split");
        Plan many = Planner.plan(Workload.timed("many", 1, 12, 100, 12, 1, 1, 12_000, 0, 6), 10, "r");
        assertEquals(" (1 to 2 per worker)", RunController.perWorker(many, w -> w.producers().size()));
    }

    /** The figures of " (a+b+c per worker)" added up. */
    private static long sum(String split) {
        long total = 0;
        for (String part : split.replace(" (", "").replace(" per worker)", "").split("\\+")) {
            total += Long.parseLong(part.replace(",", ""));
        }
        return total;
    }
}
