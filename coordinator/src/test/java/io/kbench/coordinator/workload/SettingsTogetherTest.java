package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Settings each valid on their own that the clients refuse together, found before anything starts and placed where
 * they are given: the matrix value that is refused with the profile alone, the combination, or the profile.
 */
class SettingsTogetherTest {
    @TempDir
    Path dir;

    /** What the driver was asked, client by client. */
    final List<String> asked = new ArrayList<>();

    /**
     * A driver whose producer refuses more than 5 in flight unless enable.idempotence is false (Kafka's rule), and
     * linger.ms 1 with acks 1 (a pair refused only together); its message repeats the password, as a careless one may.
     */
    final ConfigCheck check = new ConfigCheck(new ConfigCheck.Defs() {
        @Override
        public Set<String> names(String section) {
            return Set.of("linger.ms", "acks", "max.in.flight.requests.per.connection", "enable.idempotence",
                    "ssl.key.password");
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            return null;
        }

        @Override
        public String togetherProblem(String client, Map<String, String> s, boolean transactional) {
            asked.add(client + (transactional ? " (transactional)" : ""));
            if (client.equals("producer") && Integer.parseInt(s.getOrDefault("max.in.flight.requests.per.connection", "5")) > 5
                    && !"false".equals(s.get("enable.idempotence"))) {
                return "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. "
                        + "Current value is " + s.get("max.in.flight.requests.per.connection") + ".";
            }
            if (client.equals("producer") && "1".equals(s.get("linger.ms")) && "1".equals(s.get("acks"))) {
                return "linger.ms 1 and acks 1 (password " + s.get("ssl.key.password") + ")";
            }
            return client.equals("consumer") && s.containsKey("acks") ? "consumers take no acks" : null;
        }
    });

    private Sweep sweep(String text) throws IOException {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, text);
        return Sweep.load(p, check);
    }

    @Test
    void shouldPlaceAValueRefusedWithTheProfileAtItsOwnPosition() throws IOException {
        Sweep s = sweep("""
                durationSeconds: 5
                matrix:
                  producer.linger.ms: [1, 5]
                  producer.max.in.flight.requests.per.connection: [5, 10]
                """);
        assertEquals(dir.resolve("w.yaml") + ":4:55: matrix: producer.max.in.flight.requests.per.connection=10: the "
                        + "producer would refuse these settings together: To use the idempotent producer, "
                        + "max.in.flight.requests.per.connection must be set to at most 5. Current value is 10. (idempotence "
                        + "is on by default: enable.idempotence=false turns it off)",
                s.settingsProblem(Profile.defaults(), check, "the profile"));
        assertNull(s.settingsProblem(Profile.defaults().with(Map.of("producer.enable.idempotence", "false")), check,
                "the profile"), "idempotence off: every combination starts");
    }

    @Test
    void shouldNameTheCombinationWhenOnlyItsValuesTogetherAreRefused() throws IOException {
        Sweep s = sweep("""
                durationSeconds: 5
                matrix:
                  producer.linger.ms: [5, 1]
                  producer.acks: [all, 1]
                """);
        String p = s.settingsProblem(Profile.defaults().with(Map.of("common.ssl.key.password", "s3cret-value")), check,
                "the profile");
        assertEquals(dir.resolve("w.yaml") + ":3:27: matrix: the combination producer.linger.ms=1, producer.acks=1: the "
                + "producer would refuse these settings together: linger.ms 1 and acks 1 (password (not shown))", p);
        assertFalse(p.contains("s3cret"), p);
    }

    @Test
    void shouldBlameTheProfileWhenItAloneIsRefusedAndCheckOnlyTheClientsTheWorkloadRuns() throws IOException {
        Profile bad = Profile.defaults().with(Map.of("producer.max.in.flight.requests.per.connection", "6"));
        assertEquals("p.yaml with --set: the producer would refuse these settings together: To use the idempotent "
                        + "producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6. "
                        + "(idempotence is on by default: enable.idempotence=false turns it off)",
                sweep("durationSeconds: 5\n").settingsProblem(bad, check, "p.yaml with --set"));
        assertNull(sweep("durationSeconds: 5\nproducersPerTopic: 0\nexistingTopics: true\ntopicNames: [t]\n")
                .settingsProblem(bad, check, "p.yaml"), "no producers: their settings cannot stop the run");
        asked.clear();
        Profile consumerBad = Profile.defaults().with(Map.of("consumer.acks", "1"));
        assertNull(sweep("durationSeconds: 5\nsubscriptionsPerTopic: 0\n").settingsProblem(consumerBad, check, "p.yaml"),
                "no consumers");
        assertEquals(List.of("producer"), asked);
        assertEquals("p.yaml: the consumer would refuse these settings together: consumers take no acks",
                sweep("durationSeconds: 5\n").settingsProblem(consumerBad, check, "p.yaml"));
        assertEquals("the consumer would refuse these settings together: consumers take no acks",
                check.together(consumerBad), "a profile on its own: both clients");
        asked.clear();
        sweep("durationSeconds: 5\ntransactionRecords: 100\nsubscriptionsPerTopic: 0\n").settingsProblem(Profile.defaults(),
                check, "p.yaml");
        assertEquals(List.of("producer (transactional)"), asked, "a transactional workload's producers get their id");
        assertNull(ConfigCheck.NONE.together(bad), "a driver that does not say: nothing refused");
    }
}
