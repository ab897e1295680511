package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenMessaging Benchmark files translated into kbench's keys; errors point into the OMB file. */
class OmbFilesTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void shouldTurnProducerRateZeroIntoTheMaxRateSearchAndMinutesIntoSeconds() throws IOException {
        Sweep s = Sweep.load(file("omb.yaml", """
                name: adaptive / 1kb
                topics: 2
                partitionsPerTopic: 3
                messageSize: 1024
                subscriptionsPerTopic: 1
                consumerPerSubscription: 2
                producersPerTopic: 1
                producerRate: 0
                keyDistributor: RANDOM_NANO
                consumerBacklogSizeGB: 0
                warmupDurationMinutes: 2
                testDurationMinutes: 3
                """));
        Workload w = s.base();
        assertTrue(s.findMaxRate());
        assertEquals(Workload.UNTHROTTLED, w.producerRate());
        assertEquals("adaptive-1kb", w.name());
        assertEquals(2, w.consumersPerSubscription());
        assertEquals(120, w.warmupSeconds());
        assertEquals(180, w.durationSeconds());
        assertEquals(Workload.KeyDistribution.random, w.messages().keyDistribution());
        assertEquals(10_000, w.messages().keys(), "OMB's KeyDistributor draws from 10,000 keys, kbench's default 1,000");
        assertTrue(s.notes().contains("omb.yaml: OMB workload: keyDistributor: RANDOM_NANO -> keyDistribution: random, "
                + "keys: 10000 (OMB's distinct keys)"), s.notes().toString());
        assertEquals(0, w.consumerBacklogRecords());
        assertTrue(s.notes().contains("omb.yaml: OMB workload: producerRate: 0 (OMB's adaptive rate) -> the max-rate "
                + "search (--find-max-rate)"), s.notes().toString());
        assertEquals(6, s.notes().size(), s.notes().toString()); // consumerBacklogSizeGB: 0 is kbench's default: nothing to say

        Workload backlog = Sweep.load(file("b.yaml", "testDurationMinutes: 1\nconsumerBacklogSizeGB: 2\n"
                + "producerRate: 1000\nmessageSize: 1024\n")).base();
        assertEquals(2L * 1024 * 1024 * 1024 / 1024, backlog.consumerBacklogRecords());
        assertEquals(60, backlog.warmupSeconds(), "OMB's default warm-up");
        Sweep kbench = Sweep.load(file("k.yaml", "durationSeconds: 5\n"));
        assertEquals(List.of(), kbench.notes(), "kbench's own files are not translated");
    }

    @Test
    void shouldReportProblemsWhereTheOmbFileHasThem() throws IOException {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(file("bad.yaml", """
                topics: 1
                keyDistributor: ZIPF
                testDurationMinutes: 0
                durationSeconds: 5
                payloadFile: "payload/none.data"
                """)));
        List<String> got = e.errors().stream().map(ConfigError::toString).toList();
        String f = dir.resolve("bad.yaml").toString();
        assertTrue(got.contains(f + ":2:17: keyDistributor 'ZIPF' is not one of OMB's: NO_KEY, KEY_ROUND_ROBIN, RANDOM_NANO"),
                got.toString());
        assertTrue(got.contains(f + ":3:1: testDurationMinutes (OMB) and durationSeconds (kbench) both given; keep one"),
                got.toString());
        assertTrue(got.stream().anyMatch(l -> l.startsWith(f + ":5:14: payloadFile ") && l.contains("payload/none.data not "
                + "found (OMB reads it relative to the current directory, ")), got.toString());
    }

    /** A key kbench ignores still has OMB's type: a value OMB would refuse is not an OMB workload. */
    @Test
    void shouldRefuseAValueOmbWouldRefuseInAKeyKbenchIgnores() throws IOException {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Sweep.load(file("ignored.yaml", """
                testDurationMinutes: 1
                backlogDrainRatio: lots
                randomizedPayloadPoolSize: [1]
                """)));
        String f = dir.resolve("ignored.yaml").toString();
        assertEquals(List.of(f + ":2:20: backlogDrainRatio must be a number >= 0 (OMB's type; kbench ignores the key), got "
                + "'lots'", f + ":3:28: randomizedPayloadPoolSize must be a whole number >= 0 (OMB's type; kbench ignores "
                + "the key), got a list"), e.errors().stream().map(ConfigError::toString).toList());
        Sweep ok = Sweep.load(file("ok.yaml", "testDurationMinutes: 1\nbacklogDrainRatio: 5.0\nrandomizedPayloadPoolSize: 100\n"));
        assertTrue(ok.notes().stream().anyMatch(n -> n.contains("backlogDrainRatio has no kbench equivalent and is ignored")),
                ok.notes().toString());
    }

    @Test
    void shouldTranslateAKafkaDriverFileAndRefuseOtherDrivers() throws IOException {
        List<String> notes = new ArrayList<>();
        Profile p = Profile.load(file("driver.yaml", """
                name: Kafka
                driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver
                replicationFactor: 2
                reset: false
                topicConfig: |
                  min.insync.replicas=1
                commonConfig: |
                  bootstrap.servers=b1:9092,b2:9092
                  request.timeout.ms = 60000
                producerConfig: |
                  # throughput
                  acks=1
                  linger.ms: 5
                consumerConfig: |
                  auto.offset.reset=earliest
                """), notes::add);
        assertEquals("kafka", p.driver());
        assertEquals("b1:9092,b2:9092", p.bootstrapServers());
        assertEquals(2, p.replicationFactor());
        assertEquals("1", p.producer().get("acks"));
        assertEquals("5", p.producer().get("linger.ms"));
        assertEquals("60000", p.common().get("request.timeout.ms"));
        assertEquals("1", p.topic().get("min.insync.replicas"));
        assertEquals("earliest", p.consumer().get("auto.offset.reset"));
        assertTrue(notes.contains("driver.yaml: OMB driver: producerConfig -> producer (2 properties)"), notes.toString());

        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Profile.load(file("pulsar.yaml", """
                name: Pulsar
                driverClass: io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver
                producerConfig: |
                  acks=1
                  key.serializer=org.example.Mine
                """)));
        List<String> got = e.errors().stream().map(ConfigError::toString).toList();
        String f = dir.resolve("pulsar.yaml").toString();
        assertTrue(got.contains(f + ":2:14: driverClass 'io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver': "
                + "kbench drives Kafka; allowed: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver"), got.toString());
        assertTrue(got.stream().anyMatch(l -> l.startsWith(f + ":3:1: producer.key.serializer is set by kbench")),
                got.toString());
    }
}
