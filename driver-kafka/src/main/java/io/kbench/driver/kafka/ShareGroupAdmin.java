package io.kbench.driver.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kbench.driver.DriverException;
import org.apache.kafka.clients.admin.Admin;

/**
 * The Admin calls of share groups (KIP-932) for {@link KafkaDriver}: the cluster's feature check, the groups'
 * configs, their start offsets and their backlog. Stateless; the driver's admin client is passed in.
 */
final class ShareGroupAdmin {
    private ShareGroupAdmin() { }

    /** The cluster feature that enables share groups, and the least level that does. */
    static final String SHARE_FEATURE = "share.version";

    /** Refuses a cluster whose share.version feature is not 1 or more, in words a user can act on. */
    static void check(Admin admin, Duration timeout) {
        org.apache.kafka.clients.admin.FinalizedVersionRange r;
        try {
            r = admin.describeFeatures().featureMetadata().get(timeout.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS).finalizedFeatures().get(SHARE_FEATURE);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new DriverException("the cluster did not describe its features within " + timeout.toSeconds() + " s", e,
                    true);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new DriverException("cannot read the cluster's features (to check for share groups): " + KafkaDriver.rootMessage(e),
                    e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while reading the cluster's features", e, false);
        }
        if (r == null || r.maxVersionLevel() < 1) {
            throw new DriverException(shareGroupsMissing(r == null ? null : (int) r.maxVersionLevel()));
        }
    }

    /** The line for a cluster without share groups; {@code level} its share.version, null when it has none. */
    static String shareGroupsMissing(Integer level) {
        return "the cluster has no share groups: its feature " + SHARE_FEATURE + " is "
                + (level == null ? "not finalized (a broker older than Kafka 4.1)" : String.valueOf(level))
                + "; share groups need " + SHARE_FEATURE + " 1 or more (Kafka 4.2 and later enable it on new clusters; "
                + "on a 4.1+ cluster: kafka-features.sh --bootstrap-server ... upgrade --feature " + SHARE_FEATURE + "=1)";
    }

    /** Sets {@code configs} on every one of {@code groups} (group configs, incrementalAlterConfigs). */
    static void configure(Admin admin, List<String> groups, Map<String, String> configs, Duration timeout) {
        if (groups.isEmpty() || configs.isEmpty()) {
            return;
        }
        Map<org.apache.kafka.common.config.ConfigResource, java.util.Collection<org.apache.kafka.clients.admin.AlterConfigOp>> ops =
                new java.util.LinkedHashMap<>();
        List<org.apache.kafka.clients.admin.AlterConfigOp> set = configs.entrySet().stream()
                .map(e -> new org.apache.kafka.clients.admin.AlterConfigOp(
                        new org.apache.kafka.clients.admin.ConfigEntry(e.getKey(), e.getValue()),
                        org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)).toList();
        for (String g : groups) {
            ops.put(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.GROUP, g), set);
        }
        try {
            admin.incrementalAlterConfigs(ops).all().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new DriverException("the cluster did not take the share groups' settings within " + timeout.toSeconds()
                    + " s", e, true);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new DriverException("the cluster refused the share groups' settings " + configs.keySet() + ": "
                    + KafkaDriver.rootMessage(e), e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while setting the share groups' settings", e, false);
        }
    }

    /**
     * Starts each group (group to topic) that has no state yet at its topic's {@code reset} offsets (earliest or
     * latest), as share.auto.offset.reset would, before its consumers read; returns the groups started.
     */
    static List<String> start(Admin admin, Map<String, String> groupTopics, String reset, Duration timeout) {
        if (groupTopics.isEmpty() || !(reset.equals("earliest") || reset.equals("latest"))) {
            return List.of(); // by_duration: the broker finds the offsets by time when the group first reads
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> started = new java.util.ArrayList<>();
        try {
            Map<String, org.apache.kafka.clients.admin.TopicDescription> topics = admin.describeTopics(
                    new java.util.TreeSet<>(groupTopics.values())).allTopicNames().get(left(deadline),
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            Map<String, org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec> specs = new java.util.LinkedHashMap<>();
            groupTopics.forEach((g, t) -> specs.put(g, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()
                    .topicPartitions(partitions(topics.get(t)))));
            Map<String, Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.SharePartitionOffsetInfo>>
                    state = admin.listShareGroupOffsets(specs).all().get(left(deadline),
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            for (Map.Entry<String, String> e : groupTopics.entrySet()) {
                Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.SharePartitionOffsetInfo> has =
                        state.getOrDefault(e.getKey(), Map.of());
                List<org.apache.kafka.common.TopicPartition> fresh = partitions(topics.get(e.getValue())).stream()
                        .filter(tp -> has.get(tp) == null || has.get(tp).startOffset() < 0).toList();
                if (fresh.isEmpty()) {
                    continue;
                }
                org.apache.kafka.clients.admin.OffsetSpec at = reset.equals("earliest")
                        ? org.apache.kafka.clients.admin.OffsetSpec.earliest() : org.apache.kafka.clients.admin.OffsetSpec.latest();
                Map<org.apache.kafka.common.TopicPartition, Long> offsets = new java.util.HashMap<>();
                admin.listOffsets(fresh.stream().collect(java.util.stream.Collectors.toMap(tp -> tp, tp -> at)))
                        .all().get(left(deadline), java.util.concurrent.TimeUnit.MILLISECONDS)
                        .forEach((tp, info) -> offsets.put(tp, info.offset()));
                try {
                    admin.alterShareGroupOffsets(e.getKey(), offsets).all().get(left(deadline),
                            java.util.concurrent.TimeUnit.MILLISECONDS);
                    started.add(e.getKey() + " (" + offsets.size() + " partitions)");
                } catch (java.util.concurrent.ExecutionException x) {
                    if (!(x.getCause() instanceof org.apache.kafka.common.errors.GroupNotEmptyException)) {
                        throw x;
                    }
                    // its consumers (on another worker) are already there: the broker starts the partitions itself
                }
            }
            return started;
        } catch (java.util.concurrent.TimeoutException e) {
            throw new DriverException("the cluster did not describe the share groups' partitions within "
                    + timeout.toSeconds() + " s", e, true);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new DriverException("cannot start the share groups at the " + reset + " offsets: " + KafkaDriver.rootMessage(e),
                    e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while starting the share groups", e, false);
        }
    }

    /** The records the groups (group to topic) have not settled yet, summed; -1 when the broker does not say. */
    static long backlog(Admin admin, Map<String, String> groupTopics, Duration timeout) {
        if (groupTopics.isEmpty()) {
            return -1;
        }
        Map<String, org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec> specs = new java.util.LinkedHashMap<>();
        // every partition the group has state on: kbench's groups have it on all of theirs from the start
        groupTopics.keySet().forEach(g -> specs.put(g, new org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec()));
        long sum = 0;
        for (Map.Entry<String, Map<org.apache.kafka.common.TopicPartition,
                org.apache.kafka.clients.admin.SharePartitionOffsetInfo>> g : answer(admin.listShareGroupOffsets(specs).all(),
                timeout, "list the share groups' offsets", "listing the share groups' offsets").entrySet()) {
            String topic = groupTopics.get(g.getKey());
            for (Map.Entry<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.SharePartitionOffsetInfo>
                    p : g.getValue().entrySet()) {
                if (!p.getKey().topic().equals(topic) || p.getValue() == null) {
                    continue; // a group named by the user may have read other topics too
                }
                java.util.Optional<Long> lag = p.getValue().lag();
                if (lag.isEmpty()) {
                    return -1;
                }
                sum += Math.max(0, lag.get());
            }
        }
        return sum;
    }

    /** The groups' members whose client id starts with {@code clientIdPrefix}, counted over the groups. */
    static int members(Admin admin, java.util.Set<String> groups, String clientIdPrefix, Duration timeout) {
        if (groups.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (org.apache.kafka.clients.admin.ShareGroupDescription d : answer(admin.describeShareGroups(groups).all(),
                timeout, "describe the share groups", "describing the share groups").values()) {
            for (org.apache.kafka.clients.admin.ShareMemberDescription m : d.members()) {
                n += m.clientId() != null && m.clientId().startsWith(clientIdPrefix) ? 1 : 0;
            }
        }
        return n;
    }

    /**
     * The answer of an Admin call within {@code timeout}; a {@link DriverException} saying what was asked ({@code
     * what}, "list the ...") when it fails, times out (retriable) or is interrupted ({@code doing}, "listing the ...").
     */
    private static <T> T answer(org.apache.kafka.common.KafkaFuture<T> future, Duration timeout, String what,
                                String doing) {
        try {
            return future.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new DriverException("the cluster did not " + what + " within " + timeout.toMillis() + " ms", e, true);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new DriverException("cannot " + what + ": " + KafkaDriver.rootMessage(e), e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DriverException("interrupted while " + doing, e, false);
        }
    }

    private static List<org.apache.kafka.common.TopicPartition> partitions(org.apache.kafka.clients.admin.TopicDescription d) {
        return d.partitions().stream().map(p -> new org.apache.kafka.common.TopicPartition(d.name(), p.partition())).toList();
    }

    /** Milliseconds left until {@code deadlineNanos}, at least 1. */
    private static long left(long deadlineNanos) {
        return Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
    }
}
