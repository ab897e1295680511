package io.kbench.coordinator.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a workload's fields from its YAML ({@link Sweep#load} takes the matrix out first): every key checked with
 * its {@code file:line:column}, every problem collected, defaults where a key is absent. Fields of the
 * {@link Workload} record are built here; the record itself only holds and derives them.
 */
final class WorkloadParser {
    private WorkloadParser() { }

    /** Reads the workload fields of {@code y} (the matrix already taken out), adding problems to its errors. */
    static Workload parse(YamlMap y, Path path, List<ConfigError> errors) {
        // the name becomes a directory under results/: a plain file-name component, never a path
        String fileName = path.getFileName().toString().replaceFirst("\\.ya?ml$", "").replaceAll("[^A-Za-z0-9._+-]", "_");
        String name = y.string("name", NAME.matcher(fileName).matches() ? fileName : "workload");
        if (!NAME.matcher(name).matches()) {
            y.errorAtValue("name", "name '" + name.replace("\n", "\\n") + "' is not a plain name: 1 to 100 of "
                    + "A-Z a-z 0-9 . _ + -, starting with a letter or digit (it names the results directory)");
        }
        List<String> names = y.strings("topicNames");
        boolean existing = y.bool("existingTopics", false);
        int topics = (int) y.integer("topics", names == null ? 1 : names.size(), 1, 10_000, "1 to 10000");
        if (names != null) {
            if (y.has("topics") && topics != names.size()) {
                y.errorAt("topics", "topics is " + topics + " but topicNames lists " + names.size() + "; give one of them");
            }
            topics = names.size();
            for (String n : names) {
                String problem = TopicNames.problem(n);
                if (problem != null) {
                    y.errorAtValue("topicNames", problem);
                }
            }
            if (new java.util.HashSet<>(names).size() != names.size()) {
                y.errorAtValue("topicNames", "topicNames lists a name twice");
            }
        }
        if (existing && names == null) {
            y.errorAt("existingTopics", "existingTopics needs topicNames: the topics to use");
        }
        if (existing && y.has("partitionsPerTopic")) {
            y.errorAt("partitionsPerTopic", "partitionsPerTopic cannot be set with existingTopics: the topics have theirs");
        }
        int partitions = (int) y.integer("partitionsPerTopic", 1, 1, 100_000, "1 to 100000");
        int size = (int) y.integer("messageSize", 1024, 0, 100 * 1024 * 1024, "0 to 104857600 bytes");
        int producers = (int) y.integer("producersPerTopic", 1, 0, 10_000, "0 to 10000");
        int subscriptions = (int) y.integer("subscriptionsPerTopic", 1, 0, 1_000, "0 to 1000");
        int consumers = (int) y.integer("consumersPerSubscription", 1, 1, 10_000, "1 to 10000");
        long rate = y.integer("producerRate", Workload.UNTHROTTLED, -1, 1_000_000_000L,
                "-1 for unthrottled, or 1 to 1000000000 msg/s");
        int warmup = (int) y.integer("warmupSeconds", 0, 0, 86_400, "0 to 86400");
        int duration = (int) y.integer("durationSeconds", 0, 1, 7 * 86_400, "1 to 604800");
        long records = y.integer("numRecords", 0, 1, 1_000_000_000_000L, "1 to 1000000000000 messages");
        List<String> distributions = java.util.Arrays.stream(Workload.KeyDistribution.values()).map(Enum::name).toList();
        Workload.KeyDistribution keyDistribution = Workload.KeyDistribution.valueOf(y.choice("keyDistribution", "none", distributions));
        int keys = (int) y.integer("keys", 1000, 1, 100_000_000, "1 to 100000000 distinct keys");
        double zipf = y.decimal("zipfExponent", 1.0, 0.01, 10, "0.01 to 10");
        String payloadFile = y.string("payloadFile", null);
        String delimiter = y.string("payloadDelimiter", "\n");
        double ratio = y.decimal("randomBytesRatio", 1.0, 0, 1, "0 to 1 (fraction of each value that is random)");

        // derived counts in long: 10000 topics x 1000 subscriptions x 10000 consumers must not wrap around
        long producerCount = (long) topics * producers;
        long consumerCount = (long) topics * subscriptions * consumers;
        long groupCount = (long) topics * subscriptions;
        long partitionCount = (long) topics * partitions;
        if (producerCount > Workload.MAX_PRODUCERS) {
            y.errorAt("producersPerTopic", String.format("topics x producersPerTopic is %,d producers; at most %,d in all",
                    producerCount, Workload.MAX_PRODUCERS));
        }
        if (consumerCount > Workload.MAX_CONSUMERS) {
            y.errorAt(y.has("consumersPerSubscription") ? "consumersPerSubscription" : "subscriptionsPerTopic",
                    String.format("topics x subscriptionsPerTopic x consumersPerSubscription is %,d consumers; "
                            + "at most %,d in all", consumerCount, Workload.MAX_CONSUMERS));
        } else if (groupCount > Workload.MAX_GROUPS) {
            y.errorAt("subscriptionsPerTopic", String.format("topics x subscriptionsPerTopic is %,d consumer groups; "
                    + "at most %,d in all", groupCount, Workload.MAX_GROUPS));
        }
        if (partitionCount > Workload.MAX_PARTITIONS) {
            y.errorAt("partitionsPerTopic", String.format("topics x partitionsPerTopic is %,d partitions; at most %,d "
                    + "in all", partitionCount, Workload.MAX_PARTITIONS));
        }
        if (producers == 0) {
            if (!existing) {
                y.errorAt("producersPerTopic", "a run without producers reads existing topics: it needs existingTopics: true, "
                        + "topicNames and at least one subscription or share group");
            }
            if (y.has("producerRate") || payloadFile != null || keyDistribution != Workload.KeyDistribution.none) {
                y.errorAt("producersPerTopic", "producerRate, payloadFile and keys apply to producers; this run has none");
            }
        }
        if (y.has("durationSeconds") == y.has("numRecords")) {
            y.errorAt(y.has("durationSeconds") ? "numRecords" : "name",
                    "give exactly one of durationSeconds (measured seconds, 1 to 604800) or numRecords (messages in all)");
        }
        if (rate == 0) {
            y.errorAt("producerRate", "producerRate is 0; allowed: -1 for unthrottled, or 1 to 1000000000 msg/s");
        } else if (rate > 0 && producerCount > 0 && rate < producerCount) {
            y.errorAt("producerRate", "producerRate " + rate + " is below the number of producers ("
                    + producerCount + "); every producer needs at least 1 msg/s");
        }
        if (records > 0 && records < producerCount) {
            y.errorAt("numRecords", "numRecords " + records + " is below the number of producers (" + producerCount
                    + "); every producer needs at least 1 record");
        }
        if ((y.has("keys") || y.has("zipfExponent")) && keyDistribution == Workload.KeyDistribution.none) {
            y.errorAt(y.has("keys") ? "keys" : "zipfExponent", "keys and zipfExponent need a keyDistribution "
                    + "(roundRobin, random or zipf)");
        }
        if (y.has("zipfExponent") && keyDistribution != Workload.KeyDistribution.zipf && keyDistribution != Workload.KeyDistribution.none) {
            y.errorAt("zipfExponent", "zipfExponent applies only to keyDistribution: zipf");
        }
        boolean monotonic = y.bool("monotonicPayloads", false);
        if (monotonic) {
            if (payloadFile != null || y.has("messageSize") || y.has("randomBytesRatio") || producers == 0) {
                y.errorAt("monotonicPayloads", "monotonicPayloads makes every value the message's number in decimal: it "
                        + "needs producers and excludes payloadFile, messageSize and randomBytesRatio");
            }
            if (y.has("consumerBacklogBytes")) {
                y.errorAt("consumerBacklogBytes", "with monotonicPayloads give consumerBacklogRecords (the values' sizes vary)");
            }
        }
        String resolvedPayload = null;
        if (payloadFile != null) {
            if (y.has("messageSize") || y.has("randomBytesRatio")) {
                y.errorAt(y.has("messageSize") ? "messageSize" : "randomBytesRatio",
                        "messageSize and randomBytesRatio describe generated values; remove them when payloadFile is set");
            }
            Path p;
            try {
                p = path.toAbsolutePath().getParent().resolve(payloadFile).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                p = null; // a NUL character, say: said without repeating it
                y.errorAtValue("payloadFile", "payloadFile is not a path this system takes (" + e.getReason() + ")");
            }
            resolvedPayload = p == null ? null : p.toString();
            try {
                if (p != null) {
                    PayloadFile.read(p, delimiter);
                }
            } catch (java.nio.file.NoSuchFileException e) {
                y.errorAtValue("payloadFile", "payload file " + p + " not found");
            } catch (IOException | IllegalArgumentException e) {
                y.errorAtValue("payloadFile", "payload file " + p + ": " + e.getMessage());
            }
        } else if (y.has("payloadDelimiter")) {
            y.errorAt("payloadDelimiter", "payloadDelimiter applies only with a payloadFile");
        }
        long backlog = y.integer("consumerBacklogRecords", 0, 1, 1_000_000_000_000L, "1 to 1000000000000 messages");
        long backlogBytes = y.integer("consumerBacklogBytes", 0, 1, Long.MAX_VALUE / 2, "1 or more bytes");
        if (y.has("consumerBacklogRecords") || y.has("consumerBacklogBytes")) {
            String key = y.has("consumerBacklogRecords") ? "consumerBacklogRecords" : "consumerBacklogBytes";
            if (y.has("consumerBacklogRecords") && y.has("consumerBacklogBytes")) {
                y.errorAt("consumerBacklogBytes", "give consumerBacklogRecords or consumerBacklogBytes, not both");
            }
            if (producers == 0 || subscriptions == 0) {
                y.errorAt(key, key + " needs producers (to build the backlog) and consumers (to read it)");
            }
            if (y.has("consumerBacklogBytes")) {
                if (size == 0) {
                    y.errorAt(key, "with messageSize 0 give consumerBacklogRecords (no number of empty values makes bytes)");
                }
                backlog = Math.max(1, (backlogBytes + Math.max(1, size) - 1) / Math.max(1, size));
                if (payloadFile != null) {
                    y.errorAt(key, "with a payloadFile give consumerBacklogRecords (the values' sizes vary)");
                }
            }
            if (records > 0 && backlog > records) {
                y.errorAt(key, "the backlog (" + backlog + " messages) cannot be larger than numRecords (" + records
                        + "); equal means: build the backlog, stop producing, then read it");
            }
        }
        long txRecords = y.integer("transactionRecords", 0, 1, 1_000_000_000L, "1 to 1000000000 messages per transaction");
        long txMillis = y.integer("transactionMillis", 0, 1, 900_000, "1 to 900000 ms (the broker's transaction.max.timeout.ms)");
        if ((txRecords > 0 || txMillis > 0) && producers == 0) {
            y.errorAt(txRecords > 0 ? "transactionRecords" : "transactionMillis", "transactions need producers");
        }
        long warmupRecords = y.integer("warmupRecords", 0, 1, 1_000_000_000_000L, "1 to 1000000000000 messages");
        if (y.has("warmupRecords")) {
            if (y.has("warmupSeconds")) {
                y.errorAt("warmupRecords", "give warmupSeconds or warmupRecords, not both");
            }
            if (records == 0 || warmupRecords >= records || producers == 0) {
                y.errorAt("warmupRecords", "warmupRecords needs producers and a numRecords larger than it "
                        + "(numRecords counts the warm-up records too)");
            }
        }
        boolean stamp = y.bool("stampMessages", true);
        boolean verification = y.bool("verification", stamp);
        if (verification && !stamp) {
            y.errorAt("verification", "verification needs stamped messages; remove stampMessages: false or set "
                    + "verification: false");
        }
        long saturation = y.integer("saturationDelayMillis", Workload.DEFAULT_SATURATION_DELAY_MILLIS, 1, 3_600_000,
                "1 to 3600000 ms");
        long maxSendErrors = y.integer("maxSendErrors", Workload.NO_ERROR_LIMIT, -1, 1_000_000_000_000L,
                "-1 for no limit, or 0 to 1000000000000 failed sends");
        List<Fault> faults = faults(y, warmup + duration, records > 0);
        double processingMillis = y.decimal("consumerProcessingMillis", 0, 0, 60_000, "0 to 60000 ms per message");
        ConsumerProcessing.Distribution processingDistribution = ConsumerProcessing.Distribution.valueOf(
                y.choice("consumerProcessingDistribution", "fixed", java.util.Arrays.stream(
                        ConsumerProcessing.Distribution.values()).map(Enum::name).toList()));
        ShareGroups share = ShareGroups.parse(y);
        if (producers == 0 && existing && subscriptions == 0 && !share.any()) {
            y.errorAt("producersPerTopic", "a run without producers reads existing topics: it needs at least one "
                    + "subscription (subscriptionsPerTopic) or share group (shareGroupsPerTopic)");
        }
        if (processingMillis > 0 && subscriptions == 0 && !share.any()) {
            y.errorAt("consumerProcessingMillis", "consumerProcessingMillis is the consumers' time per message; this "
                    + "run has no consumers");
        }
        if (y.has("consumerProcessingDistribution") && processingMillis == 0) {
            y.errorAt("consumerProcessingDistribution", "consumerProcessingDistribution draws each message's time around "
                    + "consumerProcessingMillis (the mean); set that too");
        }
        if (share.any()) {
            long shareConsumers = (long) topics * share.groupsPerTopic() * share.consumersPerGroup();
            if (consumerCount + shareConsumers > Workload.MAX_CONSUMERS) {
                y.errorAt(y.has("consumersPerShareGroup") ? "consumersPerShareGroup" : "shareGroupsPerTopic",
                        String.format("%,d classic and %,d share consumers; at most %,d in all", consumerCount,
                                shareConsumers, Workload.MAX_CONSUMERS));
            }
            if (y.has("consumerBacklogRecords") || y.has("consumerBacklogBytes")) {
                y.errorAt("shareGroupsPerTopic", "a backlog run holds its consumers until the backlog is built; a share "
                        + "consumer cannot be held (it has no partitions of its own to pause)");
            }
        }
        KeysAndHeaders keysAndHeaders = KeysAndHeaders.parse(y, keyDistribution != Workload.KeyDistribution.none);
        boolean roundTrip = y.bool("roundTrip", false);
        if (roundTrip) {
            List<String> here = new ArrayList<>();
            if (topics != 1 || producers != 1 || subscriptions != 1 || consumers != 1) {
                here.add(String.format("%d topic(s) x %d producer(s), %d subscription(s) x %d consumer(s)", topics,
                        producers, subscriptions, consumers));
            }
            if (y.has("producerRate") && rate != Workload.UNTHROTTLED) {
                here.add("producerRate " + rate);
            }
            if (share.any()) {
                here.add("share groups");
            }
            if (txRecords > 0 || txMillis > 0) {
                here.add("transactions");
            }
            if (y.has("consumerBacklogRecords") || y.has("consumerBacklogBytes")) {
                here.add("a consumer backlog");
            }
            if (processingMillis > 0) {
                here.add("consumer processing time");
            }
            if (!stamp) {
                here.add("stampMessages: false");
            }
            if (!here.isEmpty()) {
                y.errorAt("roundTrip", "roundTrip keeps one message in flight between one producer and one consumer: it "
                        + "needs 1 topic, 1 producer, 1 subscription of 1 consumer and stamped messages, without "
                        + "producerRate, share groups, transactions, a backlog or processing time; here: "
                        + String.join(", ", here));
            }
        }
        // a broker setting is a matrix key only: said as such, instead of an unknown key with the whole list
        for (String k : new ArrayList<>(y.keys())) {
            if (k.startsWith(Sweep.BROKER_PREFIX)) {
                y.errorAt(k, "'" + k + "' is a broker setting: vary it in the matrix (matrix: {" + k + ": [...]}; one value "
                        + "for the whole sweep: a one-value list), where kbench sets it on the cluster before each run");
                y.remove(k);
            }
        }
        y.rejectUnknown(Workload.KEYS, "workload", Profile.KEYS, "driver profile",
                "put it in the profile given with --driver (deployment/kafka/*.yaml), or give it with --set KEY=VALUE",
                "give it with --driver, and a workload (workloads/*.yaml) as the argument");
        if (!errors.isEmpty()) {
            return null;
        }
        Messages messages = new Messages(size, resolvedPayload, delimiter, ratio, monotonic, keyDistribution, keys, zipf,
                keysAndHeaders);
        return new Workload(name, topics, partitions, producers, subscriptions, consumers, rate, warmup,
                y.has("durationSeconds") ? duration : 0, y.has("numRecords") ? records : 0, messages,
                names == null ? List.of() : names, existing, backlog, new Transactions(txRecords, txMillis), warmupRecords,
                verification, saturation, maxSendErrors, faults, stamp, share,
                new ConsumerProcessing(Math.round(processingMillis * 1000), processingDistribution), roundTrip);
    }

