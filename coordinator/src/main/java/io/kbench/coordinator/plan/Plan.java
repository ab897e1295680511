package io.kbench.coordinator.plan;

import java.util.List;

/**
 * Who does what in one run.
 *
 * @param runId   unique run id (also the prefix of topic and group names)
 * @param topics  the topics to create, with their names
 * @param workers one assignment per worker, in worker order
 * @param clients how every worker sets up its clients
 */
public record Plan(String runId, List<Topic> topics, List<WorkerAssignment> workers, ClientSettings clients) {
    public Plan {
        topics = List.copyOf(topics);
        workers = List.copyOf(workers);
    }

    /**
     * Decisions about the clients that hold for the whole run.
     *
     * @param consumersFromBeginning consumers read from the start of their partitions (a run without producers
     *                               reads what is there), otherwise from the end as of their assignment
     * @param holdConsumers          consumers join but wait for the coordinator's release (a backlog run)
     * @param consumersFromCommitted consumers start from their group's committed offsets, else as
     *                               auto.offset.reset says (the Kafka tools' consumers: consumer-perf)
     * @param metricsWindowMillis    the clients' {@code metrics.sample.window.ms} unless the profile sets it:
     *                               one reporting interval, so windowed averages and maxima cover one interval
     */
    public record ClientSettings(boolean consumersFromBeginning, boolean holdConsumers, long metricsWindowMillis,
                                 boolean consumersFromCommitted) {
        /** Settings whose consumers are positioned by kbench (beginning or end), not by committed offsets. */
        public ClientSettings(boolean consumersFromBeginning, boolean holdConsumers, long metricsWindowMillis) {
            this(consumersFromBeginning, holdConsumers, metricsWindowMillis, false);
        }
    }

    /** A topic of the run. */
    public record Topic(String name, int partitions) { }

    /** The same plan with the topics' partition counts as the cluster has them (a topic not named keeps its own). */
    public Plan withPartitions(java.util.Map<String, Integer> partitions) {
        return new Plan(runId, topics.stream().map(t -> new Topic(t.name(), partitions.getOrDefault(t.name(),
                t.partitions()))).toList(), workers, clients);
    }

    /**
     * One producer: run-wide index, topic, rate in msg/s (-1 unthrottled) and record limit (messages in all,
     * 0 when the run is time-bound).
     */
    public record ProducerTask(int index, String topic, long ratePerSecond, long recordLimit) { }

    /** One consumer: run-wide index, topic and consumer group; {@code share}: a share group's consumer. */
    public record ConsumerTask(int index, String topic, String group, boolean share) {
        /** A classic consumer group's consumer. */
        public ConsumerTask(int index, String topic, String group) {
            this(index, topic, group, false);
        }
    }

    /** What one worker runs. */
    public record WorkerAssignment(int worker, List<ProducerTask> producers, List<ConsumerTask> consumers) {
        public WorkerAssignment {
            producers = List.copyOf(producers);
            consumers = List.copyOf(consumers);
        }

        /** This worker's target rate: the sum of its producers' rates, or -1 when unthrottled. */
        public long rate() {
            long sum = 0;
            for (ProducerTask p : producers) {
                if (p.ratePerSecond() < 0) {
                    return -1;
                }
                sum += p.ratePerSecond();
            }
            return sum;
        }
    }

    /** Producers of all workers. */
    public int producerCount() {
        return workers.stream().mapToInt(w -> w.producers().size()).sum();
    }

    /** Consumers of all workers, share consumers included. */
    public int consumerCount() {
        return workers.stream().mapToInt(w -> w.consumers().size()).sum();
    }

    /** Share consumers of all workers. */
    public int shareConsumerCount() {
        return (int) workers.stream().flatMap(w -> w.consumers().stream()).filter(ConsumerTask::share).count();
    }

    /** Every share group of the plan and the topic it reads, by group name. */
    public java.util.SortedMap<String, String> shareGroupTopics() {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        workers.forEach(w -> w.consumers().stream().filter(ConsumerTask::share)
                .forEach(c -> out.putIfAbsent(c.group(), c.topic())));
        return out;
    }

    /** The index of the first worker that runs a share consumer; -1 when none does. */
    public int firstShareWorker() {
        for (int i = 0; i < workers.size(); i++) {
            if (workers.get(i).consumers().stream().anyMatch(ConsumerTask::share)) {
                return i;
            }
        }
        return -1;
    }
}
