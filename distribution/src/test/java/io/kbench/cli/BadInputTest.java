package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad command lines, as a careless or hostile user types them: each ends in exactly one line on stderr and
 * exit code 2 — no stack trace — before any broker, worker or cluster is started or contacted.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BadInputTest {
    @TempDir
    static Path dir;
    static Path workload;
    static Path result;
    static String notADir;
    /** A value that must never appear in any refusal. */
    static final String SECRET = "s3cr3t-Qx7-never-shown";

    @BeforeAll
    static void files() throws IOException {
        workload = write("w.yaml", "durationSeconds: 5\n");
        write("twice-workers.txt", "127.0.0.1:7070\n# the same again\n127.0.0.1:7070\n");
        write("faults.yaml", "durationSeconds: 20\nfaults: [{at: 5, action: stop, broker: 4}]\n");
        write("serializer.properties", "key.serializer=org.example.Mine\n");
        write("group.properties", "group.id=mine\n");
        Path file = write("plain-file", "x");
        notADir = file.resolve("sub").toString();
        result = write("result.json", "{\"runId\": \"r1\", \"status\": \"COMPLETED\", \"summary\": {}, \"histograms\": {}}");
        write("redacted.json", "{\"runId\": \"r9\", \"workload\": {\"name\": \"w\", \"durationSeconds\": 5}, "
                + "\"profile\": {\"name\": \"p\", \"common\": {\"sasl.jaas.config\": \"[redacted]\"}}}");
        write("tampered.json", "{\"runId\": \"r8\", \"workload\": {\"name\": \"w\", \"durationSeconds\": -5}, "
                + "\"profile\": {\"name\": \"p\"}}");
        write("workers.txt", "# fleet\nclient-1:7070\nclient-2\n");
        write("noworkers.txt", "# none yet\n\n");
        write("secret-sweep.yaml", "durationSeconds: 5\nmatrix:\n  common.ssl.keystore.password: [a, " + SECRET + "]\n");
        write("sweep.yaml", "durationSeconds: 5\nmatrix:\n  producer.acks: [1, all]\n");
        write("records.yaml", "numRecords: 1000\n");
        write("noconsumers.yaml", "durationSeconds: 5\nsubscriptionsPerTopic: 0\n");
        // an OpenMessaging Benchmark workload (its keys translated, with a note each)
        write("omb-workload.yaml", "name: omb\ntopics: 1\npartitionsPerTopic: 1\nmessageSize: 100\nsubscriptionsPerTopic: 1\n"
                + "consumerPerSubscription: 1\nproducersPerTopic: 1\nproducerRate: 1000\nconsumerBacklogSizeGB: 0\n"
                + "testDurationMinutes: 1\n");
        write("real-workload.yaml", "name: q\ntopics: 1\npartitionsPerTopic: 6\nmessageSize: 1024\ndurationSeconds: 20\n");
        write("huge-value.yaml", "durationSeconds: 5\nproducerRate: " + "9".repeat(5000) + "\n");
        // each value one Kafka takes, together ones the producer refuses (idempotence, on by default, with > 5 in flight)
        write("inflight-sweep.yaml", "durationSeconds: 5\nmatrix:\n  producer.linger.ms: [1, 5]\n"
                + "  producer.max.in.flight.requests.per.connection: [5, 10]\n");
        write("idempotent.properties", "enable.idempotence=true\n");
        write("sasl.properties", "security.protocol=SASL_SSL\n");
        write("mib-values.yaml", "durationSeconds: 5\nmessageSize: 1048576\n");
        write("record-size-sweep.yaml", "durationSeconds: 5\nmatrix:\n  messageSize: [1024, 1048576]\n"
                + "  producer.max.request.size: [2097152, 1048576]\n");
        write("idempotent-profile.yaml", "name: i\ndriver: kafka\nproducer:\n  enable.idempotence: true\n  acks: 1\n");
        write("typo-sweep.yaml", "durationSeconds: 5\nmatrix:\n  producer.linger.m: [1, 5]\n");
        write("typo-profile.yaml", "name: typo\ndriver: kafka\nreplicationFactor: 1\nproducer:\n  linger.m: 5\n");
        write("topic-sweep.yaml", "durationSeconds: 5\nmatrix:\n  topic.retention.ms: [60000, 7d]\n");
        write("vendor-topic-profile.yaml", "name: v\ndriver: kafka\ntopic:\n  confluent.tier.enable: true\n");
        write("real-profile.yaml", "name: p\ndriver: kafka\nreplicationFactor: 1\nproducer:\n  acks: all\n");
        write("many-errors.yaml", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\ndurationSeconds: 5\n");
        variant("good.json", r -> { });
        variant("bad-base64.json", r -> r.with("histograms").put("publishLatencyMicros", "!!not base64!!"));
        variant("bad-histogram.json", r -> r.with("histograms").put("publishLatencyMicros",
                java.util.Base64.getEncoder().encodeToString("not a histogram at all".getBytes(StandardCharsets.UTF_8))));
        variant("no-intervals.json", r -> r.remove("intervals"));
        variant("interval-without-figures.json", r -> ((com.fasterxml.jackson.databind.node.ArrayNode) r.get("intervals"))
                .set(0, r.objectNode().put("index", 0)));
        variant("workload-text.json", r -> r.put("workload", "not an object"));
        variant("newer.json", r -> r.put("schemaVersion", 99));
        Files.createDirectories(dir.resolve("page-dir/report.html"));
        // a sweep's or a search's --output with one of its runs' directories in the way: refused before any load
        Files.createDirectories(dir.resolve("sweep-primed"));
        Files.writeString(dir.resolve("sweep-primed/00-priming"), "x");
        Files.createDirectories(dir.resolve("sweep-ran/02-producer.acks=all"));
        Files.writeString(dir.resolve("sweep-ran/02-producer.acks=all/result.json"), "{}");
        Files.createDirectories(dir.resolve("search-ran/03-12500"));
        write("json.properties", "{\"acks\": \"all\"}\n");
        Files.write(dir.resolve("latin1.properties"), "# client\nclient.id=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Files.write(dir.resolve("binary.payload"), new byte[] {'a', (byte) 0xff, (byte) 0xfe, '\n', 'b'});
        write("binary-payload.yaml", "durationSeconds: 5\npayloadFile: " + dir.resolve("binary.payload") + "\n");
        write("merged.json", "{\"merged\": [], \"status\": \"COMPLETED\", \"summary\": {}, \"histograms\": {}}");
    }

    /** A real result.json (a 2-s quickstart run of this build) with {@code change} applied, written as {@code name}. */
    private static void variant(String name, java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> change)
            throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (java.io.InputStream in = BadInputTest.class.getResourceAsStream("/result-samples/quickstart-result.json")) {
            com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(in);
            change.accept(r);
            json.writeValue(dir.resolve(name).toFile(), r);
        }
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String at(String name) {
        return dir.resolve(name).toString();
    }

    static Stream<Arguments> cases() {
        String w = workload == null ? "w.yaml" : workload.toString();
        return Stream.of(
                Arguments.of(List.of("run", "--workers", "127.0.0.1:99999", w),
                        "kbench: --workers: '127.0.0.1:99999': port 99999 is out of range; allowed: 1 to 65535"),
                Arguments.of(List.of("run", "--workers", "127.0.0.1:7070,127.0.0.1:7070", "--bootstrap-servers", "b:9092", w),
                        "kbench: --workers: 127.0.0.1:7070 is listed twice"),
                Arguments.of(List.of("run", "--bootstrap-servers", "nohost", w),
                        "kbench: --bootstrap-servers: 'nohost' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)"),
                Arguments.of(List.of("run", "--set", "bootstrap.servers=b1:0", w),
                        "kbench: --set bootstrap.servers: bootstrap.servers: 'b1:0': port 0 is out of range; allowed: 1 to 65535"),
                // a refusal never repeats a secret value: the key is named, the value is not
                Arguments.of(List.of("run", "--set", "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                                + "required username=\"u\" password=\"" + SECRET + "\";", w),
                        "kbench: --set sasl.jaas.config: 'sasl.jaas.config' is not a profile key; allowed: replicationFactor, "
                                + "bootstrap.servers, networkGbps, or producer.<property>, consumer.<property>, admin.<property>, "
                                + "topic.<property>, common.<property>"),
                Arguments.of(List.of("run", "--network-gbps", "0", w),
                        "kbench: --network-gbps must be above 0 and at most 1600 Gbit/s, got '0'"),
                Arguments.of(List.of("run", "--network-gbps", "ten", w),
                        "kbench: --network-gbps must be a number of Gbit/s (above 0, at most 1600), got 'ten'"),
                Arguments.of(List.of("run", "--set", "networkGbps=-1", w),
                        "kbench: --set networkGbps: networkGbps must be above 0 and at most 1600 Gbit/s, got '-1'"),
                Arguments.of(List.of("run", "--set", "common.basic.auth.user.info:" + SECRET, w),
                        "kbench: --set '[redacted]': expected KEY=VALUE, e.g. producer.acks=all"),
                Arguments.of(List.of("run", "--set", "producer.key.serializer=" + SECRET, w),
                        "kbench: --set producer.key.serializer: producer.key.serializer is set by kbench"),
                Arguments.of(List.of("run", "SECRETSWEEP"), "SECRETSWEEP:3:3: matrix cannot vary "
                        + "common.ssl.keystore.password: its values would be printed in the sweep's table and written to its "
                        + "files; give a secret once, with --command-config or the profile"),
                Arguments.of(List.of("run", "--workers", "10.0.0.5:7070,10.0.0.6:7070", "--bootstrap-servers", "b:9092", w),
                        "kbench: worker 10.0.0.5:7070 (and 1 more) is not on this host: without TLS the cluster token and "
                                + "the run's profile (passwords included) would cross the network in clear text; use --tls "
                                + "(docs/operations.md), or --insecure to send them anyway"),
                Arguments.of(List.of("producer-perf", "--workers", "client-1:7070", "--bootstrap-server", "b:9092",
                                "--topic", "t", "--num-records", "10", "--record-size", "10", "--throughput", "-1"),
                        "kbench: worker client-1:7070 is not on this host: without TLS the cluster token and the run's "
                                + "profile (passwords included) would cross the network in clear text; use --tls "
                                + "(docs/operations.md), or --insecure to send them anyway"),
                // a malformed result: one line naming file and key, never a stack trace or a page
                Arguments.of(List.of("report", "BADB64"), "kbench: BADB64: histograms.publishLatencyMicros is not a kbench "
                        + "histogram: Illegal base64 character 21"),
                Arguments.of(List.of("report", "BADHISTOGRAM"), "kbench: BADHISTOGRAM: histograms.publishLatencyMicros is not "
                        + "a kbench histogram: not a compressed HdrHistogram (truncated or corrupt: The buffer does not "
                        + "contain a compressed Histogram)"),
                Arguments.of(List.of("report", "NOINTERVALS"), "kbench: NOINTERVALS: intervals is missing (a list of the "
                        + "run's intervals)"),
                Arguments.of(List.of("compare", "GOOD", "BAREINTERVAL", "-o", "PAGEOUT"), "kbench: BAREINTERVAL: intervals[0].publish is missing"),
                Arguments.of(List.of("report", "WORKLOADTEXT"), "kbench: WORKLOADTEXT: workload must be an object, got the "
                        + "string \"not an object\""),
                Arguments.of(List.of("merge", "GOOD", "NEWER"), "kbench: NEWER: written by a newer kbench (result schema 99; "
                        + "this kbench reads up to " + io.kbench.coordinator.report.result.ResultFile.SCHEMA_VERSION + ")"),
                Arguments.of(List.of("compare", "GOOD", "RESULT2", "-o", "PAGEDIR"),
                        "kbench: --output PAGEDIR/report.html: cannot write: a directory is in the way"),
                Arguments.of(List.of("compare", "GOOD", "RESULT2", "-o", "NOTADIR/x.html"),
                        "kbench: --output NOTADIR/x.html: cannot write: its directory does not exist"),
                // text inputs that are not what they claim
                Arguments.of(List.of("run", "--command-config", "JSONPROPS", w), "kbench: --command-config JSONPROPS:1: this "
                        + "looks like JSON, not a .properties file (one KEY=VALUE per line, e.g. security.protocol=SASL_SSL)"),
                Arguments.of(List.of("run", "--producer-config", "LATIN1", w), "kbench: --producer-config LATIN1: not UTF-8 "
                        + "text: byte 0xE9 at line 2 (offset 22); a .properties file is UTF-8 text"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9", "t", "10", "1", "100", "/dev/zero"), "kbench: properties "
                        + "file /dev/zero: more than 1,048,576 bytes (not a regular file, or it grew); at most 1,048,576 "
                        + "allowed (not a .properties file)"),
                Arguments.of(List.of("run", "BINPAYLOAD"), "BINPAYLOAD:2:14: payload file BINARY: not UTF-8 text: byte 0xFF "
                        + "at line 1 (offset 1); a payload file is UTF-8 text (values split at the delimiter), as "
                        + "kafka-producer-perf-test reads it"),
                // the wrong kind of file: one line saying which it is and where it goes
                Arguments.of(List.of("run", "--driver", "REALWORKLOAD", w), "REALWORKLOAD:2:1: this file is a workload, "
                        + "not a profile (its keys topics, partitionsPerTopic, messageSize and 1 more are workload keys); "
                        + "give it as the WORKLOAD argument, and a profile (deployment/kafka/*.yaml) with --driver"),
                // an OMB workload's translation notes come after every check, never before a refusal
                Arguments.of(List.of("run", "--driver", "REALWORKLOAD", "OMBWORKLOAD"), "REALWORKLOAD:2:1: this file is a "
                        + "workload, not a profile (its keys topics, partitionsPerTopic, messageSize and 1 more are workload "
                        + "keys); give it as the WORKLOAD argument, and a profile (deployment/kafka/*.yaml) with --driver"),
                Arguments.of(List.of("run", "REALPROFILE"), "REALPROFILE:2:1: this file is a driver profile, not a workload "
                        + "(its keys driver, replicationFactor, producer are driver profile keys); give it with --driver, "
                        + "and a workload (workloads/*.yaml) as the argument"),
                Arguments.of(List.of("run", "--output", "RESULTSDIR", w), "kbench: --output RESULTSDIR: holds the results "
                        + "of an earlier run (result.json); kbench never writes over them: give a new directory, or move "
                        + "them away first"),
                Arguments.of(List.of("run", "--output", "NOTADIR", w),
                        "kbench: --output NOTADIR: cannot create the directory ("),
                // a client setting Kafka would ignore (a typo) or refuse: refused before the cluster starts
                Arguments.of(List.of("run", "--driver", "TYPOPROFILE", w), "TYPOPROFILE:5:3: producer.linger.m is not a "
                        + "Kafka producer config; did you mean linger.ms?"),
                // a token or TLS flag without workers of the user's: refused, not ignored for in-process workers
                Arguments.of(List.of("run", "--tls", w), "kbench: --tls applies to the workers of --workers or "
                        + "--workers-file; none are given (the run's workers would be in-process, reached without a token "
                        + "or TLS)"),
                Arguments.of(List.of("run", "--token-file", w, w), "kbench: --token-file applies to the workers of "
                        + "--workers or --workers-file; none are given (the run's workers would be in-process, reached "
                        + "without a token or TLS)"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--throughput", "-1", "--bootstrap-server", "127.0.0.1:1", "--insecure"), "kbench: --insecure "
                        + "applies to the workers of --workers or --workers-file; none are given (the run's workers would be "
                        + "in-process, reached without a token or TLS)"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--throughput", "-1", "--bootstrap-server", "127.0.0.1:1", "--producer-props",
                        "max.in.flight.requests.per.connection=6"), "kbench: --producer-props, --producer.config, "
                        + "--command-config: the producer would refuse these settings together: To use the idempotent "
                        + "producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6. "
                        + "(idempotence is on by default: enable.idempotence=false turns it off)"),
                Arguments.of(List.of("e2e-latency", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records",
                        "10", "--record-size", "10", "--producer-acks", "1", "--command-config", "IDEMPROPS"),
                        "kbench: acks 1 with IDEMPROPS's settings: the producer would refuse these settings together: Must "
                                + "set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee "
                                + "idempotence."),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--messages", "10", "--bootstrap-server",
                        "127.0.0.1:1", "--command-property", "group.protocol=consumer", "--command-property",
                        "partition.assignment.strategy=org.apache.kafka.clients.consumer.RoundRobinAssignor"),
                        "kbench: --consumer.config, --command-property, --command-config: the consumer would refuse these "
                                + "settings together: partition.assignment.strategy cannot be set when group.protocol=CONSUMER"),
                // an escape sequence in a flag's text is written out, never sent to the terminal
                Arguments.of(List.of("run", "--set", "producer.acks=al\u001b[2J", w), "kbench: --set producer.acks: Invalid "
                        + "value al\\u001b[2J for configuration acks: String must be one of: all, -1, 0, 1"),
                Arguments.of(List.of("run", "--set", "producer.acks=al", w), "kbench: --set producer.acks: Invalid value al "
                        + "for configuration acks: String must be one of: all, -1, 0, 1"),
                // a file's text is shown cut: a 5,000-digit number makes no 5,000-character line
                Arguments.of(List.of("run", "HUGEVALUE"), "HUGEVALUE:2:15: producerRate must be a whole number (-1 for "
                        + "unthrottled, or 1 to 1000000000 msg/s), got '" + "9".repeat(120) + "... (5000 characters)'"),
                // a flag's value too (found by a sweep of every flag of every command x 17 values)
                Arguments.of(List.of("run", "--duration", "x".repeat(5000), w), "kbench: Invalid value for option "
                        + "'--duration': '" + "x".repeat(119) + "... (5001 characters)' is not a whole number of seconds: "
                        + "give seconds (90) or a number with s, m or h (90s, 5m, 1h) (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--command-config", "/tmp/" + "x".repeat(5000), w), "kbench: --command-config /tmp/"
                        + "x".repeat(115) + "... (5005 characters): cannot read it: /tmp/" + "x".repeat(115)
                        + "... (5005 characters): File name too long"),
                // a worker id names the worker in every line, table, file and label: one printable word
                Arguments.of(List.of("worker", "--port", "17999", "--bind", "127.0.0.1", "--id", ""),
                        "kbench: --id '': an empty id"),
                Arguments.of(List.of("worker", "--port", "17999", "--bind", "127.0.0.1", "--id", "host 1"),
                        "kbench: --id 'host 1': it holds white space (one word, e.g. host-1 or 10.0.0.5:7070)"),
                Arguments.of(List.of("worker", "--port", "17999", "--bind", "127.0.0.1", "--id", "w\u001b[2J"),
                        "kbench: --id 'w\\u001b[2J': it holds a control character (one word of printable characters)"),
                Arguments.of(List.of("worker", "--port", "17999", "--bind", "127.0.0.1", "--id", "w".repeat(261)),
                        "kbench: --id '" + "w".repeat(120) + "... (261 characters)': longer than 260 characters (261)"),
                // the brokers' address is checked before their storage is formatted
                Arguments.of(List.of("broker", "--port", "0", "--host", "nohost.invalid"), "kbench: --host nohost.invalid: "
                        + "no such host name or address (give an address of this host, e.g. 127.0.0.1)"),
                Arguments.of(List.of("broker", "--port", "0", "--host", "192.0.2.1"), "kbench: --host 192.0.2.1: 192.0.2.1 "
                        + "is not an address of this host's interfaces (e.g. 127.0.0.1)"),
                Arguments.of(List.of("broker", "--port", "0", "--host", "0.0.0.0"), "kbench: --host 0.0.0.0: the brokers "
                        + "give this address to their clients, who cannot connect to every interface; give one address of "
                        + "this host (e.g. 127.0.0.1)"),
                Arguments.of(List.of("worker", "--port", "17999", "--bind", "192.0.2.1"), "kbench: --bind 192.0.2.1: 192.0.2.1 "
                        + "is not an address of this host's interfaces (e.g. 127.0.0.1, or 0.0.0.0 for all of them)"),
                Arguments.of(List.of("serve", "--port", "0", "--bind", "nohost.invalid", "RESULTSDIR"), "kbench: --bind "
                        + "nohost.invalid: no such host name or address (give an address of this host, e.g. 127.0.0.1)"),
                Arguments.of(List.of("run", "--dashboard", "192.0.2.1:18080", w), "kbench: --dashboard 192.0.2.1: 192.0.2.1 "
                        + "is not an address of this host's interfaces (e.g. 127.0.0.1, or 0.0.0.0 for all of them)"),
                Arguments.of(List.of("run", "--workers-file", "TWICEFILE", w), "kbench: --workers-file TWICEFILE: "
                        + "127.0.0.1:7070 is listed twice"),
                Arguments.of(List.of("run", "TYPOSWEEP"), "TYPOSWEEP:3:23: matrix: producer.linger.m is not a Kafka "
                        + "producer config; did you mean linger.ms?"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--throughput", "-1", "--producer-props", "linger.m=5", "--bootstrap-server", "127.0.0.1:1"),
                        "kbench: --producer-props linger.m: producer.linger.m is not a Kafka producer config; did you mean "
                                + "linger.ms?"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--messages", "10", "--bootstrap-server",
                        "127.0.0.1:1", "--command-property", "max.poll.records=many"), "kbench: --command-property "
                        + "max.poll.records: Invalid value many for configuration max.poll.records: Not a number of type INT"),
                // a topic setting, as the brokers would check it when creating the topics: before anything starts
                Arguments.of(List.of("run", "TOPICSWEEP"), "TOPICSWEEP:3:31: matrix: topic.retention.ms: Invalid value 7d "
                        + "for configuration retention.ms: Not a number of type LONG"),
                Arguments.of(List.of("run", "--set", "topic.min.insync.replica=2", w), "kbench: --set topic.min.insync.replica: "
                        + "topic.min.insync.replica is not a Kafka topic config; did you mean min.insync.replicas?"),
                // a name Kafka does not define: another cluster may, the embedded one refuses it
                Arguments.of(List.of("run", "--driver", "VENDORTOPIC", w), "kbench: VENDORTOPIC: topic.confluent.tier.enable "
                        + "is not a topic config of the embedded cluster's Kafka, whose brokers would refuse it when creating "
                        + "the topics; remove it, or run against a cluster that defines it (--bootstrap-servers)"),
                Arguments.of(List.of("run", "--set", "producer.acks=all", "SWEEP"), "kbench: --set producer.acks: the "
                        + "workload's matrix varies this key (SWEEP:3:19), and each combination's value would replace it; "
                        + "give the value there, or remove the key from the matrix"),
                Arguments.of(List.of("run", "INFLIGHTMATRIX"), "kbench: INFLIGHTMATRIX:4:55: matrix: "
                        + "producer.max.in.flight.requests.per.connection=10: the producer would refuse these settings "
                        + "together: To use the idempotent producer, max.in.flight.requests.per.connection must be set to "
                        + "at most 5. Current value is 10. (idempotence is on by default: enable.idempotence=false "
                        + "turns it off)"),
                // records the producer would refuse for their size (every send would fail): before anything starts
                Arguments.of(List.of("run", "MIBVALUES"), "kbench: MIBVALUES:2:14: the producer would refuse every record: "
                        + "1,048,664 bytes as it sizes one (value, key, headers and Kafka's batch header), above its "
                        + "max.request.size of 1,048,576 (Kafka's default); set producer.max.request.size to at least "
                        + "1,048,664, and the topics' max.message.bytes (the brokers' message.max.bytes) to take it"),
                // at the value that sizes the refused combination's records
                Arguments.of(List.of("run", "RECORDSWEEP"), "kbench: RECORDSWEEP:3:23: matrix: the combination "
                        + "messageSize=1048576, producer.max.request.size=1048576: the producer would refuse every record: "
                        + "1,048,664 bytes as it sizes one (value, key, headers and Kafka's batch header), above its "
                        + "max.request.size of 1,048,576; set producer.max.request.size to at least 1,048,664, and the "
                        + "topics' max.message.bytes (the brokers' message.max.bytes) to take it"),
                Arguments.of(List.of("run", "--set", "producer.buffer.memory=1000", w), "kbench: Kafka's client defaults "
                        + "with --set: the producer would refuse every record: 1,110 bytes as it sizes one (value, key, "
                        + "headers and Kafka's batch header), above its buffer.memory of 1,000; set producer.buffer.memory "
                        + "to at least 1,110"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "2000000",
                        "--throughput", "-1", "--bootstrap-server", "127.0.0.1:1"), "kbench: --record-size 2000000: the "
                        + "producer would refuse every record: 2,000,088 bytes as it sizes one (value, key, headers and "
                        + "Kafka's batch header), above its max.request.size of 1,048,576 (Kafka's default); set "
                        + "producer.max.request.size to at least 2,000,088, and the topics' max.message.bytes (the brokers' "
                        + "message.max.bytes) to take it"),
                Arguments.of(List.of("e2e-latency", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records",
                        "10", "--record-size", "1048576", "--producer-acks", "1"), "kbench: message size 1048576: the "
                        + "producer would refuse every record: 1,048,664 bytes as it sizes one (value, key, headers and "
                        + "Kafka's batch header), above its max.request.size of 1,048,576 (Kafka's default); set "
                        + "producer.max.request.size to at least 1,048,664, and the topics' max.message.bytes (the brokers' "
                        + "message.max.bytes) to take it"),
                Arguments.of(List.of("run", "--set", "producer.max.in.flight.requests.per.connection=6", w),
                        "kbench: Kafka's client defaults with --set: the producer would refuse these settings together: To "
                                + "use the idempotent producer, max.in.flight.requests.per.connection must be set to at most "
                                + "5. Current value is 6. (idempotence is on by default: enable.idempotence=false turns "
                                + "it off)"),
                Arguments.of(List.of("run", "--driver", "IDEMPROFILE", w), "kbench: IDEMPROFILE: the producer would refuse "
                        + "these settings together: Must set acks to all in order to use the idempotent producer. Otherwise "
                        + "we cannot guarantee idempotence."),
                Arguments.of(List.of("validate", "IDEMPROFILE"), "IDEMPROFILE: the producer would refuse these settings "
                        + "together: Must set acks to all in order to use the idempotent producer. Otherwise we cannot "
                        + "guarantee idempotence."),
                Arguments.of(List.of("validate", "TYPOSWEEP"), "TYPOSWEEP:3:23: matrix: producer.linger.m is not a Kafka producer "
                        + "config; did you mean linger.ms?"),
                Arguments.of(List.of("validate", "TYPOPROFILE"), "TYPOPROFILE:5:3: producer.linger.m is not a Kafka producer "
                        + "config; did you mean linger.ms?"),
                // an empty path given for a file: said so, not ":1:1: is a directory"
                Arguments.of(List.of("run", "--driver", "", w), "'':1:1: an empty path; give a file"),
                Arguments.of(List.of("run", ""), "'':1:1: an empty path; give a file"),
                Arguments.of(List.of("run", "--workers-file", "", w), "kbench: --workers-file: an empty path; give a file "
                        + "with one HOST:PORT per line"),
                Arguments.of(List.of("run", "--command-config", "", w), "kbench: --command-config: an empty path; give a file"),
                Arguments.of(List.of("report", ""), "kbench: '': an empty path; give a result.json or the directory that "
                        + "holds it"),
                Arguments.of(List.of("run", "--token-file", "", "--workers", "127.0.0.1:1", w),
                        "kbench: cannot read token file '': an empty path; give a file"),
                // an unset variable or an empty list: never every interface, never the embedded default by accident
                Arguments.of(List.of("worker", "--bind", "", "--port", "7199"), "kbench: --bind must be an address, e.g. "
                        + "0.0.0.0 (every interface) or 127.0.0.1 (this host only)"),
                Arguments.of(List.of("broker", "--host", " "), "kbench: --host must be an address to listen on and advertise, "
                        + "e.g. 127.0.0.1"),
                Arguments.of(List.of("broker", "--port", "70000"), "kbench: --port must be 0 (any free port) to 65535, got 70000"),
                Arguments.of(List.of("run", "--workers", ",,", w), "kbench: --workers: an address cannot be empty; expected "
                        + "HOST:PORT"),
                Arguments.of(List.of("run", "--bootstrap-servers", "127.0.0.1:1", "--broker-jmx", ",", w), "kbench: "
                        + "--broker-jmx: an empty address (give HOST:PORT of a broker's JMX port)"),
                // an unset variable (--output "$OUT"): never the working directory
                Arguments.of(List.of("run", "--output", "", w), "kbench: --output: an empty path; give the directory to "
                        + "write to (e.g. results/run-1, or . for this one)"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--throughput", "-1", "--output", " ", "--bootstrap-server", "127.0.0.1:1"),
                        "kbench: --output: an empty path; give the directory to write to (e.g. results/run-1, or . for this one)"),
                Arguments.of(List.of("report", "-o", "", "RESULT"), "kbench: --output: an empty path; give the file or "
                        + "directory to write the page to (e.g. report.html, or . for this directory)"),
                Arguments.of(List.of("compare", "RESULT", "RESULT2", "-o", ""), "kbench: --output: an empty path; give the "
                        + "file or directory to write the page to (e.g. report.html, or . for this directory)"),
                Arguments.of(List.of("run", "--brokers", "3", "FAULTS"),
                        "kbench: workload faults: fault 'stop broker 4 at 5 s' names broker 4, but the embedded cluster has 3 (start more with --brokers N)"),
                Arguments.of(List.of("run", "--broker-processes", "--bootstrap-servers", "b:9092", w),
                        "kbench: --broker-processes runs the embedded cluster's nodes in JVMs of their own; it cannot be "
                        + "used with a cluster given by --bootstrap-servers or bootstrap.servers"),
                Arguments.of(List.of("run", "--broker-processes=maybe", w),
                        "kbench: Invalid value for option '--broker-processes': 'maybe' is not a boolean (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--producer-config", "SERIALIZER", w),
                        "kbench: --producer-config SERIALIZER: producer.key.serializer is set by kbench"),
                Arguments.of(List.of("run", "--command-config", "GROUP", w),
                        "kbench: --command-config GROUP: common.group.id is set by kbench"),
                Arguments.of(List.of("run", "--dashboard", "99999", w),
                        "kbench: --dashboard: '127.0.0.1:99999': port 99999 is out of range; allowed: 1 to 65535"),
                Arguments.of(List.of("run", "--dashboard", "local host:80", w),
                        "kbench: --dashboard: 'local host:80' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)"),
                Arguments.of(List.of("run", "--dashboard", "8080", "--dashboard-keep", "-5", w),
                        "kbench: --dashboard-keep must be -1 (until Ctrl-C), 0 or a number of seconds, got -5"),
                // the embedded cluster listens in PLAINTEXT: the client failed in prepare (JAAS), after the cluster started
                Arguments.of(List.of("run", "--set", "common.security.protocol=SASL_SSL", w),
                        "kbench: --set: common.security.protocol SASL_SSL: the embedded cluster kbench starts listens in "
                                + "PLAINTEXT only; give a cluster that takes SASL_SSL (--bootstrap-servers), or leave "
                                + "security.protocol out"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--throughput", "-1", "--producer-props", "security.protocol=SSL"),
                        "kbench: --producer-props security.protocol: producer.security.protocol SSL: the embedded cluster "
                                + "kbench starts listens in PLAINTEXT only; give a cluster that takes SSL "
                                + "(--bootstrap-servers), or leave security.protocol out"),
                Arguments.of(List.of("e2e-latency", "--topic", "t", "--num-records", "10", "--record-size", "10",
                        "--producer-acks", "1", "--command-config", "SASLPROPS"),
                        "kbench: properties file SASLPROPS: common.security.protocol SASL_SSL: the embedded cluster "
                                + "kbench starts listens in PLAINTEXT only; give a cluster that takes SASL_SSL "
                                + "(--bootstrap-servers), or leave security.protocol out"),
                // without a dashboard it was ignored: the run started (an embedded broker and all)
                Arguments.of(List.of("run", "--dashboard-keep", "300", w),
                        "kbench: --dashboard-keep applies only with --dashboard (how long the dashboard serves the final report)"),
                Arguments.of(List.of("run", "--interval", "0", w),
                        "kbench: --interval must be 1 to 60 seconds, got 0"),
                Arguments.of(List.of("run", "--workers", "127.0.0.1:7070", "--bootstrap-servers", "b:9092", "--tls",
                        "--tls-ca", "MISSING", w), "kbench: --tls-ca MISSING: file not found"),
                Arguments.of(List.of("run", "--bogus", w),
                        "kbench: unknown option '--bogus' (see 'kbench run --help')"),
                Arguments.of(List.of("--bogus"), "kbench: unknown option '--bogus' (see 'kbench --help')"),
                // typos: the nearest name (edit distance), and only the first unknown word
                Arguments.of(List.of("rnu", "w.yaml"), "kbench: unknown command 'rnu'; did you mean run? (see 'kbench --help')"),
                Arguments.of(List.of("worker", "--prot", "7070"),
                        "kbench: unknown option '--prot'; did you mean --port? (see 'kbench worker --help')"),
                Arguments.of(List.of("run", "--bootsrap-servers=b:9092", "w.yaml"),
                        "kbench: unknown option '--bootsrap-servers'; did you mean --bootstrap-servers? (see 'kbench run --help')"),
                Arguments.of(List.of("run", w, "extra.yaml"),
                        "kbench: unexpected argument 'extra.yaml' (see 'kbench run --help')"),
                Arguments.of(List.of("zzzzzz"), "kbench: unknown command 'zzzzzz' (see 'kbench --help')"),
                Arguments.of(List.of("--", "run", w), "kbench: 'run' after '--' is an argument, not a command; give the "
                        + "command first ('kbench run ...') (see 'kbench --help')"),
                Arguments.of(List.of(""), "kbench: unknown command '' (see 'kbench --help')"),
                Arguments.of(List.of("producer-perf", "--topic", "a b", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10"), "kbench: --topic: 'a b' is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -)"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--partitions", "-3"), "kbench: --partitions must be 1 to 100000, got -3"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--transaction-duration-ms", "-5"),
                        "kbench: --transaction-duration-ms must be 0 to 900000 (the broker's transaction.max.timeout.ms), got -5"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--transactional-id", " "), "kbench: --transactional-id cannot be empty"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "-1", "--throughput", "1",
                        "--record-size", "10"), "kbench: --num-records must be 1 to 1000000000000, got -1"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--payload-file", "MISSING"), "kbench: --payload-file MISSING: file not found"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--bootstrap-server", "b:70000"),
                        "kbench: --bootstrap-server: 'b:70000': port 70000 is out of range; allowed: 1 to 65535"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--messages", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--fetch-size", "-5"), "kbench: --fetch-size must be at least 1 byte, got -5"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--warmup-records", "10"),
                        "kbench: --warmup-records must be 0 to --num-records - 1 (9): the warm-up is part of the run, got 10"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--warmup-records", "-1"),
                        "kbench: --warmup-records must be 0 to --num-records - 1 (9): the warm-up is part of the run, got -1"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--payload-monotonic"),
                        "kbench: give exactly one of --record-size, --payload-file or --payload-monotonic"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--timeout", "0"), "kbench: --timeout must be 1 to 86400000 ms, got 0"),
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "1000", "--throughput", "-1",
                        "--record-size", "10", "--producers", "101", "--print-metrics"),
                        "kbench: --print-metrics prints one block per producer: at most 100 producers with it, got 101"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--consumers", "101", "--print-metrics"),
                        "kbench: --print-metrics prints one block per consumer: at most 100 consumers with it, got 101"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--show-detailed-stats", "--reporting-interval", "1500"),
                        "kbench: --reporting-interval must be whole seconds in ms (1000, 2000 ... 3600000), got 1500"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--group", ""), "kbench: --group cannot be empty"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--include", "t.*"), "kbench: give exactly one of --topic or --include"),
                Arguments.of(List.of("consumer-perf", "--include", "", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: --include cannot be empty: give a regex of topic names (e.g. 'orders-.*')"),
                Arguments.of(List.of("consumer-perf", "--num-records", "10", "--bootstrap-server", "127.0.0.1:9092"),
                        "kbench: give exactly one of --topic or --include"),
                Arguments.of(List.of("consumer-perf", "--include", "t".repeat(10_001), "--num-records", "10",
                        "--bootstrap-server", "127.0.0.1:9092"), "kbench: --include is 10001 characters long; at most 10000 "
                        + "(a worker matches it against every topic name)"),
                Arguments.of(List.of("consumer-perf", "--include", "t[", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: --include 't[' is not a Java regex: Unclosed character class near index 1"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "100", "0", "10"),
                        "kbench: producer acks must be 1 or all (latency is measured with synchronous acknowledgement), got '0'"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "0", "1", "10"),
                        "kbench: the number of records must be 1 to 100000000, got 0"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "ten", "1", "10"),
                        "kbench: NUM_MESSAGES must be a whole number, got 'ten'"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "10", "1", "-1"),
                        "kbench: the record size must be 0 to 104857600 bytes, got -1"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "10", "1"),
                        "kbench: expected 5 or 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE]), got 4"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "10", "1", "10", "MISSING"),
                        "kbench: properties file MISSING: file not found"),
                Arguments.of(List.of("e2e-latency", "--bootstrap-server", "127.0.0.1:9092", "--topic", "t"),
                        "kbench: missing --num-records, --producer-acks, --record-size (or give BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE])"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:9092", "t", "10", "1", "10", "--topic", "u"),
                        "kbench: give the arguments either as BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE] or as named options (--bootstrap-server ...), not both"),
                Arguments.of(List.of("e2e-latency", "127.0.0.1:1", "t", "10", "1", "10", "a", "b"),
                        "kbench: expected at most 6 arguments (BROKERS TOPIC NUM_MESSAGES ACKS MESSAGE_SIZE [PROPERTIES_FILE]), got 7"),
                Arguments.of(List.of("consumer-perf", "--topic", "..", "--messages", "10", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: --topic: '..' is not a valid Kafka topic name ('.' and '..' are reserved)"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--threads", "0"), "kbench: --threads must be 1 to 10000, got 0"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--threads", "-3"), "kbench: --threads must be 1 to 10000, got -3"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "0", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: --num-records must be 1 to 1000000000000, got 0"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--timeout", "-1"), "kbench: --timeout must be 1 to 86400000 ms, got -1"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--show-detailed-stats", "--reporting-interval", "0"),
                        "kbench: --reporting-interval must be whole seconds in ms (1000, 2000 ... 3600000), got 0"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--group", " "), "kbench: --group cannot be empty"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "a b", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: --topic: 'a b' is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -)"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--fetch-size", "0"), "kbench: --fetch-size must be at least 1 byte, got 0"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--socket-buffer-size", "0"),
                        "kbench: --socket-buffer-size must be -1 (the OS default) or at least 1 byte, got 0"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--threads", "101", "--print-metrics"),
                        "kbench: --print-metrics prints one block per share consumer: at most 100 consumers with it, got 101"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--date-format", "yyyy-MM-dd {"), "kbench: --date-format 'yyyy-MM-dd {': Pattern includes reserved character: '{'"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "127.0.0.1:9092", "--command-config", "MISSING"), "kbench: --command-config MISSING: file not found"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "ten", "--bootstrap-server",
                        "127.0.0.1:9092"), "kbench: Invalid value for option '--num-records': 'ten' is not a long (see 'kbench share-consumer-perf --help')"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10"),
                        "kbench: missing --bootstrap-server HOST:PORT,... (the Kafka cluster to read)"),
                Arguments.of(List.of("merge", "RESULT", "RESULT"), "kbench: RESULT: given twice; each result may be merged once"),
                // an unknown option after the results: named, not picocli's count of the words after it
                Arguments.of(List.of("merge", "RESULT", "RESULT2", "--outptu", "x"),
                        "kbench: unknown option '--outptu'; did you mean --output? (see 'kbench merge --help')"),
                Arguments.of(List.of("compare", "RESULT"), "kbench: SIDE: at least 2 needed, 1 given (RESULT) (see 'kbench compare --help')"),
                Arguments.of(List.of("run", "--dashboard-keep", "-1", "--dashbord", "8080", w),
                        "kbench: unknown option '--dashbord'; did you mean --dashboard? (see 'kbench run --help')"),
                Arguments.of(List.of("merge", "--output", "NOTADIR", "RESULT", "MISSING"), "kbench: MISSING: file not found"),
                Arguments.of(List.of("merge", "--output", "NOTADIR", "RESULT", "RESULT2"),
                        "kbench: --output NOTADIR: cannot create the directory ("),
                Arguments.of(List.of("worker", "--bind", "127.0.0.1", "--port", "7171", "--metrics-port", "0"),
                        "kbench: --metrics-port must be 1 to 65535 and differ from --port (7171), got 0"),
                Arguments.of(List.of("worker", "--bind", "127.0.0.1", "--port", "7171", "--metrics-port", "7171"),
                        "kbench: --metrics-port must be 1 to 65535 and differ from --port (7171), got 7171"),
                Arguments.of(List.of("run", "--duration", "0", w), "kbench: --duration must be 1 to 604800 seconds, got 0"),
                Arguments.of(List.of("run", "--warmup", "-1", w), "kbench: --warmup must be 0 to 86400 seconds, got -1"),
                Arguments.of(List.of("run", "--duration", "8d", w), "kbench: Invalid value for option '--duration': "
                        + "'8d' is not a whole number of seconds: give seconds (90) or a number with s, m or h (90s, 5m, "
                        + "1h) (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--duration", "1.5m", w), "kbench: Invalid value for option '--duration': "
                        + "'1.5m' is not a whole number of seconds: give seconds (90) or a number with s, m or h (90s, "
                        + "5m, 1h) (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--duration", "", w), "kbench: Invalid value for option '--duration': "
                        + "'' is not a whole number of seconds: give seconds (90) or a number with s, m or h (90s, 5m, "
                        + "1h) (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--duration", "169h", w), "kbench: --duration must be 1 to 604800 seconds, got 608400"),
                Arguments.of(List.of("run", "--duration", "99999999999999999999h", w), "kbench: Invalid value for "
                        + "option '--duration': '99999999999999999999h' is too many seconds (see 'kbench run --help')"),
                Arguments.of(List.of("run", "--warmup", "25h", w), "kbench: --warmup must be 0 to 86400 seconds, got 90000"),
                Arguments.of(List.of("run", "--interval", "2m", w), "kbench: --interval must be 1 to 60 seconds, got 120"),
                Arguments.of(List.of("run", "--prime", "5", w), "kbench: --prime applies to a sweep (a workload with a "
                        + "matrix); this workload has none"),
                Arguments.of(List.of("run", "--prime", "2h", "SWEEP"), "kbench: --prime must be 0 to 3600 seconds, got 7200"),
                Arguments.of(List.of("run", "--prime", "-1", "SWEEP"), "kbench: --prime must be 0 to 3600 seconds, got -1"),
                Arguments.of(List.of("run", "--duration", "5", "RECORDS"),
                        "kbench: --duration applies to timed workloads; this one sends numRecords"),
                Arguments.of(List.of("run", "--slo", "endToEnd.p99<=5ms", w),
                        "kbench: --slo applies only with --find-max-rate"),
                Arguments.of(List.of("run", "--max-trials", "5", w), "kbench: --max-trials applies only with --find-max-rate"),
                Arguments.of(List.of("run", "--find-max-rate", "--slo", "endToEnd.p99 < 5", w),
                        "kbench: --slo 'endToEnd.p99 < 5': give the limit's unit (ms, us or s); e.g. "
                                + "'publishResponse.p99<=50ms', 'endToEnd.p99.9<=200ms'"),
                Arguments.of(List.of("run", "--find-max-rate", "--slo", "e2e.p99<=5ms", w),
                        "kbench: --slo 'e2e.p99<=5ms': unknown metric 'e2e'; allowed: endToEnd, publishDelay, "
                                + "publishLatency, publishResponse, transactionCommit"),
                Arguments.of(List.of("run", "--find-max-rate", "--slo", "endToEnd.p99<=5ms", "--slo", "endToEnd.p99<=9ms", w),
                        "kbench: --slo 'endToEnd.p99<=9ms': an objective on endToEnd.p99 is given twice; keep one"),
                Arguments.of(List.of("run", "--find-max-rate", "--precision", "0", w),
                        "kbench: --precision must be a percentage from 0.1 to 50 (e.g. 2 or 2%), got '0'"),
                Arguments.of(List.of("run", "--find-max-rate", "--precision", "two", w),
                        "kbench: --precision must be a percentage from 0.1 to 50 (e.g. 2 or 2%), got 'two'"),
                Arguments.of(List.of("run", "--find-max-rate", "--max-trials", "1", w),
                        "kbench: --max-trials must be 2 to 100, got 1"),
                Arguments.of(List.of("run", "--output", "RESULTSDIR/sweep-primed", "SWEEP"), "kbench: --output "
                        + "RESULTSDIR/sweep-primed/00-priming: RESULTSDIR/sweep-primed/00-priming exists and is not a directory"),
                Arguments.of(List.of("run", "--output", "RESULTSDIR/sweep-ran", "--prime", "0", "SWEEP"), "kbench: --output "
                        + "RESULTSDIR/sweep-ran/02-producer.acks=all: holds the results of an earlier run (result.json); "
                        + "kbench never writes over them: give a new directory, or move them away first"),
                Arguments.of(List.of("run", "--output", "RESULTSDIR/search-ran", "--find-max-rate", w), "kbench: "
                        + "--output RESULTSDIR/search-ran: holds 03-12500 of an earlier sweep or search; kbench never writes "
                        + "over it: give a new directory, or move it away first"),
                Arguments.of(List.of("run", "--find-max-rate", "SWEEP"), "kbench: --find-max-rate searches one workload; "
                        + "this one has a matrix (run the search per combination with one workload file each)"),
                Arguments.of(List.of("run", "--find-max-rate", "RECORDS"), "kbench: --find-max-rate needs a timed workload "
                        + "(durationSeconds): every trial runs the same length; this one sends numRecords"),
                Arguments.of(List.of("run", "--find-max-rate", "--slo", "endToEnd.p99<=5ms", "NOCONSUMERS"),
                        "kbench: --slo 'endToEnd.p99<=5ms': end-to-end latency needs consumers; this workload has none"),
                Arguments.of(List.of("run", "--workers-file", "WORKERSFILE", w),
                        "kbench: WORKERSFILE:3: 'client-2' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)"),
                Arguments.of(List.of("run", "--workers-file", "NOWORKERS", w), "kbench: --workers-file NOWORKERS: lists no "
                        + "worker; expected one HOST:PORT (or dns:///NAME:PORT) per line, # for comments"),
                // the perf-tool commands take the same worker options as run
                Arguments.of(List.of("producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "1",
                        "--record-size", "10", "--workers-file", "WORKERSFILE"),
                        "kbench: WORKERSFILE:3: 'client-2' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)"),
                Arguments.of(List.of("consumer-perf", "--topic", "t", "--messages", "10", "--bootstrap-server", "b:9092",
                        "--workers", "w1:7070", "--min-workers", "2"),
                        "kbench: --min-workers 2 needs --wait DURATION (how long to wait for them)"),
                Arguments.of(List.of("share-consumer-perf", "--topic", "t", "--num-records", "10", "--bootstrap-server",
                        "b:9092", "--wait", "5s"),
                        "kbench: --wait waits for the workers of --workers or --workers-file; none are given"),
                Arguments.of(List.of("run", "--workers", "dns://10.0.0.53/kbench-workers:7070", w), "kbench: --workers: "
                        + "'dns://10.0.0.53/kbench-workers:7070': a DNS server cannot be named; use dns:///NAME:PORT (the "
                        + "system's resolver)"),
                Arguments.of(List.of("run"), "kbench: give a WORKLOAD file, or --repeat and a run's result.json"),
                Arguments.of(List.of("run", "--repeat", "RESULT", w), "kbench: give a WORKLOAD file or --repeat, not both"),
                Arguments.of(List.of("run", "--repeat", "MISSING"), "kbench: MISSING: file not found"),
                Arguments.of(List.of("run", "--repeat", "RESULT"),
                        "kbench: RESULT: not a kbench run result (no workload and profile objects to repeat)"),
                Arguments.of(List.of("run", "--repeat", "MERGED"),
                        "kbench: MERGED: a merged result has no single run to repeat; repeat one of the results it merged"),
                Arguments.of(List.of("run", "--repeat", "REDACTED"), "kbench: REDACTED: the result redacted "
                        + "common.sasl.jaas.config; give it again with --command-config FILE or --set KEY=VALUE (or the whole "
                        + "profile with --driver)"),
                Arguments.of(List.of("run", "--repeat", "TAMPERED"), "kbench: TAMPERED: its workload is not valid for this "
                        + "kbench: durationSeconds is -5; allowed: 1 to 604800"),
                Arguments.of(List.of("report", "MISSING"), "kbench: MISSING: file not found"),
                Arguments.of(List.of("report", "RESULT", "RESULT"), "kbench: RESULT: given twice"),
                Arguments.of(List.of("report", "RESULT"), "kbench: RESULT: summary.sent is missing"),
                Arguments.of(List.of("report", "MERGED"),
                        "kbench: MERGED: a merged result has no intervals to chart; give the results it merged"),
                Arguments.of(List.of("compare", "GOOD", "MERGED", "-o", "PAGEOUT"),
                        "kbench: MERGED: a merged result has no intervals to chart; give the results it merged"),
                Arguments.of(List.of("merge", "MERGED", "RESULT"),
                        "kbench: MERGED: a merged result (kbench merge); give the results it merged"),
                Arguments.of(List.of("compare", "--fail-if", "publishRate <= 5", "RESULT", "RESULT2"),
                        "kbench: --fail-if 'publishRate <= 5': not FIGURE OP LIMIT; e.g. 'publishRate < -10%', 'endToEnd.p99 > 50ms', "
                                + "'publishResponse.p99 > +5%' (OP is < or >)"),
                Arguments.of(List.of("compare", "--fail-if", "endToEnd.p99 > 50", "RESULT", "MISSING"),
                        "kbench: --fail-if 'endToEnd.p99 > 50': endToEnd.p99 is a time: give a unit (ms, us, s) or a percentage"),
                Arguments.of(List.of("compare", "RESULT", "MISSING"), "kbench: MISSING: file not found"),
                Arguments.of(List.of("compare", "RESULT", "RESULT2,RESULT"), "kbench: RESULT: given twice"),
                Arguments.of(List.of("compare", "RESULT", "RESULT2,"),
                        "kbench: 'RESULT2,': an empty result name; join repeats with ',' and nothing else"),
                Arguments.of(List.of("report", "-o", "NOTADIR/r.html", "RESULT"),
                        "kbench: --output NOTADIR/r.html: cannot write: its directory does not exist"),
                Arguments.of(List.of("serve", "MISSING"), "kbench: MISSING: no such directory"),
                Arguments.of(List.of("serve", ""), "kbench: DIR is empty: give the directory that holds the runs"),
                Arguments.of(List.of("serve", "RESULT"),
                        "kbench: RESULT: not a directory (give the directory that holds the runs)"),
                Arguments.of(List.of("serve", "--port", "-1", "RESULTSDIR"), "kbench: --port must be 0 to 65535, got -1"),
                Arguments.of(List.of("serve", "--port", "70000", "RESULTSDIR"), "kbench: --port must be 0 to 65535, got 70000"),
                Arguments.of(List.of("serve", "--port", "http", "RESULTSDIR"), "kbench: Invalid value for option '--port': "
                        + "'http' is not an int (see 'kbench serve --help')"),
                Arguments.of(List.of("serve", "--bind", " ", "RESULTSDIR"),
                        "kbench: --bind must be an address, e.g. 127.0.0.1 or 0.0.0.0"),
                Arguments.of(List.of("serve", "RESULTSDIR", "RESULTSDIR"), "kbench: unexpected argument 'RESULTSDIR' (see 'kbench serve --help')"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldRefuseWithOneLineAndExitCode2BeforeStartingAnything(List<String> args, String expected) throws IOException {
        Files.copy(result, dir.resolve("result2.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<String> resolved = new ArrayList<>();
        for (String a : args) {
            resolved.add(resolve(a));
        }
        String want = resolve(expected);
        java.io.PrintStream savedOut = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        InProcessRun.Outcome o;
        long start = System.nanoTime();
        try {
            System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
            o = InProcessRun.execute(resolved.toArray(new String[0]));
        } finally {
            System.setOut(savedOut);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String stderr = o.stderr().strip();
        assertEquals(2, o.exitCode(), stderr);
        assertEquals(1, stderr.lines().count(), "exactly one line: " + stderr);
        assertTrue(want.endsWith("(") ? stderr.startsWith(want) : stderr.equals(want), "got: " + stderr);
        assertFalse(stderr.contains("Exception") || stderr.contains("\tat "), stderr);
        assertFalse(stderr.contains(SECRET) || out.toString(StandardCharsets.UTF_8).contains(SECRET), "a secret shown: " + stderr);
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("starting an embedded"), "nothing may be started");
        assertTrue(seconds < 10, "refused after " + seconds + " s: nothing may be contacted");
    }

    /**
     * A search or a sweep whose cluster does not answer ends as a run does: one line, exit 3, no directory left
     * (they went on through every trial or combination, each refused, and ended with exit 1 and a table of REFUSED).
     */
    @org.junit.jupiter.api.Test
    void shouldEndASearchOrASweepAsARunWhenTheClusterDoesNotAnswer() throws IOException {
        Path sweep = write("unreachable-sweep.yaml", "durationSeconds: 2\nmatrix:\n  messageSize: [100, 200]\n");
        List<List<String>> commands = List.of(
                List.of("run", "--find-max-rate", "--output", at("no-search"), "--bootstrap-servers", "127.0.0.1:1",
                        workload.toString()),
                List.of("run", "--output", at("no-sweep"), "--bootstrap-servers", "127.0.0.1:1", sweep.toString()),
                List.of("run", "--prime", "0", "--output", at("no-sweep"), "--bootstrap-servers", "127.0.0.1:1",
                        sweep.toString()));
        for (List<String> c : commands) {
            InProcessRun.Outcome o = InProcessRun.execute(c.toArray(new String[0]));
            String stderr = o.stderr().strip();
            assertEquals(3, o.exitCode(), c + ": " + stderr);
            assertEquals(List.of("kbench: worker in-process:local-1 (prepare): cannot reach Kafka at 127.0.0.1:1: "
                    + "connection refused at 127.0.0.1:1"), stderr.lines().toList(), c.toString());
        }
        assertFalse(Files.exists(dir.resolve("no-search")), "the search's directory left behind");
        assertFalse(Files.exists(dir.resolve("no-sweep")), "the sweep's directory left behind");
    }

    /** A directory without a result.json is refused saying what it is: a sweep's, or one whose subdirectories hold runs. */
    @org.junit.jupiter.api.Test
    void shouldSayWhatADirectoryWithoutAResultIs() throws IOException {
        Path sweep = Files.createDirectories(dir.resolve("a-sweep"));
        Files.writeString(sweep.resolve("sweep.json"), "{}");
        for (String combination : List.of("01-batch.size=8192", "02-batch.size=16384", "03-x", "04-y")) {
            Files.copy(result, Files.createDirectories(sweep.resolve(combination)).resolve("result.json"));
        }
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Files.copy(result, Files.createDirectories(runs.resolve("run-1")).resolve("result.json"));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Map<List<String>, String> cases = Map.of(
                List.of("report", sweep.toString()), "kbench: " + sweep + ": a sweep's directory (sweep.json, its page "
                        + "report.html), with no result.json of its own; give the results of its combinations: "
                        + sweep.resolve("01-batch.size=8192") + ", " + sweep.resolve("02-batch.size=16384") + ", "
                        + sweep.resolve("03-x") + ", ...",
                List.of("compare", at("result.json"), runs.toString()), "kbench: " + runs + ": no result.json in this "
                        + "directory; its subdirectories hold results: " + runs.resolve("run-1"),
                List.of("merge", at("result.json"), empty.toString()), "kbench: " + empty + ": no result.json in this "
                        + "directory");
        for (Map.Entry<List<String>, String> c : cases.entrySet()) {
            InProcessRun.Outcome o = InProcessRun.execute(c.getKey().toArray(new String[0]));
            assertEquals(2, o.exitCode(), o.stderr());
            assertEquals(List.of(c.getValue()), o.stderr().strip().lines().toList());
        }
    }

    /** --repeat names the run it repeats: its id is the result file's text, written out on the console. */
    @org.junit.jupiter.api.Test
    void shouldWriteOutTheRepeatedRunsIdFromItsFile() throws IOException {
        variant("hostile-id.json", r -> r.put("runId", "run\u001b[2J\nnext"));
        java.io.PrintStream savedOut = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        InProcessRun.Outcome o;
        try {
            System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
            o = InProcessRun.execute("run", "--repeat", at("hostile-id.json"), "--bootstrap-servers", "127.0.0.1:1",
                    "--output", at("no-repeat"));
        } finally {
            System.setOut(savedOut);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(3, o.exitCode(), o.stderr());
        assertTrue(stdout.contains("repeating run run\\u001b[2J\\nnext of "), stdout);
        assertFalse(stdout.chars().anyMatch(c -> c == 0x1b), "an escape sequence reached the terminal: " + stdout);
    }

    @org.junit.jupiter.api.Test
    void shouldKeepARefusalToThreeLinesWhateverTheNumberOfProblems() {
        InProcessRun.Outcome o = InProcessRun.execute("run", at("many-errors.yaml"));
        List<String> lines = o.stderr().strip().lines().toList();
        assertEquals(2, o.exitCode(), o.stderr());
        assertEquals(3, lines.size(), o.stderr());
        assertTrue(lines.get(0).startsWith(at("many-errors.yaml") + ":1:1: unknown workload key 'a'"), lines.get(0));
        assertEquals("kbench: 3 more problem(s); 'kbench validate " + at("many-errors.yaml") + "' lists them all", lines.get(2));
    }

    /**
     * validate holds a matrix's settings together against Kafka's client defaults, which a profile may change (run
     * checks them with the one it is given): a warning at the value's position, not a refusal.
     */
    @org.junit.jupiter.api.Test
    void shouldWarnOfSettingsTheClientsRefuseTogetherWhenValidatingAWorkloadAlone() {
        InProcessRun.Outcome o = InProcessRun.execute("validate", at("inflight-sweep.yaml"));
        assertEquals(0, o.exitCode(), o.stderr());
        assertTrue(o.stderr().contains("warning: " + at("inflight-sweep.yaml") + ":4:55: matrix: "
                + "producer.max.in.flight.requests.per.connection=10: the producer would refuse these settings together"),
                o.stderr());
        assertTrue(o.stderr().strip().endsWith("— with Kafka's client defaults; kbench run checks the combinations with "
                + "the profile it is given"), o.stderr());
    }

    private static String resolve(String s) {
        return s.replace("INFLIGHTMATRIX", at("inflight-sweep.yaml")).replace("MIBVALUES", at("mib-values.yaml"))
                .replace("RECORDSWEEP", at("record-size-sweep.yaml")).replace("IDEMPROFILE", at("idempotent-profile.yaml"))
                .replace("IDEMPROPS", at("idempotent.properties")).replace("SASLPROPS", at("sasl.properties"))
                .replace("OMBWORKLOAD", at("omb-workload.yaml")).replace("REALWORKLOAD", at("real-workload.yaml")).replace("REALPROFILE", at("real-profile.yaml"))
                .replace("TYPOPROFILE", at("typo-profile.yaml")).replace("TYPOSWEEP", at("typo-sweep.yaml"))
                .replace("TOPICSWEEP", at("topic-sweep.yaml")).replace("VENDORTOPIC", at("vendor-topic-profile.yaml"))
                .replace("HUGEVALUE", at("huge-value.yaml"))
                .replace("BADB64", at("bad-base64.json")).replace("BADHISTOGRAM", at("bad-histogram.json"))
                .replace("NOINTERVALS", at("no-intervals.json")).replace("BAREINTERVAL", at("interval-without-figures.json"))
                .replace("WORKLOADTEXT", at("workload-text.json")).replace("NEWER", at("newer.json"))
                .replace("GOOD", at("good.json")).replace("PAGEDIR", at("page-dir")).replace("PAGEOUT", at("page.html"))
                .replace("JSONPROPS", at("json.properties")).replace("LATIN1", at("latin1.properties"))
                .replace("BINPAYLOAD", at("binary-payload.yaml")).replace("BINARY", at("binary.payload"))
                .replace("RESULTSDIR", dir.toString()).replace("NOTADIR", notADir).replace("FAULTS", at("faults.yaml"))
                .replace("SERIALIZER", at("serializer.properties")).replace("GROUP", at("group.properties"))
                .replace("MISSING", at("missing.file")).replace("REDACTED", at("redacted.json"))
                .replace("TAMPERED", at("tampered.json")).replace("SECRETSWEEP", at("secret-sweep.yaml")).replace("SWEEP", at("sweep.yaml"))
                .replace("TWICEFILE", at("twice-workers.txt")).replace("RECORDS", at("records.yaml")).replace("NOCONSUMERS", at("noconsumers.yaml"))
                .replace("WORKERSFILE", at("workers.txt")).replace("NOWORKERS", at("noworkers.txt")).replace("MERGED", at("merged.json")).replace("RESULT2", at("result2.json"))
                .replace("RESULT", at("result.json"));
    }
}
