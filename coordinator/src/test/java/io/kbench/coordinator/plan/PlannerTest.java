package io.kbench.coordinator.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlannerTest {

    @ParameterizedTest(name = "{0} msg/s over {1} parts -> {2}")
    @CsvSource(delimiter = ';', value = {
        "20000; 2; 10000 10000",
        "10; 3; 4 3 3",
        "7; 7; 1 1 1 1 1 1 1",
        "100001; 4; 25001 25000 25000 25000",
        "-1; 3; -1 -1 -1",
        "5; 1; 5",
    })
    void shouldSplitRateIntoWholeMessagesSummingExactly(long total, int parts, String expected) {
        long[] want = java.util.Arrays.stream(expected.split(" ")).mapToLong(Long::parseLong).toArray();
        long[] got = RateSplit.split(total, parts);
        assertArrayEquals(want, got);
        if (total >= 0) {
            assertEquals(total, LongStream.of(got).sum());
        }
    }

    @ParameterizedTest(name = "{0} topics x {1} producers, {2} subs x {3} consumers, rate {4}, {5} workers")
    @CsvSource({
        // topics, producersPerTopic, subscriptions, consumersPerSub, rate, workers
        "1, 1, 1, 1, 1000, 1",
        "2, 1, 1, 1, 20000, 2",
        "1, 3, 1, 3, 10, 2",     // uneven split
        "1, 1, 1, 1, 1000, 5",   // more workers than producers
        "4, 3, 2, 2, 99999, 3",
        "1, 2, 0, 1, -1, 2",     // producers only, unthrottled
        "3, 5, 1, 4, 7777, 4",
    })
    void shouldAssignEveryTaskOnceWithExactRatesAndBalancedLoad(int topics, int producers, int subs, int consumers,
                                                                long rate, int workers) {
        Workload w = Workload.timed("t", topics, 6, 100, producers, subs, consumers, rate, 0, 10);
        Plan plan = Planner.plan(w, workers, "run1");

        assertEquals(workers, plan.workers().size());
        assertEquals(topics, plan.topics().size());
        assertEquals(topics * producers, plan.producerCount());
        assertEquals(topics * subs * consumers, plan.consumerCount());

        Set<Integer> producerIds = new HashSet<>();
        Set<Integer> consumerIds = new HashSet<>();
        long rateSum = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Plan.WorkerAssignment a : plan.workers()) {
            a.producers().forEach(p -> assertTrue(producerIds.add(p.index()), "producer assigned twice"));
            a.consumers().forEach(c -> assertTrue(consumerIds.add(c.index()), "consumer assigned twice"));
            for (Plan.ProducerTask p : a.producers()) {
                if (rate < 0) {
                    assertEquals(-1, p.ratePerSecond());
                } else {
                    assertTrue(p.ratePerSecond() >= rate / (topics * producers));
                    rateSum += p.ratePerSecond();
                }
            }
            int tasks = a.producers().size() + a.consumers().size();
            min = Math.min(min, tasks);
            max = Math.max(max, tasks);
        }
        if (rate >= 0) {
            assertEquals(rate, rateSum, "per-producer rates must sum to the target");
            assertEquals(rate, plan.workers().stream().mapToLong(Plan.WorkerAssignment::rate).sum());
        }
        assertTrue(max - min <= 1, "tasks per worker differ by more than one: " + min + ".." + max);
        int total = topics * producers + topics * subs * consumers;
        if (total >= workers) {
            assertTrue(min >= 1, "a worker idles although there are " + total + " tasks");
        }
    }

    @ParameterizedTest(name = "{0} records over {1} topics x {2} producers")
    @CsvSource({"1000, 1, 1", "1000, 1, 3", "7, 7, 1", "1000000007, 2, 5"})
    void shouldSplitARecordCountExactlyAcrossProducers(long records, int topics, int producers) {
        Workload w = Workload.of("t", java.util.Map.of("topics", topics, "producersPerTopic", producers,
                "subscriptionsPerTopic", 0, "numRecords", records));
        Plan plan = Planner.plan(w, 2, "r");
        long sum = 0;
        for (Plan.WorkerAssignment a : plan.workers()) {
            for (Plan.ProducerTask p : a.producers()) {
                assertTrue(p.recordLimit() >= records / (topics * producers));
                sum += p.recordLimit();
            }
        }
        assertEquals(records, sum);
    }

    @org.junit.jupiter.api.Test
    void shouldPutBothEndsOfARoundTripOnTheFirstWorker() {
        Workload w = Workload.of("rt", java.util.Map.of("numRecords", 10, "roundTrip", true));
        Plan plan = Planner.plan(w, 3, "r");
        assertEquals(1, plan.workers().get(0).producers().size());
        assertEquals(1, plan.workers().get(0).consumers().size(), "one clock times the send and the receipt");
        assertTrue(plan.workers().subList(1, 3).stream().allMatch(a -> a.producers().isEmpty() && a.consumers().isEmpty()));
        Workload open = Workload.of("open", java.util.Map.of("numRecords", 10));
        assertEquals(1, Planner.plan(open, 3, "r").workers().get(1).consumers().size(), "an open loop spreads them");
    }

    @org.junit.jupiter.api.Test
    void shouldGiveEachSubscriptionOfEachTopicItsOwnGroup() {
        Workload w = Workload.timed("t", 2, 3, 100, 1, 2, 2, 100, 0, 10);
        Plan plan = Planner.plan(w, 3, "abc");
        Set<String> groups = new HashSet<>();
        plan.workers().forEach(a -> a.consumers().forEach(c -> groups.add(c.topic() + "|" + c.group())));
        assertEquals(Set.of("kbench-abc-t0|kbench-abc-t0-s0", "kbench-abc-t0|kbench-abc-t0-s1",
                "kbench-abc-t1|kbench-abc-t1-s0", "kbench-abc-t1|kbench-abc-t1-s1"), groups);
        assertEquals(List.of("kbench-abc-t0", "kbench-abc-t1"), plan.topics().stream().map(Plan.Topic::name).toList());
    }

    @org.junit.jupiter.api.Test
    void shouldSpreadShareConsumersOverTheWorkersInGroupsOfTheirOwn() {
        Workload base = Workload.timed("w", 2, 1, 100, 1, 1, 1, 1000, 0, 10);
        Workload w = base.withShareGroups(new io.kbench.coordinator.workload.ShareGroups(2, 3, false, 0, 0,
                        java.util.Map.of()));
        Plan plan = Planner.plan(w, 3, "r");
        // 2 topics x (1 classic + 2 share groups x 3) = 14 consumers, 12 of them share consumers
        assertEquals(14, plan.consumerCount());
        assertEquals(12, plan.shareConsumerCount());
        List<Plan.ConsumerTask> all = plan.workers().stream().flatMap(a -> a.consumers().stream()).toList();
        assertEquals(14, all.stream().map(Plan.ConsumerTask::index).distinct().count(), "indexes unique across the run");
        Set<String> shareGroups = new HashSet<>();
        for (Plan.ConsumerTask c : all) {
            if (c.share()) {
                shareGroups.add(c.group());
                assertTrue(c.group().matches("kbench-r-t[01]-sg[01]"), c.group());
            } else {
                assertTrue(c.group().matches("kbench-r-t[01]-s0"), c.group());
            }
        }
        assertEquals(4, shareGroups.size(), "2 share groups per topic, named apart from the classic ones");
        for (Plan.WorkerAssignment a : plan.workers()) {
            long share = a.consumers().stream().filter(Plan.ConsumerTask::share).count();
            assertEquals(4, share, "12 share consumers over 3 workers, round robin");
        }
        Plan named = Planner.plan(w, 3, "r", 1_000_000, new Planner.Consumers("g", true));
        assertTrue(named.workers().stream().flatMap(a -> a.consumers().stream())
                .filter(Plan.ConsumerTask::share).count() == 12, "a group given keeps its consumers' kind");
        assertTrue(named.workers().stream().flatMap(a -> a.consumers().stream()).allMatch(c -> c.group().equals("g")),
                "every consumer in the group given");
        assertTrue(named.clients().consumersFromCommitted() && !plan.clients().consumersFromCommitted());
        // the one worker that reads the groups' backlog gets all four, each with its topic
        assertEquals(java.util.Map.of("kbench-r-t0-sg0", "kbench-r-t0", "kbench-r-t0-sg1", "kbench-r-t0",
                "kbench-r-t1-sg0", "kbench-r-t1", "kbench-r-t1-sg1", "kbench-r-t1"), plan.shareGroupTopics());
        assertEquals(0, plan.firstShareWorker());
        assertEquals(-1, Planner.plan(base, 3, "r").firstShareWorker(), "no share groups: nobody reads a backlog");
    }
}
