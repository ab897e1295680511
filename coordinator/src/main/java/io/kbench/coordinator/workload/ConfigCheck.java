package io.kbench.coordinator.workload;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A profile's client and topic settings held against Kafka's own config definitions before anything starts, so that
 * a typo ({@code linger.m: 5}) is not silently ignored by the client for a whole sweep, and a bad value ({@code acks:
 * al}, {@code topic.retention.ms: 7d}) is refused with the file's position instead of by a worker or the cluster once
 * the cluster is up — or, in a sweep's matrix, after the combinations before it ran. The coordinator does not know
 * Kafka's configs; the definitions come in through {@link Defs} (the distribution wires kafka-clients' and the
 * broker's own).
 *
 * <p>What is refused and what is only noted: a value Kafka would not take; a name Kafka does not define but one it
 * does is within two edits of ("did you mean"). Any other unknown name is noted and passed on — for a client, a plugin
 * of the user's (an interceptor, a partitioner, a metrics reporter, a config provider) may read it, as Kafka's clients
 * let it (they warn and ignore); for a topic, a cluster of another version or vendor may define it (Kafka's refuses
 * it when the topics are created). A value that may be a secret is never repeated.
 */
public final class ConfigCheck {
    /** The driver's config definitions. */
    public interface Defs {
        /** The config names a profile section's clients define; empty when this driver does not say (then no check). */
        Set<String> names(String section);

        /** Why the section's clients would not take {@code value} for {@code name}, or null. */
        String valueProblem(String section, String name, String value);

        /**
         * Why the {@code client} ({@code producer}, {@code consumer}) would refuse {@code settings} taken together (a
         * check of the whole config, as the client's constructor makes it), or null; null when this driver does not say.
         */
        default String togetherProblem(String client, Map<String, String> settings, boolean transactional) {
            return null;
        }

        /**
         * Why a producer with {@code settings} would refuse a record of {@code size} for its size before sending it
         * ({@code max.request.size}, {@code buffer.memory}), in one line that begins with {@code what} ("every
         * record"), or null; null when this driver does not say.
         */
        default String recordProblem(Map<String, String> settings, RecordSize size, String what) {
            return null;
        }
    }

    /**
     * One record of a workload, in bytes, as the driver sizes it against the producer's limits.
     *
     * @param keyBytes         the key's length; -1 for no key
     * @param valueBytes       the value's length
     * @param headers          the workload's own headers ({@code headersPerMessage})
     * @param headerKeyBytes   each header's key length
     * @param headerValueBytes each header's value length; -1 for a null value
     * @param stamped          kbench's stamp travels with the record (in the value, or a header when the value is short)
     * @param verified         ... with the producer id and sequence
     */
    public record RecordSize(int keyBytes, int valueBytes, int headers, int headerKeyBytes, int headerValueBytes,
                             boolean stamped, boolean verified) {
        RecordSize withValue(int bytes) {
            return new RecordSize(keyBytes, bytes, headers, headerKeyBytes, headerValueBytes, stamped, verified);
        }
    }

    /** No definitions: nothing is checked. */
    public static final ConfigCheck NONE = new ConfigCheck(new Defs() {
        @Override
        public Set<String> names(String section) {
            return Set.of();
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            return null;
        }
    });

    /** Sections whose names are Kafka's configs: the clients' and the topics'. */
    public static final java.util.List<String> SECTIONS = java.util.List.of("producer", "consumer", "admin", "common",
            "topic");

    /** An unknown name this close to a known one (edits) is taken for a typo of it and refused. */
    static final int TYPO_EDITS = 2;

    /**
     * What the check found about one setting.
     *
     * @param refused the run cannot go on with it
     * @param message one line, without the file's position (the caller adds it)
     * @param ofName about the name (unknown, or a typo), whatever its value; otherwise about the value
     */
    public record Finding(boolean refused, String message, boolean ofName) {
    }