    /**
     * Reads {@code faults}: each stops or starts a broker at a whole second of the run, in time order; a broker
     * is stopped only while running and started only while stopped.
     */
    private static List<Fault> faults(YamlMap y, int runSeconds, boolean byRecords) {
        List<YamlMap> entries = y.mappings("faults", "[{at: 10, action: stop, broker: 2}, {at: 20, action: start, broker: 2}]");
        if (entries == null) {
            return List.of();
        }
        List<Fault> out = new ArrayList<>();
        java.util.Set<Integer> down = new java.util.HashSet<>();
        int previous = -1;
        for (YamlMap f : entries) {
            String limit = byRecords ? "0 to 604800 s after the start" : "0 to " + runSeconds + " s (warm-up + duration)";
            int at = (int) f.integer("at", -1, 0, byRecords ? 604_800 : runSeconds, limit);
            String action = f.choice("action", null, List.of("stop", "start"));
            int broker = (int) f.integer("broker", -1, 1, 9, "a broker id of the embedded cluster, 1 to 9");
            f.rejectUnknown(Workload.FAULT_KEYS, "fault");
            if (!f.has("at") || !f.has("action") || !f.has("broker")) {
                f.error(f.node(), "a fault needs at (seconds after the start), action (stop or start) and broker (id)");
                continue;
            }
            if (at < 0 || action == null || broker < 1) {
                continue; // reported above
            }
            if (at < previous) {
                f.errorAt("at", "faults must be listed in time order (" + at + " s comes after " + previous + " s)");
            }
            previous = at;
            Fault.Action a = Fault.Action.valueOf(action);
            if (a == Fault.Action.stop && !down.add(broker)) {
                f.errorAt("action", "broker " + broker + " is already stopped at " + at + " s");
            } else if (a == Fault.Action.start && !down.remove(broker)) {
                f.errorAt("action", "broker " + broker + " is not stopped at " + at + " s; only a stopped broker can be started");
            }
            out.add(new Fault(at, a, broker));
        }
        return out;
    }

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,"
            + (Workload.MAX_NAME - 1) + "}");
}
