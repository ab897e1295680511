package io.kbench.coordinator.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.plan.Planner;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.rpc.ConsumerStart;
import io.kbench.protocol.rpc.PrepareRequest;
import org.junit.jupiter.api.Test;

class WorkerMessagesTest {
    private static WorkerClient.Share share(Workload w, Profile p, long intervalMicros, int worker) {
        Plan plan = Planner.plan(w, 2, "r1", intervalMicros);
        return new WorkerClient.Share("r1", 42, p, worker == 0 ? plan.topics() : List.of(), List.of(),
                plan.workers().get(worker), plan.clients(), w, List.of(new byte[] {1, 2}), intervalMicros);
    }

    @Test
    void shouldSendThePlansDecisionsAndTheProfile() {
        Workload w = Workload.timed("t", 1, 6, 100, 2, 1, 2, 1000, 0, 10);
        Profile p = Profile.defaults().withBootstrapServers("b1:9092").with(Map.of("producer.linger.ms", "5"));
        PrepareRequest r = WorkerMessages.prepareRequest(share(w, p, 2_000_000, 0));
        assertEquals("r1", r.getRunId());
        assertEquals(42, r.getClockOffsetMicros());
        assertEquals("b1:9092", r.getDriver().getCommonMap().get("bootstrap.servers"));
        assertEquals("5", r.getDriver().getProducerMap().get("linger.ms"));
        assertEquals("2000", r.getDriver().getProducerMap().get("metrics.sample.window.ms"), "one interval");
        assertEquals("2000", r.getDriver().getConsumerMap().get("metrics.sample.window.ms"));
        assertEquals(ConsumerStart.CONSUMER_START_END, r.getConsumerStart(), "with producers: from the end");
        assertFalse(r.getHoldConsumers());
        assertEquals(1, r.getCreateTopicsCount());
        assertEquals(6, r.getCreateTopics(0).getPartitions());
        assertEquals(1, r.getProducersCount());
        assertEquals(500, r.getProducers(0).getRatePerSecond());
        assertEquals(1, r.getConsumersCount());
        assertEquals(1, r.getPayloads().getValuesCount(), "a worker with producers gets the payload values");
        assertEquals(2_000_000, r.getIntervalMicros());
    }

    @Test
    void shouldLeaveTheProfilesMetricsWindowAndSendNoPayloadsToAWorkerWithoutProducers() {
        Workload w = Workload.timed("t", 1, 6, 100, 1, 1, 2, 1000, 0, 10);
        Profile p = Profile.defaults().withBootstrapServers("b1:9092")
                .with(Map.of("consumer.metrics.sample.window.ms", "30000"));
        PrepareRequest r = WorkerMessages.prepareRequest(share(w, p, 1_000_000, 1));
        assertEquals("30000", r.getDriver().getConsumerMap().get("metrics.sample.window.ms"));
        assertEquals("1000", r.getDriver().getProducerMap().get("metrics.sample.window.ms"));
        assertEquals(0, r.getProducersCount());
        assertEquals(0, r.getPayloads().getValuesCount());
        assertEquals(0, r.getCreateTopicsCount(), "only the first worker creates topics");
    }

    @Test
    void shouldReadConsumersFromTheBeginningInARunWithoutProducersAndHoldThemForABacklog() {
        Workload consumersOnly = Workload.timed("t", 1, 6, 100, 0, 1, 1, 0, 0, 10);
        Plan.ClientSettings c = Planner.plan(consumersOnly, 1, "r").clients();
        assertTrue(c.consumersFromBeginning());
        assertFalse(c.holdConsumers());
        assertEquals(1000, c.metricsWindowMillis());
        PrepareRequest r = WorkerMessages.prepareRequest(new WorkerClient.Share("r", 0,
                Profile.defaults().withBootstrapServers("b:1"), List.of(), List.of(),
                Planner.plan(consumersOnly, 1, "r").workers().get(0), c, consumersOnly, List.of(), 1_000_000));
        assertEquals(ConsumerStart.CONSUMER_START_BEGINNING, r.getConsumerStart());
    }

    @Test
    void shouldGiveTheShareGroupsToReadTheBacklogOfInTheShareSettings() {
        Workload base = Workload.timed("t", 1, 2, 100, 1, 0, 1, 100, 0, 10);
        Workload share = base.withShareGroups(new io.kbench.coordinator.workload.ShareGroups(1, 2, false, 0, 0,
                        java.util.Map.of()));
        Plan plan = Planner.plan(share, 1, "r");
        PrepareRequest r = WorkerMessages.prepareRequest(new WorkerClient.Share("r", 0,
                Profile.defaults().withBootstrapServers("b:1"), plan.topics(), List.of(), plan.workers().get(0),
                plan.clients(), share, List.of(), 1_000_000, false, List.of(), plan.shareGroupTopics()));
        assertEquals(java.util.Map.of("kbench-r-t0-sg0", "kbench-r-t0"), r.getShare().getBacklogGroupsMap());
        assertEquals("earliest", r.getShare().getGroupConfigsMap().get("share.auto.offset.reset"),
                "the run's own topics: the groups start at the beginning (and are started there before the start)");
        PrepareRequest other = WorkerMessages.prepareRequest(new WorkerClient.Share("r", 0,
                Profile.defaults().withBootstrapServers("b:1"), plan.topics(), List.of(), plan.workers().get(0),
                plan.clients(), share, List.of(), 1_000_000));
        assertTrue(other.getShare().getBacklogGroupsMap().isEmpty(), "the other workers read no backlog");
    }
}