    private final Defs defs;
    private final Map<String, Set<String>> names = new ConcurrentHashMap<>();

    public ConfigCheck(Defs defs) {
        this.defs = defs;
    }

    /**
     * What is wrong with a profile key as overrides and matrices give it, {@code section.name} ({@code
     * producer.linger.ms}), or null when nothing is (or it is not a client's setting: {@code replicationFactor},
     * {@code topic.*}).
     */
    public Finding checkKey(String key, String value) {
        int dot = key.indexOf('.');
        return dot < 0 ? null : check(key.substring(0, dot), key.substring(dot + 1), value);
    }

    /** What is wrong with {@code section.name = value}, or null when nothing is (or the section is not Kafka configs). */
    public Finding check(String section, String name, String value) {
        if (!SECTIONS.contains(section)) {
            return null;
        }
        Set<String> known = names.computeIfAbsent(section, defs::names);
        if (known.isEmpty()) {
            return null;
        }
        String shownName = ConfigError.shown(name);
        if (!known.contains(name)) {
            String near = nearest(name, known);
            if (near != null && Names.distance(name.toLowerCase(Locale.ROOT), near.toLowerCase(Locale.ROOT)) <= TYPO_EDITS) {
                return new Finding(true, section + "." + shownName + " is not a " + what(section) + " config; did you mean "
                        + near + "?", true);
            }
            return new Finding(false, section + "." + shownName + " is not a " + what(section) + " config: passed on, "
                    + (section.equals("topic") ? "and the brokers refuse it when the topics are created unless they "
                    + "define it (another version's or vendor's config)" : "and the client ignores it unless a plugin of "
                    + "yours reads it") + (near == null ? "" : " (the nearest config is " + near + ")"), true);
        }
        String problem = defs.valueProblem(section, name, value);
        if (problem == null) {
            return null;
        }
        if (Profile.isSecret(name) || value.isEmpty()) {
            return new Finding(true, section + "." + shownName + ": " + (section.equals("topic") ? "the brokers" : "the client")
                    + " would not take its value" + (value.isEmpty()
                    ? " (empty)" : " (not shown: it may be a secret)"), false);
        }
        // Kafka's message names the value: cut, as every message shows a file's text
        String why = problem.replace(value, ConfigError.shown(value));
        return new Finding(true, section + "." + shownName + ": " + (why.length() > 300 ? why.substring(0, 300) + "..." : why),
                false);
    }

    /**
     * Why the workload's clients would refuse the profile's settings taken together — each value may be one Kafka
     * takes while the combination is not (the idempotent producer, on by default, with more than 5 requests in flight
     * per connection) — in one line without the file's position, or null. Only the clients the workload runs are
     * checked: its producers (transactional ones with their transactional id) and its classic consumers. No secret
     * value is repeated.
     */
    public String together(Profile profile, Workload workload) {
        return together(profile, workload.producerCount() > 0, workload.consumerCount() > 0, workload.transactional());
    }

    /**
     * Why the workload's producers would refuse its records for their size with the profile's settings — every record
     * (a 1 MiB value against Kafka's default {@code max.request.size} of 1 MiB: the record's batch header makes it
     * larger), or those of a payload file's largest value — in one line without the file's position, or null. Kafka's
     * clients refuse such a record at {@code send}, so a run of it would measure only failures.
     */
    public String recordProblem(Profile profile, Workload workload) {
        return recordProblem(profile, workload, new java.util.HashMap<>());
    }

