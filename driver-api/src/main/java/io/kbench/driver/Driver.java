package io.kbench.driver;

import java.time.Duration;
import java.util.List;

/**
 * One run's connection to a messaging system: administers topics and builds producers and consumers.
 *
 * <p>Threads: the worker calls the methods of this interface from its control threads, never from a load
 * thread; implementations must be thread-safe. {@link #close()} is called once, after every handle it
 * built has been closed.
 */
public interface Driver extends AutoCloseable {
    /**
     * Checks that the cluster answers within {@code timeout}.
     *
     * @throws DriverException with {@link DriverException#unreachable()} set when it does not
     */
    void checkReachable(Duration timeout);

    /**
     * Creates the topics and returns once every partition has a leader. Topics that already exist with the
     * same partition count are accepted but not counted as created.
     *
     * @return the names of the topics this call created (so that only those are deleted afterwards)
     * @throws DriverException when a topic cannot be created, with the cluster's reason
     */
    List<String> createTopics(List<TopicSpec> topics, Duration timeout);

    /**
     * The partition count of each of {@code topics}, which must exist.
     *
     * @throws DriverException naming a topic that does not exist, or when the cluster does not answer
     */
    java.util.Map<String, Integer> describeTopics(List<String> topics, Duration timeout);

    /**
     * The cluster and {@code topics}, for the result's provenance. Never fails the run: what cannot be read
     * (e.g. configs the credentials may not describe) is left out and said in {@link ClusterFacts#error()}.
     *
     * @return the facts, or null when this driver cannot describe its cluster
     */
    default ClusterFacts describeCluster(List<String> topics, Duration timeout) {
        return null;
    }

    /** Deletes the topics, ignoring ones that do not exist; best effort, bounded by {@code timeout}. */
    void deleteTopics(List<String> topics, Duration timeout);

    /**
     * Why the cluster would refuse every record of at least {@code smallest} for its size, as {@code cluster} (the run's
     * topics with their configs, {@link #describeCluster}) and this driver's producer settings say — one line naming the
     * topics, the limit and the setting to raise — or null when it would take them or the driver cannot tell (the
     * records are compressed, the topics' configs could not be read).
     */
    default String recordProblem(ClusterFacts cluster, RecordShape smallest) {
        return null;
    }

    /**
     * The names of the cluster's topics, internal ones left out, in no particular order.
     *
     * @throws DriverException when the cluster refuses the listing or does not answer within {@code timeout}
     *                         ({@link DriverException#unreachable()})
     */
    default List<String> listTopics(Duration timeout) {
        throw new DriverException("this driver cannot list topics");
    }

    /**
     * Builds a producer as {@code options} say; a transactional one is ready for
     * {@link ProducerHandle#beginTransaction()}. Completions of its sends are reported to {@code listener}.
     *
     * @throws DriverException when the client cannot be built or the cluster refuses transactions
     */
    ProducerHandle createProducer(ProducerOptions options, ProducerListener listener);

    /**
     * Builds a consumer of {@code topic} in consumer group {@code group} and subscribes it. Partitions are
     * assigned while {@link ConsumerHandle#poll} is being called.
     */
    ConsumerHandle createConsumer(String topic, String group, String clientId);

    /**
     * Builds a consumer of {@code topic} in share group {@code group} (KIP-932) and subscribes it.
     *
     * @param explicit acknowledge each record as the listener says; false: implicit acknowledgement
     * @throws DriverException when the client cannot be built, or this driver has no share groups
     */
    default ShareConsumerHandle createShareConsumer(String topic, String group, String clientId, boolean explicit) {
        return createShareConsumer(topic, group, clientId, explicit, false);
    }

    /**
     * As {@link #createShareConsumer(String, String, String, boolean)}; with {@code commitSync} the consumer commits
     * each poll's acknowledgements itself once the listener has had every record (Kafka's {@code commitSync}) and
     * tells the listener how long that took ({@link ShareRecordListener#onCommitted}); without, they go to the
     * broker with the next poll.
     */
    default ShareConsumerHandle createShareConsumer(String topic, String group, String clientId, boolean explicit,
                                                    boolean commitSync) {
        throw new DriverException("this driver has no share groups");
    }

    /**
     * Checks that the cluster has share groups, within {@code timeout}.
     *
     * @throws DriverException saying what the cluster lacks and how to enable it
     */
    default void checkShareGroups(Duration timeout) {
        throw new DriverException("this driver has no share groups");
    }

    /**
     * Sets {@code configs} (e.g. {@code share.record.lock.duration.ms}) on each of the share {@code groups}, which
     * need not exist yet; returns once the cluster has taken them.
     *
     * @throws DriverException naming the setting the cluster refused, or when share groups are not enabled
     */
    default void configureShareGroups(List<String> groups, java.util.Map<String, String> configs, Duration timeout) {
        throw new DriverException("this driver has no share groups");
    }

    /**
     * Starts each share group (group → the topic it reads) on the partitions where it has no state yet, at the log's
     * beginning ({@code earliest}) or end ({@code latest}), as {@code kafka-share-groups --reset-offsets} does; a
     * partition the group has state on keeps it. A group that is initialized this way is handed its partitions on its
     * consumers' first heartbeat; otherwise the broker initializes each partition when a consumer first joins and
     * assigns it one heartbeat later (the broker's default interval is 5 s). Best effort: a group that already
     * has members is left to the broker. Returns the groups it started, as {@code group (n partitions)} lines.
     *
     * @throws DriverException when the cluster cannot be read
     */
    default List<String> startShareGroups(java.util.Map<String, String> groupTopics, String reset, Duration timeout) {
        return List.of();
    }

    /**
     * The share groups' backlog: records of their topics they have not yet acknowledged (delivered or not), as the
     * brokers count them (their lag per share-partition), summed over the groups and their partitions; -1 when a
     * partition's lag is not known (a broker that does not report it).
     *
     * @param groupTopics each share group and the topic it reads
     * @throws DriverException when the cluster cannot be read within {@code timeout}
     */
    default long shareGroupBacklog(java.util.Map<String, String> groupTopics, Duration timeout) {
        return -1;
    }

    /**
     * How many members of the share groups have a client id starting with {@code clientIdPrefix} (a run's own share
     * consumers), as the groups' coordinators see them now; -1 when not known (a driver that cannot tell). A consumer
     * leaves its group when it closes, after it has acknowledged what it was delivered: none left means every
     * acknowledgement of the run has reached the brokers.
     *
     * @param groups the share groups
     * @throws DriverException when the cluster cannot be read within {@code timeout}
     */
    default int shareGroupMembers(java.util.Set<String> groups, String clientIdPrefix, Duration timeout) {
        return -1;
    }

    /**
     * Sets ({@code set}) and removes ({@code delete}) cluster-wide dynamic broker configs, the default every broker
     * inherits, then waits until every broker reports them; with {@code validateOnly} the cluster only checks them.
     *
     * @return each named config's cluster-wide value before the change; absent when none was set
     * @throws DriverException when the cluster refuses one (not dynamically updatable, a bad value) or does not answer
     */
    default java.util.Map<String, String> alterBrokerConfigs(java.util.Map<String, String> set, List<String> delete,
                                                             boolean validateOnly, Duration timeout) {
        throw new DriverException("this driver cannot change broker settings");
    }

    /** Releases the driver's own resources (admin client); handles are closed before this is called. */
    @Override
    void close();
}
