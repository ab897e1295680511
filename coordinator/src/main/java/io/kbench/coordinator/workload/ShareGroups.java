package io.kbench.coordinator.workload;

import java.util.List;
import java.util.Map;

/**
 * The workload's share groups (KIP-932, docs/share-groups.md): groups reading each topic next to (or instead of)
 * its classic subscriptions, each with any number of consumers (more than the topic's partitions if wanted), and
 * what those consumers do with each record.
 *
 * @param groupsPerTopic    share groups reading each topic (each group reads every message once)
 * @param consumersPerGroup consumers in each share group (records spread over them; independent of partitions)
 * @param explicit          acknowledge each record explicitly (and release or reject the fractions below); false:
 *                          implicit acknowledgement, every delivered record accepted by the next poll
 * @param releaseRatio      explicit: fraction of records released at their first delivery (delivered again)
 * @param rejectRatio       explicit: fraction of records rejected at their first delivery (archived)
 * @param groupConfigs      share-group configs set on every share group of the run before its consumers start
 * @param commitSync        each consumer commits a poll's acknowledgements itself once it has processed the poll's
 *                          records (Kafka's commitSync), and kbench times each commit; false: the acknowledgements go
 *                          to the broker with the next poll (Kafka's default, no commit latency to measure)
 */
@com.fasterxml.jackson.annotation.JsonPropertyOrder({"shareGroupsPerTopic", "consumersPerShareGroup",
    "shareAcknowledgement", "shareReleaseRatio", "shareRejectRatio", "shareGroupConfig", "shareCommit"})
