package io.kbench.coordinator.plan;

import java.util.ArrayList;
import java.util.List;

import io.kbench.coordinator.workload.Workload;

/**
 * Splits a workload across workers. Pure function, no I/O.
 *
 * <p>Producers are numbered topic by topic; the total rate is split across them in whole msg/s
 * ({@link RateSplit}), so per-producer and per-worker rates sum to the target exactly; a record count
 * ({@code numRecords}) is split the same way. Producers and then
 * consumers are dealt round-robin over the workers, continuing one cycle, so every worker gets work as long
 * as there are at least as many producers and consumers as workers, and no worker gets more than one task
 * more than another. Each subscription of a topic is its own consumer group.
 */
public final class Planner {
    private Planner() { }

    /**
     * @param workload the validated workload
     * @param workers  number of workers, at least 1
     * @param runId    unique run id; topic names are {@code kbench-<runId>-t<i>}, groups
     *                 {@code kbench-<runId>-t<i>-s<j>} (explicit {@code topicNames} are used as they are)
     */
    public static Plan plan(Workload workload, int workers, String runId) {
        return plan(workload, workers, runId, 1_000_000L);
    }

    /**
     * @param intervalMicros the reporting interval (the clients' metrics window follows it)
     * @see #plan(Workload, int, String)
     */
    public static Plan plan(Workload workload, int workers, String runId, long intervalMicros) {
        return plan(workload, workers, runId, intervalMicros, Consumers.PER_RUN);
    }

    /**
     * What a command fixes about the consumers beyond its workload: one group for all of them (consumer-perf's and
     * share-consumer-perf's {@code --group}; null: a group per subscription, named after the run), and whether they
     * start at their group's committed offsets (consumer-perf) rather than the log's start or end.
     */
    public record Consumers(String group, boolean fromCommitted) {
        /** A group per subscription, named after the run, positioned by the run. */
        public static final Consumers PER_RUN = new Consumers(null, false);
    }

    /**
     * The whole plan, the consumers' groups and start included: nothing is patched after planning.
     *
     * @see #plan(Workload, int, String, long)
     */
    public static Plan plan(Workload workload, int workers, String runId, long intervalMicros, Consumers given) {
        if (workers < 1) {
            throw new IllegalArgumentException("at least one worker is needed");
        }
        String prefix = "kbench-" + runId;
        List<Plan.Topic> topics = new ArrayList<>();
        for (int t = 0; t < workload.topics(); t++) {
            String name = workload.topicNames().isEmpty() ? prefix + "-t" + t : workload.topicNames().get(t);
            topics.add(new Plan.Topic(name, workload.partitionsPerTopic()));
        }
        List<List<Plan.ProducerTask>> producers = new ArrayList<>();
        List<List<Plan.ConsumerTask>> consumers = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            producers.add(new ArrayList<>());
            consumers.add(new ArrayList<>());
        }
        int producerCount = workload.producerCount();
        long[] rates = producerCount == 0 ? new long[0] : RateSplit.split(workload.producerRate(), producerCount);
        long[] limits = workload.numRecords() > 0 && producerCount > 0 ? RateSplit.split(workload.numRecords(), producerCount)
                : new long[producerCount];
        int next = 0;
        int index = 0;
        for (Plan.Topic topic : topics) {
            for (int p = 0; p < workload.producersPerTopic(); p++) {
                producers.get(next).add(new Plan.ProducerTask(index, topic.name(), rates[index], limits[index]));
                index++;
                next = (next + 1) % workers;
            }
        }
        index = 0;
        if (workload.roundTrip()) {
            next = 0; // both ends of the closed loop on one worker: it times the round trip on one clock
        }
        for (int t = 0; t < topics.size(); t++) {
            Plan.Topic topic = topics.get(t);
            for (int s = 0; s < workload.subscriptionsPerTopic(); s++) {
                String group = given.group() != null ? given.group() : prefix + "-t" + t + "-s" + s;
                for (int c = 0; c < workload.consumersPerSubscription(); c++) {
                    consumers.get(next).add(new Plan.ConsumerTask(index++, topic.name(), group));
                    next = (next + 1) % workers;
                }
            }
            // share groups after the classic ones, spread over the workers the same way (a group's consumers
            // on several workers read the group's records together)
            for (int s = 0; s < workload.shareGroups().groupsPerTopic(); s++) {
                String group = given.group() != null ? given.group() : prefix + "-t" + t + "-sg" + s;
                for (int c = 0; c < workload.shareGroups().consumersPerGroup(); c++) {
                    consumers.get(next).add(new Plan.ConsumerTask(index++, topic.name(), group, true));
                    next = (next + 1) % workers;
                }
            }
        }
        List<Plan.WorkerAssignment> out = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            out.add(new Plan.WorkerAssignment(w, producers.get(w), consumers.get(w)));
        }
        Plan.ClientSettings clients = new Plan.ClientSettings(workload.producerCount() == 0,
                workload.consumerBacklogRecords() > 0, Math.max(1, intervalMicros / 1000), given.fromCommitted());
        return new Plan(runId, topics, out, clients);
    }
}