    /**
     * As {@link #recordProblem(Profile, Workload)}, a payload file's value sizes kept in {@code payloadSizes} (by file
     * and delimiter) for the next call: a sweep's combinations read the file once.
     */
    String recordProblem(Profile profile, Workload workload, Map<String, int[]> payloadSizes) {
        if (workload.producerCount() == 0) {
            return null;
        }
        Map<String, String> settings = new java.util.HashMap<>(profile.common());
        settings.putAll(profile.producer());
        Messages m = workload.messages();
        KeysAndHeaders kh = m.keysAndHeaders();
        // the shortest key a message has: keyDistribution's names are key-0, key-1 ...
        int key = kh.keySize() > 0 ? kh.keySize() : m.keyDistribution() == Workload.KeyDistribution.none ? -1 : 5;
        int[] values = valueSizes(m, payloadSizes);
        RecordSize smallest = new RecordSize(key, values[0], kh.headersPerMessage(), kh.headerKeySize(),
                kh.headerValueSize(), workload.stampMessages(), workload.verification());
        String every = defs.recordProblem(settings, smallest, "every record");
        if (every != null || values[1] == values[0]) {
            return every;
        }
        return defs.recordProblem(settings, smallest.withValue(values[1]),
                String.format(Locale.ROOT, "the records of the payload file's largest value (%,d bytes)", values[1]));
    }

    /** The shortest and longest value of the workload's messages. */
    private static int[] valueSizes(Messages m, Map<String, int[]> payloadSizes) {
        if (m.payloadFile() != null) {
            return payloadSizes.computeIfAbsent(m.payloadFile() + "\0" + m.payloadDelimiter(), k -> {
                int min = Integer.MAX_VALUE;
                int max = 0;
                for (byte[] v : m.payloadValues()) {
                    min = Math.min(min, v.length);
                    max = Math.max(max, v.length);
                }
                return max == 0 ? new int[] {0, 0} : new int[] {min, max};
            });
        }
        // a monotonic value is the message's number in decimal: from 1 byte (0); its few more bytes do not matter here
        return m.monotonicPayloads() ? new int[] {1, 1} : new int[] {m.messageSize(), m.messageSize()};
    }

    /** As {@link #together(Profile, Workload)} for a profile on its own: its producers' and consumers' settings. */
    public String together(Profile profile) {
        return together(profile, true, true, false);
    }

    private String together(Profile profile, boolean producers, boolean consumers, boolean transactional) {
        for (String client : List.of("producer", "consumer")) {
            if (!(client.equals("producer") ? producers : consumers)) {
                continue;
            }
            Map<String, String> settings = new java.util.HashMap<>(profile.common());
            settings.putAll(client.equals("producer") ? profile.producer() : profile.consumer());
            String problem = defs.togetherProblem(client, settings, client.equals("producer") && transactional);
            if (problem == null) {
                continue;
            }
            for (Map.Entry<String, String> e : settings.entrySet()) {
                if (Profile.isSecret(e.getKey()) && !e.getValue().isEmpty()) {
                    problem = problem.replace(e.getValue(), "(not shown)");
                }
            }
            problem = ConfigError.printable(ConfigError.cutLongWords(problem.length() > 300 ? problem.substring(0, 300) + "..."
                    : problem));
            return "the " + client + " would refuse these settings together: " + problem
                    + (problem.contains("idempotent producer") && !settings.containsKey("enable.idempotence")
                    ? " (idempotence is on by default: enable.idempotence=false turns it off)" : "");
        }
        return null;
    }

    /**
     * Whether Kafka's definitions of {@code section} leave out {@code name} — known to be refused by brokers of kbench's
     * own version (the embedded cluster), for a topic; false when the section is not described.
     */
    public boolean undefined(String section, String name) {
        if (!SECTIONS.contains(section)) {
            return false;
        }
        Set<String> known = names.computeIfAbsent(section, defs::names);
        return !known.isEmpty() && !known.contains(name);
    }

    private static String what(String section) {
        return section.equals("common") ? "Kafka client" : "Kafka " + section;
    }

    /** The known name nearest to {@code name} ({@link Names#closest}); none for a name longer than any config. */
    private static String nearest(String name, Set<String> known) {
        return name.length() > 200 ? null : Names.closest(name, known);
    }
}
