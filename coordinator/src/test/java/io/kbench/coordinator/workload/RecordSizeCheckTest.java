package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records the producer would refuse for their size, found before anything starts and placed where the file sizes
 * them: the workload's messageSize, the matrix value that sizes or limits the refused combination, a payload file's
 * largest value. The driver here sizes a record as key + value + 100 and takes max.request.size (default 1000).
 */
class RecordSizeCheckTest {
    @TempDir
    Path dir;

    final List<ConfigCheck.RecordSize> asked = new ArrayList<>();

    final ConfigCheck check = new ConfigCheck(new ConfigCheck.Defs() {
        @Override
        public Set<String> names(String section) {
            return Set.of();
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            return null;
        }

        @Override
        public String recordProblem(Map<String, String> settings, ConfigCheck.RecordSize r, String what) {
            asked.add(r);
            long size = Math.max(0, r.keyBytes()) + r.valueBytes() + 100L;
            long limit = Long.parseLong(settings.getOrDefault("max.request.size", "1000"));
            return size > limit ? "the producer would refuse " + what + ": " + size + " > " + limit : null;
        }
    });

    private Sweep sweep(String text) throws IOException {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, text);
        return Sweep.load(p, check);
    }

    private String at(int line, int column) {
        return dir.resolve("w.yaml") + ":" + line + ":" + column + ": ";
    }

    @Test
    void shouldPlaceAWorkloadsOwnSizeAtItsKey() throws IOException {
        Sweep s = sweep("""
                durationSeconds: 5
                messageSize: 950
                """);
        assertEquals(at(2, 14) + "the producer would refuse every record: 1050 > 1000",
                s.settingsProblem(Profile.defaults(), check, "the profile"));
        assertNull(s.settingsProblem(Profile.defaults().with(Map.of("producer.max.request.size", "1050")), check,
                "the profile"));
        // the record as the driver is asked to size it: no key, the stamp and verification on by default
        assertEquals(new ConfigCheck.RecordSize(-1, 950, 0, 0, 0, true, true), asked.get(0));
    }

    @Test
    void shouldPlaceACombinationAtTheValueThatSizesItElseAtTheLimit() throws IOException {
        Sweep sizes = sweep("""
                durationSeconds: 5
                matrix:
                  producer.linger.ms: [0, 5]
                  messageSize: [100, 2000]
                """);
        assertEquals(at(4, 22) + "matrix: the combination producer.linger.ms=0, messageSize=2000: the producer would "
                + "refuse every record: 2100 > 1000", sizes.settingsProblem(Profile.defaults(), check, "the profile"));
        Sweep limits = sweep("""
                durationSeconds: 5
                messageSize: 700
                matrix:
                  producer.max.request.size: [5000, 500]
                """);
        assertEquals(at(4, 37) + "matrix: the combination producer.max.request.size=500: the producer would refuse "
                + "every record: 800 > 500", limits.settingsProblem(Profile.defaults(), check, "the profile"));
        // with no key of the file's own to point at: where the settings came from
        Sweep plain = sweep("""
                durationSeconds: 5
                """);
        assertEquals("the profile: the producer would refuse every record: 1124 > 500",
                plain.settingsProblem(Profile.defaults().with(Map.of("producer.max.request.size", "500")), check,
                        "the profile"));
    }

    @Test
    void shouldSizeKeysAndPayloadFiles() throws IOException {
        Files.writeString(dir.resolve("values.txt"), "a\n" + "b".repeat(950) + "\nccc\n");
        Sweep s = sweep("""
                durationSeconds: 5
                payloadFile: values.txt
                keyDistribution: roundRobin
                """);
        assertEquals(at(2, 14) + "the producer would refuse the records of the payload file's largest value (950 "
                + "bytes): 1055 > 1000", s.settingsProblem(Profile.defaults(), check, "the profile"));
        // every record first (the shortest value, key-0), then the largest value
        assertEquals(List.of(new ConfigCheck.RecordSize(5, 1, 0, 0, 0, true, true),
                new ConfigCheck.RecordSize(5, 950, 0, 0, 0, true, true)), asked);
        Sweep keyed = sweep("""
                durationSeconds: 5
                messageSize: 100
                keySize: 900
                """);
        // at the key behind most of the bytes: here the key's
        assertEquals(at(3, 10) + "the producer would refuse every record: 1100 > 1000",
                keyed.settingsProblem(Profile.defaults(), check, "the profile"));
    }

    @Test
    void shouldNotAskWithoutProducers() throws IOException {
        Sweep s = sweep("""
                topicNames: [t]
                existingTopics: true
                producersPerTopic: 0
                numRecords: 10
                messageSize: 5000
                """);
        assertNull(s.settingsProblem(Profile.defaults(), check, "the profile"));
        assertEquals(List.of(), asked);
    }
}
