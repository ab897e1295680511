package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void shouldReadEveryFieldOfAValidWorkload() throws IOException {
        Workload w = Workload.load(file("w.yaml", """
                name: demo
                topics: 2
                partitionsPerTopic: 6
                messageSize: 100
                producersPerTopic: 3
                subscriptionsPerTopic: 2
                consumersPerSubscription: 4
                producerRate: 20_000
                warmupSeconds: 5
                durationSeconds: 20
                """));
        assertEquals(Workload.timed("demo", 2, 6, 100, 3, 2, 4, 20_000, 5, 20), w);
        assertEquals(6, w.producerCount());
        assertEquals(16, w.consumerCount());
    }

    @Test
    void shouldSendPlainRecordsOnlyWithoutVerification() throws IOException {
        Workload stamped = Workload.load(file("s.yaml", "durationSeconds: 5\n"));
        assertEquals(true, stamped.stampMessages());
        assertEquals(true, stamped.verification());
        Workload plain = Workload.load(file("p.yaml", "durationSeconds: 5\nstampMessages: false\n"));
        assertEquals(false, plain.stampMessages());
        assertEquals(false, plain.verification(), "verification defaults to off without stamps");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(file("v.yaml",
                "durationSeconds: 5\nstampMessages: false\nverification: true\n")));
        assertEquals("v.yaml:3:1: verification needs stamped messages; remove stampMessages: false or set verification: "
                + "false", e.getMessage().substring(e.getMessage().indexOf("v.yaml")));
    }

    @Test
    void shouldSendMonotonicValuesOnlyInsteadOfGeneratedOrFileValues() throws IOException {
        assertEquals(true, Workload.load(file("m.yaml", "durationSeconds: 5\nmonotonicPayloads: true\n")).messages().monotonicPayloads());
        assertEquals(false, Workload.load(file("d.yaml", "durationSeconds: 5\n")).messages().monotonicPayloads());
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(file("ms.yaml",
                "durationSeconds: 5\nmessageSize: 10\nmonotonicPayloads: true\n")));
        assertEquals("ms.yaml:3:1: monotonicPayloads makes every value the message's number in decimal: it needs producers "
                + "and excludes payloadFile, messageSize and randomBytesRatio",
                e.getMessage().substring(e.getMessage().indexOf("ms.yaml")));
        InvalidConfigException t = assertThrows(InvalidConfigException.class, () -> Workload.load(file("mt.yaml",
                "durationSeconds: 5\nmonotonicPayloads: yes please\n")));
        assertTrue(t.getMessage().contains("mt.yaml:2:"), t.getMessage());
    }

    @Test
    void shouldDefaultNameToTheFileName() throws IOException {
        assertEquals("my-load", Workload.load(file("my-load.yaml", "durationSeconds: 5\n")).name());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "partitionsPerTopic: 0|2:21|partitionsPerTopic is 0; allowed: 1 to 100000",
        "messageSize: -5|2:14|messageSize is -5; allowed: 0 to 104857600 bytes",
        "messageSize: big|2:14|messageSize must be a whole number (0 to 104857600 bytes), got 'big'",
        "producerRate: 0|2:1|producerRate is 0; allowed: -1 for unthrottled, or 1 to 1000000000 msg/s",
        "producerRate: -7|2:15|producerRate is -7; allowed: -1 for unthrottled, or 1 to 1000000000 msg/s",
        "producersPerTopic: 4\\nproducerRate: 3|3:1|producerRate 3 is below the number of producers (4); every producer needs at least 1 msg/s",
        "numRecords: 100|2:1|give exactly one of durationSeconds (measured seconds, 1 to 604800) or numRecords (messages in all)",
        "keys: 10|2:1|keys and zipfExponent need a keyDistribution (roundRobin, random or zipf)",
        "keyDistribution: roundRobin\\nzipfExponent: 1.2|3:1|zipfExponent applies only to keyDistribution: zipf",
        "keyDistribution: zipff|2:1|keyDistribution 'zipff' is not known (did you mean 'zipf'?); allowed: none, roundRobin, random, zipf",
        "randomBytesRatio: 1.5|2:19|randomBytesRatio is 1.5; allowed: 0 to 1 (fraction of each value that is random)",
        "payloadDelimiter: ','|2:1|payloadDelimiter applies only with a payloadFile",
        "subscriptionsPerTopic: 0\\nconsumerBacklogRecords: 10|3:1|consumerBacklogRecords needs producers (to build the backlog) and consumers (to read it)",
        "consumerBacklogRecords: 10\\nconsumerBacklogBytes: 100|3:1|give consumerBacklogRecords or consumerBacklogBytes, not both",
        "warmupRecords: 10|2:1|warmupRecords needs producers and a numRecords larger than it (numRecords counts the warm-up records too)",
        "transactionMillis: 1000000|2:20|transactionMillis is 1000000; allowed: 1 to 900000 ms (the broker's transaction.max.timeout.ms)",
        "producersPerTopic: 0|2:1|a run without producers reads existing topics: it needs existingTopics: true, topicNames and at least one subscription or share group",
        "existingTopics: true|2:1|existingTopics needs topicNames: the topics to use",
        "topicNames: [ok, 'bad name']|2:13|'bad name' is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -)",
        "topicNames: [a, b]\\ntopics: 3|3:1|topics is 3 but topicNames lists 2; give one of them",
        "topicNames: [a]\\nexistingTopics: true\\npartitionsPerTopic: 3|4:1|partitionsPerTopic cannot be set with existingTopics: the topics have theirs",
        "topics: [1, 2]|2:9|topics must be a whole number (1 to 10000)",
        "name: x\\nname: y|3:1|duplicate key 'name'",
        "maxSendErrors: -2|2:16|maxSendErrors is -2; allowed: -1 for no limit, or 0 to 1000000000000 failed sends",
        "faults: [{at: 30, action: stop, broker: 1}]|2:15|at is 30; allowed: 0 to 10 s (warm-up + duration)",
        "faults: [{at: 1, action: start, broker: 1}]|2:18|broker 1 is not stopped at 1 s; only a stopped broker can be started",
        "faults: [{at: 5, action: stop, broker: 1}, {at: 2, action: start, broker: 1}]|2:45|faults must be listed in time order (2 s comes after 5 s)",
        "faults: [{at: 1, action: stop, broker: 1}, {at: 2, action: stop, broker: 1}]|2:52|broker 1 is already stopped at 2 s",
        "faults: [{at: 1, action: stop}]|2:10|a fault needs at (seconds after the start), action (stop or start) and broker (id)",
        "faults: [{at: 1, action: stop, broker: 10}]|2:40|broker is 10; allowed: a broker id of the embedded cluster, 1 to 9",
        "roundTrip: true\\nproducersPerTopic: 2|2:1|roundTrip keeps one message in flight between one producer and one consumer: it needs 1 topic, 1 producer, 1 subscription of 1 consumer and stamped messages, without producerRate, share groups, transactions, a backlog or processing time; here: 1 topic(s) x 2 producer(s), 1 subscription(s) x 1 consumer(s)",
        "roundTrip: true\\nproducerRate: 100\\nstampMessages: false\\nverification: false|2:1|roundTrip keeps one message in flight between one producer and one consumer: it needs 1 topic, 1 producer, 1 subscription of 1 consumer and stamped messages, without producerRate, share groups, transactions, a backlog or processing time; here: producerRate 100, stampMessages: false",
        "roundTrip: yes|2:12|roundTrip must be true or false",
        "keySize: -1|2:10|keySize is -1; allowed: 0 to 1048576 bytes",
        "keySize: 8\\nkeyDistribution: random|2:1|keySize gives every message a key of its own size; keyDistribution chooses keys key-0, key-1 ...: give one of them",
        "headerKeySize: 4|2:1|headerKeySize and headerValueSize size the headers of headersPerMessage; set that too",
        "headerValueSize: -2|2:18|headerValueSize is -2; allowed: -1 (a null value) to 1048576 bytes",
        "headersPerMessage: 10000\\nheaderValueSize: 1000|2:1|headersPerMessage x (headerKeySize + headerValueSize) is 10,000,000 bytes of headers per message; at most 1,048,576",
        "broker.num.io.threads: 4|2:1|'broker.num.io.threads' is a broker setting: vary it in the matrix (matrix: {broker.num.io.threads: [...]}; one value for the whole sweep: a one-value list), where kbench sets it on the cluster before each run",
        "faults: stop|2:9|faults must be a non-empty list of mappings, e.g. [{at: 10, action: stop, broker: 2}, {at: 20, action: start, broker: 2}]",
    })
    void shouldReportEachProblemWithItsPosition(String yaml, String position, String message) throws IOException {
        Path p = file("bad.yaml", "durationSeconds: 10\n" + yaml.replace("\\n", "\n") + "\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(p + ":" + position + ": " + message, e.errors().get(0).toString());
    }

    @Test
    void shouldReadFaultsInTimeOrderAndTheSendErrorLimit() throws IOException {
        Workload w = Workload.load(file("f.yaml", """
                warmupSeconds: 5
                durationSeconds: 20
                maxSendErrors: 100
                faults:
                  - {at: 10, action: stop, broker: 2}
                  - {at: 10, action: stop, broker: 3}
                  - {at: 25, action: start, broker: 2}
                """));
        assertEquals(100, w.maxSendErrors());
        assertEquals(List.of(new Fault(10, Fault.Action.stop, 2), new Fault(10, Fault.Action.stop, 3),
                new Fault(25, Fault.Action.start, 2)), w.faults());
        assertEquals(Workload.NO_ERROR_LIMIT, Workload.load(file("g.yaml", "durationSeconds: 5\n")).maxSendErrors());
    }

    @Test
    void shouldReportAllProblemsNotJustTheFirst() throws IOException {
        Path p = file("bad.yaml", "topics: 0\nmessageSize: -1\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(List.of(
                p + ":1:9: topics is 0; allowed: 1 to 10000",
                p + ":2:14: messageSize is -1; allowed: 0 to 104857600 bytes",
                p + ":1:1: give exactly one of durationSeconds (measured seconds, 1 to 604800) or numRecords (messages in all)"),
                e.errors().stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldSuggestTheClosestKeyForATypo() throws IOException {
        Path p = file("typo.yaml", "durationSeconds: 10\npartitionsPerTopc: 3\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(p + ":2:1: unknown workload key 'partitionsPerTopc' (did you mean 'partitionsPerTopic'?); allowed: "
                + String.join(", ", Workload.KEYS), e.getMessage());
    }

    @Test
    void shouldReadARecordCountKeysAndAPayloadFileRelativeToTheWorkload() throws IOException {
        Files.writeString(dir.resolve("payloads.txt"), "alpha\nbeta\n\ngamma\n");
        Workload w = Workload.load(file("counted.yaml", """
                numRecords: 1000
                producersPerTopic: 2
                keyDistribution: zipf
                keys: 50
                zipfExponent: 1.2
                payloadFile: payloads.txt
                """));
        assertEquals(1000, w.numRecords());
        assertEquals(0, w.durationSeconds());
        assertEquals(Workload.KeyDistribution.zipf, w.messages().keyDistribution());
        assertEquals(50, w.messages().keys());
        assertEquals(1.2, w.messages().zipfExponent());
        assertEquals(List.of("alpha", "beta", "gamma"),
                w.messages().payloadValues().stream().map(b -> new String(b, java.nio.charset.StandardCharsets.UTF_8)).toList());
    }

    @Test
    void shouldRejectAMissingPayloadFileAndMixingItWithGeneratedValues() throws IOException {
        Path p = file("pf.yaml", "durationSeconds: 10\nmessageSize: 100\npayloadFile: nope.txt\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(List.of(
                p + ":2:1: messageSize and randomBytesRatio describe generated values; remove them when payloadFile is set",
                p + ":3:14: payload file " + dir.resolve("nope.txt") + " not found"),
                e.errors().stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldRejectFewerRecordsThanProducers() throws IOException {
        Path p = file("few.yaml", "numRecords: 2\nproducersPerTopic: 3\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(p + ":1:1: numRecords 2 is below the number of producers (3); every producer needs at least 1 record",
                e.getMessage());
    }

    @Test
    void shouldReportYamlSyntaxErrorsWithTheirPosition() throws IOException {
        Path p = file("bad.yaml", "topics: 1\n  partitions: [\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(1, e.errors().size());
        assertEquals(2, e.errors().get(0).line());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("YAML syntax"), e.getMessage());
    }

    @Test
    void shouldReportAMissingFileAsAnError() {
        Path p = dir.resolve("nope.yaml");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        assertEquals(p + ":1:1: file not found", e.getMessage());
    }

    @Test
    void shouldRejectAProfileWithUnknownKeysAndRedactSecrets() throws IOException {
        Path bad = file("p.yaml", "replicationFactr: 3\n");
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Profile.load(bad));
        assertEquals(bad + ":1:1: unknown profile key 'replicationFactr' (did you mean 'replicationFactor'?); allowed: "
                + String.join(", ", Profile.KEYS), e.getMessage());

        Profile p = Profile.load(file("ok.yaml", """
                bootstrap.servers: b1:9092
                replicationFactor: 3
                common:
                  security.protocol: SASL_SSL
                  sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required password="hunter2";
                  ssl.truststore.password: changeit
                producer:
                  acks: all
                  linger.ms: 5
                """));
        assertEquals("b1:9092", p.bootstrapServers());
        assertEquals(3, p.replicationFactor());
        assertEquals("5", p.producer().get("linger.ms"));
        String printed = p.redacted().toString();
        org.junit.jupiter.api.Assertions.assertFalse(printed.contains("hunter2") || printed.contains("changeit"), printed);
        org.junit.jupiter.api.Assertions.assertTrue(printed.contains("security.protocol=SASL_SSL"), printed);
    }

    @Test
    void shouldTakeANetworkBandwidthInTheProfileAndKeepItThroughARecordedResult() throws IOException {
        Profile p = Profile.load(file("net.yaml", "replicationFactor: 3\nnetworkGbps: 25\n"));
        assertEquals(25.0, p.networkGbps());
        assertEquals(25.0, p.redacted().get("networkGbps"));
        java.util.Map<String, Object> recorded = new java.util.LinkedHashMap<>(p.redacted());
        recorded.remove("bootstrap.servers"); // as --repeat reads an embedded run's profile
        assertEquals(25.0, Profile.of("result.json", recorded).networkGbps(), "a repeated run keeps it");
        assertEquals(0.0, Profile.defaults().networkGbps());
        org.junit.jupiter.api.Assertions.assertFalse(Profile.defaults().redacted().containsKey("networkGbps"),
                "not given, not recorded");
        assertEquals(40.0, p.with(java.util.Map.of("networkGbps", "40")).networkGbps(), "--set and a matrix override it");
        String allowed = "a broker's link in Gbit/s, above 0 and at most 1600";
        String[][] cases = {
            {"networkGbps: 0\n", "networkGbps is 0; allowed: " + allowed},
            {"networkGbps: -1\n", "networkGbps is -1; allowed: " + allowed},
            {"networkGbps: '10'\n", "networkGbps must be a number (" + allowed + "), not the quoted text '10'; remove the quotes"},
            {"networkGbps: [10]\n", "networkGbps must be a number (" + allowed + ")"},
        };
        for (int i = 0; i < cases.length; i++) {
            Path f = file("net" + i + ".yaml", cases[i][0]);
            InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Profile.load(f));
            assertEquals(f + ":1:14: " + cases[i][1], e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> p.with(java.util.Map.of("networkGbps", "lots")));
        assertEquals("networkGbps must be a number of Gbit/s (above 0, at most 1600), got 'lots'", e.getMessage());
    }
}
