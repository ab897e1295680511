package io.kbench.coordinator.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What each message of a workload is: its value — generated ({@code messageSize} bytes, {@code randomBytesRatio} of
 * them random), a payload file's records in turn, or its number in decimal ({@code monotonicPayloads}) — its key
 * ({@code keyDistribution} over {@code keys} names, or {@code keySize} bytes) and its headers ({@link KeysAndHeaders}).
 * A part of {@link Workload}; result.json keeps its fields among the workload's keys.
 *
 * @param messageSize       value size in bytes of generated values (unused with a payload file)
 * @param payloadFile       file whose delimited records are the message values, or null
 * @param payloadDelimiter  delimiter of the payload file's records
 * @param randomBytesRatio  fraction of each generated value that is random (the rest zeros)
 * @param monotonicPayloads every value is the message's number in decimal (kafka-producer-perf-test's
 *                          {@code --payload-monotonic}): unique across the run, 0, 1, 2 ... with one producer
 * @param keyDistribution   how keys are chosen
 * @param keys              number of distinct keys
 * @param zipfExponent      exponent of the Zipf key distribution
 * @param keysAndHeaders    sized keys and headers every message carries (Kafka's EndToEndLatency's)
 */
public record Messages(int messageSize, String payloadFile, String payloadDelimiter, double randomBytesRatio,
                       boolean monotonicPayloads, Workload.KeyDistribution keyDistribution, int keys, double zipfExponent,
                       @com.fasterxml.jackson.annotation.JsonUnwrapped KeysAndHeaders keysAndHeaders) {
    public Messages {
        keysAndHeaders = keysAndHeaders == null ? KeysAndHeaders.NONE : keysAndHeaders;
    }

    /** Generated values of {@code size} bytes, all random, without keys or headers. */
    public static Messages generated(int size) {
        return new Messages(size, null, "\n", 1.0, false, Workload.KeyDistribution.none, 1000, 1.0, KeysAndHeaders.NONE);
    }

    /**
     * The most distinct keys {@code keySize} gives: one capital letter repeated, at most 26 and at most 4 MiB of them
     * (as the worker's {@code Keys.sized} makes them).
     */
    public static int sizedKeys(int keySize) {
        return Math.max(1, Math.min(26, 4 * 1024 * 1024 / Math.max(1, keySize)));
    }

    /**
     * What the keys leave unloaded: fewer distinct keys than a topic's {@code partitions} leave some partitions without
     * a message (every message of a key goes to the partition of its hash); empty when every partition may get some.
     */
    public List<String> partitionWarnings(int partitions) {
        int keys = keyDistribution != Workload.KeyDistribution.none ? this.keys
                : keysAndHeaders.keySize() > 0 ? sizedKeys(keysAndHeaders.keySize()) : 0;
        if (keys == 0 || keys >= partitions) {
            return List.of();
        }
        String which = keyDistribution != Workload.KeyDistribution.none ? String.format(java.util.Locale.ROOT,
                "keys: %,d", keys) : String.format(java.util.Locale.ROOT, "keySize %,d gives at most %d distinct keys "
                + "(one capital letter repeated, as Kafka's EndToEndLatency)", keysAndHeaders.keySize(), keys);
        return List.of(String.format(java.util.Locale.ROOT, "%s for %,d partitions per topic: at least %,d of them get no "
                + "message, as every message of a key goes to the partition of its hash; %s", which, partitions,
                partitions - keys, keyDistribution != Workload.KeyDistribution.none
                        ? "more keys, or no keyDistribution, load them all"
                        : "a keyDistribution with at least as many keys as partitions loads them all"));
    }

    /** The payload file's values, or an empty list for generated values. */
    public List<byte[]> payloadValues() {
        if (payloadFile == null) {
            return List.of();
        }
        try {
            return PayloadFile.read(Path.of(payloadFile), payloadDelimiter);
        } catch (IOException e) {
            throw new InvalidConfigException(List.of(new ConfigError(payloadFile, 1, 1, "cannot read: " + e.getMessage())));
        }
    }
}
