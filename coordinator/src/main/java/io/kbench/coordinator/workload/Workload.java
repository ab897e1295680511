package io.kbench.coordinator.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of the load: topics, producers, consumers, message size, rate and timing. Validated once
 * when loaded ({@link #load}); every instance is valid.
 *
 * @param name                     a name for reports
 * @param topics                   number of topics (generated names, unique per run)
 * @param partitionsPerTopic       partitions of each topic
 * @param messageSize              value size in bytes
 * @param producersPerTopic        producers writing to each topic
 * @param subscriptionsPerTopic    consumer groups reading each topic (each reads every message)
 * @param consumersPerSubscription consumers in each group (they share the topic's partitions)
 * @param producerRate             messages per second for the whole workload, or -1 for unthrottled
 * @param warmupSeconds            seconds of load before measurement starts (streamed, not summarized)
 * @param durationSeconds          measured seconds of load after warm-up
 */
public record Workload(String name, int topics, int partitionsPerTopic, int messageSize, int producersPerTopic,
                       int subscriptionsPerTopic, int consumersPerSubscription, long producerRate,
                       int warmupSeconds, int durationSeconds) {

    /** The keys a workload file may contain. */
    public static final List<String> KEYS = List.of("name", "topics", "partitionsPerTopic", "messageSize",
            "producersPerTopic", "subscriptionsPerTopic", "consumersPerSubscription", "producerRate",
            "warmupSeconds", "durationSeconds");

    /** Unthrottled rate. */
    public static final long UNTHROTTLED = -1;

    public int producerCount() {
        return topics * producersPerTopic;
    }

    public int consumerCount() {
        return topics * subscriptionsPerTopic * consumersPerSubscription;
    }

    /**
     * Reads and validates a workload file.
     *
     * @throws InvalidConfigException listing every problem with its {@code file:line:column}
     */
    public static Workload load(Path path) {
        List<ConfigError> errors = new ArrayList<>();
        YamlMap y = YamlMap.read(path, errors);
        String fileName = path.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        String name = y.string("name", fileName);
        int topics = (int) y.integer("topics", 1, 1, 10_000, "1 to 10000");
        int partitions = (int) y.integer("partitionsPerTopic", 1, 1, 100_000, "1 to 100000");
        int size = (int) y.integer("messageSize", 1024, 1, 100 * 1024 * 1024, "1 to 104857600 bytes");
        int producers = (int) y.integer("producersPerTopic", 1, 1, 10_000, "1 to 10000");
        int subscriptions = (int) y.integer("subscriptionsPerTopic", 1, 0, 1_000, "0 to 1000");
        int consumers = (int) y.integer("consumersPerSubscription", 1, 1, 10_000, "1 to 10000");
        long rate = y.integer("producerRate", UNTHROTTLED, -1, 1_000_000_000L,
                "-1 for unthrottled, or 1 to 1000000000 msg/s");
        int warmup = (int) y.integer("warmupSeconds", 0, 0, 86_400, "0 to 86400");
        int duration = (int) y.integer("durationSeconds", 60, 1, 7 * 86_400, "1 to 604800");
        if (!y.has("durationSeconds")) {
            y.errorAt("name", "durationSeconds is required (measured seconds of load, 1 to 604800)");
        }
        if (rate == 0) {
            y.errorAt("producerRate", "producerRate is 0; allowed: -1 for unthrottled, or 1 to 1000000000 msg/s");
        } else if (rate > 0 && rate < (long) topics * producers) {
            y.errorAt("producerRate", "producerRate " + rate + " is below the number of producers ("
                    + (long) topics * producers + "); every producer needs at least 1 msg/s");
        }
        y.rejectUnknown(KEYS, "workload");
        if (!errors.isEmpty()) {
            throw new InvalidConfigException(errors);
        }
        return new Workload(name, topics, partitions, size, producers, subscriptions, consumers, rate, warmup, duration);
    }
}