public record ShareGroups(
        @com.fasterxml.jackson.annotation.JsonProperty("shareGroupsPerTopic") int groupsPerTopic,
        @com.fasterxml.jackson.annotation.JsonProperty("consumersPerShareGroup") int consumersPerGroup,
        @com.fasterxml.jackson.annotation.JsonIgnore boolean explicit,
        @com.fasterxml.jackson.annotation.JsonProperty("shareReleaseRatio") double releaseRatio,
        @com.fasterxml.jackson.annotation.JsonProperty("shareRejectRatio") double rejectRatio,
        @com.fasterxml.jackson.annotation.JsonProperty("shareGroupConfig") Map<String, String> groupConfigs,
        @com.fasterxml.jackson.annotation.JsonIgnore boolean commitSync) {
    public static final ShareGroups NONE = new ShareGroups(0, 1, false, 0, 0, Map.of(), false);

    /** Groups whose acknowledgements go with the next poll. */
    public ShareGroups(int groupsPerTopic, int consumersPerGroup, boolean explicit, double releaseRatio,
                       double rejectRatio, Map<String, String> groupConfigs) {
        this(groupsPerTopic, consumersPerGroup, explicit, releaseRatio, rejectRatio, groupConfigs, false);
    }

    /** As the workload file says it: "sync", or absent for the default ("poll"). */
    @com.fasterxml.jackson.annotation.JsonProperty("shareCommit")
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public String commit() {
        return commitSync ? "sync" : null;
    }

    /** The workload keys of share groups. */
    static final List<String> KEYS = List.of("shareGroupsPerTopic", "consumersPerShareGroup", "shareAcknowledgement",
            "shareReleaseRatio", "shareRejectRatio", "shareGroupConfig", "shareCommit");

    /**
     * The share-group configs a workload may set (Kafka 4.3's GroupConfig), with what each allows; the broker
     * checks the ranges it is configured with (e.g. {@code group.share.max.record.lock.duration.ms}) when they
     * are set, before any load.
     */
    static final Map<String, String> GROUP_CONFIGS = Map.of(
            "share.auto.offset.reset", "earliest, latest or by_duration:<ISO-8601 duration>",
            "share.record.lock.duration.ms", "a whole number of ms (the broker's bounds apply)",
            "share.delivery.count.limit", "a whole number of deliveries (the broker's bounds apply)",
            "share.isolation.level", "read_committed or read_uncommitted",
            "share.session.timeout.ms", "a whole number of ms (the broker's bounds apply)",
            "share.heartbeat.interval.ms", "a whole number of ms (the broker's bounds apply)");

    /**
     * Consumer settings a share consumer refuses (Kafka 4.3.1's ShareConsumerConfig), which the Kafka driver leaves out
     * of its share consumers, each with what takes its place for a share group; the distribution's tests hold this to
     * the driver's list.
     */
    public static final Map<String, String> NOT_FOR_SHARE_CONSUMERS = Map.of(
            "isolation.level", "the share group's share.isolation.level (shareGroupConfig)",
            "auto.offset.reset", "the share group's share.auto.offset.reset (shareGroupConfig)",
            "session.timeout.ms", "the share group's share.session.timeout.ms (shareGroupConfig)",
            "heartbeat.interval.ms", "the share group's share.heartbeat.interval.ms (shareGroupConfig)",
            "enable.auto.commit", "the share acknowledgements (shareAcknowledgement, shareCommit)",
            "group.instance.id", "nothing: a share group has no static members",
            "partition.assignment.strategy", "the brokers' share-group assignor",
            "group.remote.assignor", "the brokers' share-group assignor",
            "group.protocol", "nothing: a share group has its own protocol",
            "interceptor.classes", "nothing: a share consumer takes no interceptors");

    /**
     * One note per consumer setting of the profile that the run's share consumers leave out (sorted by name): it
     * applies to the classic consumers only; none without share groups.
     */
    public static List<String> consumerNotes(Workload w, Map<String, String> consumerSettings) {
        if (!w.shareGroups().any()) {
            return List.of();
        }
        boolean classic = w.consumerCount() > 0;
        return consumerSettings.keySet().stream().filter(NOT_FOR_SHARE_CONSUMERS::containsKey).sorted()
                .map(k -> "the profile's consumer." + k + " applies to the classic consumers only" + (classic ? ""
                        : " (this run has none)") + ": a share consumer refuses it; for the share groups, "
                        + NOT_FOR_SHARE_CONSUMERS.get(k)).toList();
    }

    /** Broker default of {@code share.record.lock.duration.ms} (group.share.record.lock.duration.ms). */
    static final long DEFAULT_LOCK_MILLIS = 30_000;

    public ShareGroups {
        groupConfigs = Map.copyOf(groupConfigs);
    }

    /** As the workload file says it (result.json keeps the workload by its keys, for --repeat). */
    @com.fasterxml.jackson.annotation.JsonProperty("shareAcknowledgement")
    public String acknowledgement() {
        return explicit ? "explicit" : "implicit";
    }

    /** True when the workload has share groups. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean any() {
        return groupsPerTopic > 0;
    }

    /** Reads the share keys of {@code y}, adding problems to its errors. */
    static ShareGroups parse(YamlMap y) {
        int groups = (int) y.integer("shareGroupsPerTopic", 0, 0, 1_000, "0 to 1000");
        int consumers = (int) y.integer("consumersPerShareGroup", 1, 1, 10_000, "1 to 10000");
        boolean explicit = "explicit".equals(y.choice("shareAcknowledgement", "implicit", List.of("implicit", "explicit")));
        double release = y.decimal("shareReleaseRatio", 0, 0, 1, "0 to 1 (fraction of first deliveries released)");
        double reject = y.decimal("shareRejectRatio", 0, 0, 1, "0 to 1 (fraction of first deliveries rejected)");
        Map<String, String> configs = y.properties("shareGroupConfig");
        boolean commitSync = "sync".equals(y.choice("shareCommit", "poll", List.of("poll", "sync")));
        if (groups == 0) {
            for (String k : KEYS) {
                if (!k.equals("shareGroupsPerTopic") && y.has(k)) {
                    y.errorAt(k, k + " describes share groups; set shareGroupsPerTopic (1 or more) or remove it");
                }
            }
        }
        if ((release > 0 || reject > 0) && !explicit) {
            y.errorAt(release > 0 ? "shareReleaseRatio" : "shareRejectRatio", "releasing and rejecting records needs "
                    + "shareAcknowledgement: explicit (implicit acknowledgement accepts every record)");
        }
        if (release + reject > 1) {
            y.errorAt("shareRejectRatio", "shareReleaseRatio + shareRejectRatio is " + (release + reject)
                    + "; together at most 1");
        }
        for (Map.Entry<String, String> e : configs.entrySet()) {
            String allowed = GROUP_CONFIGS.get(e.getKey());
            if (allowed == null) {
                y.errorAtEntry("shareGroupConfig", e.getKey(), "shareGroupConfig." + ConfigError.shown(e.getKey()) + " is not a share-group config; "
                        + "allowed: " + String.join(", ", new java.util.TreeSet<>(GROUP_CONFIGS.keySet())));
            } else if (!valid(e.getKey(), e.getValue())) {
                y.errorAtEntry("shareGroupConfig", e.getKey(), "shareGroupConfig." + ConfigError.shown(e.getKey()) + " is '" + ConfigError.shown(String.valueOf(e.getValue()))
                        + "'; allowed: " + allowed);
            }
        }
        return new ShareGroups(groups, consumers, explicit, release, reject, configs, commitSync);
    }

    private static boolean valid(String key, String value) {
        return switch (key) {
            case "share.auto.offset.reset" -> value.equals("earliest") || value.equals("latest")
                    || value.matches("by_duration:P[0-9DTHMS.]{1,40}");
            case "share.isolation.level" -> value.equals("read_committed") || value.equals("read_uncommitted");
            default -> value.matches("[0-9]{1,9}") && Long.parseLong(value) > 0;
        };
    }

    /** The record lock duration in force: the workload's, else the broker's default. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public long lockMillis() {
        String v = groupConfigs.get("share.record.lock.duration.ms");
        return v == null ? DEFAULT_LOCK_MILLIS : Long.parseLong(v);
    }

    /**
     * Warnings about settings that work but defeat the benchmark: a processing time at or above the record lock
     * duration (every record's lock runs out before it is acknowledged, so every record is delivered again), or
     * one whose full poll batch takes that long.
     *
     * @param processing the consumers' processing time per record ({@code consumerProcessingMillis} and its
     *                   distribution; for a drawn time, the records whose draw reaches the lock duration are warned of)
     */
    public List<String> warnings(ConsumerProcessing processing) {
        return warnings(processing, DEFAULT_MAX_POLL_RECORDS, false);
    }

    /**
     * {@link #warnings(ConsumerProcessing)} with the records a poll may return as the profile sets them
     * ({@code max.poll.records} of its consumer or common section, which share consumers take too; {@code set}: the
     * profile gives it).
     */
    public List<String> warnings(ConsumerProcessing processing, int maxPollRecords, boolean set) {
        long processingMicros = processing.meanMicros();
        String lock = String.format("%,d ms%s", lockMillis(),
                groupConfigs.containsKey("share.record.lock.duration.ms") ? "" : ", the broker's default");
        double lockMicros = lockMillis() * 1000.0;
        // the share of records whose own time reaches the lock duration, by the distribution
        double over = switch (processing.distribution()) {
            case fixed -> processingMicros >= lockMicros ? 1 : 0;
            case uniform -> processingMicros == 0 ? 0 : Math.max(0, (2.0 * processingMicros - lockMicros) / (2.0 * processingMicros));
            case exponential -> processingMicros == 0 ? 0 : Math.exp(-lockMicros / processingMicros);
        };
        if (any() && processing.distribution() != ConsumerProcessing.Distribution.fixed && over >= 0.001) {
            return List.of(String.format("consumerProcessingMillis (%s ms on average, %s): about %.1f%% of the records "
                    + "take at least the record lock duration (%s), lose their lock while they are processed and are "
                    + "delivered again", millis(processingMicros), processing.distribution(), 100 * over, lock));
        }
        if (any() && processingMicros >= lockMicros) {
            return List.of(String.format("consumerProcessingMillis (%s ms) is not below the record lock duration "
                    + "(%s): every record's lock runs out while it is processed, so every record is delivered "
                    + "again until share.delivery.count.limit archives it", millis(processingMicros), lock));
        }
        if (any() && processingMicros * (double) maxPollRecords >= lockMicros) {
            return List.of(String.format("consumerProcessingMillis (%s ms) times the records one poll may return "
                    + "(max.poll.records, %d %s) is not below the record lock duration (%s): records late in "
                    + "a full batch lose their lock before they are processed and are delivered again; lower "
                    + "max.poll.records in the profile's consumer section", millis(processingMicros),
                    maxPollRecords, set ? "in the profile" : "by default", lock));
        }
        return List.of();
    }

    /** Microseconds as milliseconds without trailing zeros: 100 ms, 59.9 ms, 0.25 ms. */
    static String millis(long micros) {
        return java.math.BigDecimal.valueOf(micros, 3).stripTrailingZeros().toPlainString();
    }

    /** The consumer's default {@code max.poll.records}. */
    public static final int DEFAULT_MAX_POLL_RECORDS = 500;
}
