package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepTest {
    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path p = dir.resolve("sweep.yaml");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void shouldExpandEveryCombinationWithTheFirstKeyVaryingSlowest() throws IOException {
        Sweep s = Sweep.load(file("""
                durationSeconds: 10
                messageSize: 100
                matrix:
                  producer.batch.size: [8192, 16384]
                  messageSize: [100, 1024, 4096]
                """));
        assertTrue(s.isSweep());
        assertEquals(List.of("producer.batch.size", "messageSize"), s.axes());
        assertEquals(List.of(
                "producer.batch.size=8192, messageSize=100", "producer.batch.size=8192, messageSize=1024",
                "producer.batch.size=8192, messageSize=4096", "producer.batch.size=16384, messageSize=100",
                "producer.batch.size=16384, messageSize=1024", "producer.batch.size=16384, messageSize=4096"),
                s.labels());
        Sweep.Point p = s.points().get(4);
        assertEquals(1024, p.workload().messages().messageSize());
        assertEquals(Map.of("producer.batch.size", "16384"), p.profileOverrides());
        assertEquals(100, s.base().messages().messageSize());
    }

    @Test
    void shouldHoldAMatrixsKafkaSettingsAgainstTheConfigCheckAtTheirPositions() throws IOException {
        Path p = file("""
                durationSeconds: 10
                matrix:
                  topic.retention.ms: [60000, 7d]
                  producer.my.plugin: [1, 2, 3]
                  producer.linger.m: [1, 5]
                """);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p, ConfigCheckTest.CHECK_BOTH));
        assertEquals(List.of("sweep.yaml:3:31: matrix: topic.retention.ms: Invalid value 7d for configuration retention.ms: "
                + "Not a number of type LONG", "sweep.yaml:5:23: matrix: producer.linger.m is not a Kafka producer config; "
                + "did you mean linger.ms?"), e.errors().stream().map(c -> c.toString().replace(dir + "/", "")).toList(),
                "the typo once, at its first value; the bad value at itself");
        Files.writeString(p, "durationSeconds: 10\nmatrix:\n  producer.my.plugin: [1, 2, 3]\n");
        Sweep s = Sweep.load(p, ConfigCheckTest.CHECK_BOTH);
        assertEquals(1, s.notes().size(), "an unknown name noted once, not once per value: " + s.notes());
        assertTrue(s.notes().get(0).endsWith("sweep.yaml:3:24: matrix: producer.my.plugin is not a Kafka producer config: "
                + "passed on, and the client ignores it unless a plugin of yours reads it"), s.notes().toString());
        assertEquals(3, s.points().size());
        assertTrue(Sweep.load(p).notes().isEmpty(), "without a check: nothing held");
    }

    @Test
    void shouldCarryBrokerSettingsApartFromTheWorkloadAndTheProfile() throws IOException {
        Sweep s = Sweep.load(file("""
                durationSeconds: 10
                matrix:
                  broker.num.replica.fetchers: [1, 2]
                  producer.acks: [all]
                """));
        assertEquals(List.of("num.replica.fetchers"), s.brokerAxes());
        assertEquals(Map.of("num.replica.fetchers", "2"), s.points().get(1).brokerSettings());
        assertEquals(Map.of("producer.acks", "all"), s.points().get(1).profileOverrides());
        assertEquals("broker.num.replica.fetchers=2, producer.acks=all", s.points().get(1).label());
        Path p = file("""
                durationSeconds: 10
                matrix:
                  broker.Bad Name: [1]
                  broker.ssl.keystore.password: [x]
                  broker.: [1]
                """);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        assertEquals(List.of(
                p + ":3:3: matrix key 'broker.Bad Name': a broker setting is broker.<name>, the name 1 to 249 of a-z 0-9 "
                        + ". _ - (a Kafka broker config, e.g. broker.num.replica.fetchers)",
                p + ":4:3: matrix cannot vary broker.ssl.keystore.password: its values would be printed in the sweep's "
                        + "table and written to its files",
                p + ":5:3: matrix key 'broker.': a broker setting is broker.<name>, the name 1 to 249 of a-z 0-9 . _ - "
                        + "(a Kafka broker config, e.g. broker.num.replica.fetchers)"),
                e.errors().stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldBeASinglePointWithoutAMatrix() throws IOException {
        Sweep s = Sweep.load(file("durationSeconds: 10\n"));
        assertFalse(s.isSweep());
        assertEquals(1, s.points().size());
        assertEquals("", s.points().get(0).label());
    }

    @Test
    void shouldReportABadMatrixValueAtItsOwnPosition() throws IOException {
        Path p = file("""
                durationSeconds: 10
                matrix:
                  messageSize: [100, -1, 200]
                  replicationFactor: [1, three]
                  networkGbps: [10, 0]
                """);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        assertEquals(List.of(
                p + ":3:22: messageSize is -1; allowed: 0 to 104857600 bytes",
                p + ":4:26: matrix: replicationFactor must be a whole number 1 to 32767, got 'three'",
                p + ":5:21: matrix: networkGbps must be above 0 and at most 1600 Gbit/s, got '0'"),
                e.errors().stream().map(ConfigError::toString).toList(), "in the file's order");
    }

    /** A value listed twice would run the same combination twice under one label: refused where the second is. */
    @Test
    void shouldRefuseAMatrixValueListedTwice() throws IOException {
        Path p = file("""
                durationSeconds: 10
                matrix:
                  producer.batch.size: [8192, 16384, "8192"]
                  producer.acks: [1, all]
                """);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        assertEquals(List.of(p + ":3:38: matrix.producer.batch.size lists 8192 twice (first at line 3, column 25); give "
                + "each value once (to measure a combination again, run it again: kbench run --repeat its result.json)"),
                e.errors().stream().map(ConfigError::toString).toList());
        assertEquals(Sweep.sameValue("8192"), Sweep.sameValue("08192"));
        assertEquals(Sweep.sameValue("8192"), Sweep.sameValue(" 8192.0 "));
        assertEquals("all", Sweep.sameValue("all"));
        assertFalse(Sweep.sameValue("all").equals(Sweep.sameValue("ALL")), "text as written: Kafka tells its own cases");
    }

    @Test
    void shouldRejectUnknownMatrixKeysAndNonListValues() throws IOException {
        Path p = file("""
                durationSeconds: 10
                matrix:
                  mesageSize: [1, 2]
                  producer.acks: all
                  name: [a, b]
                """);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(p));
        List<String> errors = e.errors().stream().map(ConfigError::toString).toList();
        assertEquals(3, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith(p + ":3:3: matrix key 'mesageSize' is neither a workload key (did you mean 'messageSize'?) nor a profile key"), errors.get(0));
        assertEquals(p + ":4:18: matrix.producer.acks must be a non-empty list of values, e.g. [1, 2]", errors.get(1));
        assertEquals(p + ":5:3: matrix cannot vary 'name'", errors.get(2));
    }

    @Test
    void shouldApplyProfileOverridesAndRefuseKbenchOwnedKeys() {
        Profile p = Profile.defaults().with(Map.of("producer.acks", "all", "replicationFactor", "3",
                "topic.min.insync.replicas", "2"));
        assertEquals("all", p.producer().get("acks"));
        assertEquals(3, p.replicationFactor());
        assertEquals("2", p.topic().get("min.insync.replicas"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Profile.defaults().with(Map.of("consumer.group.id", "x")));
        assertEquals("consumer.group.id is set by kbench", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Profile.defaults().with(Map.of("acks", "1")));
        assertTrue(e.getMessage().startsWith("'acks' is not a profile key"), e.getMessage());
    }
}
