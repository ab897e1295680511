package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.kbench.driver.ClusterFacts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Describes a cluster for a result's provenance with the Admin API: cluster id, finalized features
 * (metadata.version names the brokers' release), each broker's endpoint, rack and configs, and each topic's
 * partitions, replication factor and configs. Configs kept: those that shape a benchmark ({@link #BROKER}
 * and {@link #TOPIC}, whatever their source) and every one set explicitly; sensitive values never. A part
 * that cannot be read (no ACL to describe configs, an old broker) is left out and named in the error.
 */
final class ClusterDescriber {
    /** Broker configs recorded even at their defaults. */
    static final Set<String> BROKER = Set.of("min.insync.replicas", "default.replication.factor", "num.partitions",
            "num.network.threads", "num.io.threads", "num.replica.fetchers", "replica.fetch.max.bytes",
            "replica.lag.time.max.ms", "replica.socket.receive.buffer.bytes", "log.flush.interval.messages",
            "log.flush.interval.ms", "log.flush.scheduler.interval.ms", "log.segment.bytes", "log.retention.ms",
            "log.retention.hours", "log.retention.bytes", "compression.type", "message.max.bytes",
            "socket.send.buffer.bytes", "socket.receive.buffer.bytes", "socket.request.max.bytes",
            "queued.max.requests", "unclean.leader.election.enable", "auto.create.topics.enable",
            "log.message.timestamp.type", "num.recovery.threads.per.data.dir", "background.threads",
            "group.initial.rebalance.delay.ms", "offsets.topic.replication.factor",
            "transaction.state.log.replication.factor", "transaction.state.log.min.isr", "log.dirs",
            "process.roles", "log.cleaner.threads");
    /** Topic configs recorded even at their defaults. */
    static final Set<String> TOPIC = Set.of("min.insync.replicas", "compression.type", "cleanup.policy",
            "retention.ms", "retention.bytes", "segment.bytes", "max.message.bytes", "message.timestamp.type",
            "unclean.leader.election.enable", "flush.messages", "flush.ms", "message.timestamp.after.max.ms",
            "message.timestamp.before.max.ms");

    private ClusterDescriber() { }

    static ClusterFacts describe(Admin admin, Collection<String> topics, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> errors = new ArrayList<>();
        String clusterId = "";
        List<Node> nodes = List.of();
        try {
            DescribeClusterResult c = admin.describeCluster();
            clusterId = c.clusterId().get(left(deadline), TimeUnit.MILLISECONDS);
            nodes = new ArrayList<>(c.nodes().get(left(deadline), TimeUnit.MILLISECONDS));
            nodes.sort(java.util.Comparator.comparingInt(Node::id));
        } catch (Exception e) {
            errors.add("cluster: " + KafkaDriver.rootMessage(e));
        }
        Map<String, Integer> features = new TreeMap<>();
        try {
            admin.describeFeatures().featureMetadata().get(left(deadline), TimeUnit.MILLISECONDS).finalizedFeatures()
                    .forEach((name, range) -> features.put(name, (int) range.maxVersionLevel()));
        } catch (Exception e) {
            errors.add("features: " + KafkaDriver.rootMessage(e));
        }
        List<ConfigResource> resources = new ArrayList<>();
        nodes.forEach(n -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(n.id()))));
        topics.forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        Map<ConfigResource, Config> configs = Map.of();
        if (!resources.isEmpty()) {
            try {
                configs = admin.describeConfigs(resources).all().get(left(deadline), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                errors.add("configs: " + KafkaDriver.rootMessage(e));
            }
        }
        List<ClusterFacts.Broker> brokers = new ArrayList<>();
        for (Node n : nodes) {
            Config c = configs.get(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(n.id())));
            brokers.add(new ClusterFacts.Broker(n.id(), n.host() + ":" + n.port(), n.hasRack() ? n.rack() : "",
                    kept(c, BROKER)));
        }
        Map<String, ClusterFacts.Topic> described = new LinkedHashMap<>();
        if (!topics.isEmpty()) {
            try {
                Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames()
                        .get(left(deadline), TimeUnit.MILLISECONDS);
                for (String t : topics) {
                    TopicDescription td = d.get(t);
                    int rf = td.partitions().isEmpty() ? 0 : td.partitions().get(0).replicas().size();
                    described.put(t, new ClusterFacts.Topic(td.partitions().size(), rf,
                            kept(configs.get(new ConfigResource(ConfigResource.Type.TOPIC, t)), TOPIC)));
                }
            } catch (Exception e) {
                errors.add("topics: " + KafkaDriver.rootMessage(e));
            }
        }
        return new ClusterFacts(clusterId, features, brokers, described, String.join("; ", errors));
    }

    private static Map<String, String> kept(Config c, Set<String> relevant) {
        Map<String, String> out = new TreeMap<>();
        if (c == null) {
            return out;
        }
        for (ConfigEntry e : c.entries()) {
            boolean set = e.source() != ConfigEntry.ConfigSource.DEFAULT_CONFIG
                    && e.source() != ConfigEntry.ConfigSource.UNKNOWN;
            if (!e.isSensitive() && e.value() != null && (relevant.contains(e.name()) || set)) {
                out.put(e.name(), e.value());
            }
        }
        return out;
    }

    private static long left(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
