package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCheckTest {
    /** A driver that knows three producer configs and takes whole numbers for linger.ms only. */
    static final ConfigCheck CHECK = new ConfigCheck(new ConfigCheck.Defs() {
        @Override
        public Set<String> names(String section) {
            return section.equals("producer") || section.equals("common")
                    ? Set.of("linger.ms", "acks", "ssl.keystore.password") : Set.of();
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            if (name.equals("linger.ms") && !value.matches("[0-9]+")) {
                return "Invalid value " + value + " for configuration linger.ms: Not a number of type LONG";
            }
            return name.equals("ssl.keystore.password") && value.equals("bad")
                    ? "Invalid value bad for configuration ssl.keystore.password" : null;
        }
    });

    @Test
    void shouldRefuseATypoAndABadValueAndNoteANameNoClientDefines() {
        ConfigCheck.Finding typo = CHECK.check("producer", "linger.m", "5");
        assertTrue(typo.refused());
        assertEquals("producer.linger.m is not a Kafka producer config; did you mean linger.ms?", typo.message());
        assertTrue(CHECK.check("producer", "ACKS", "all").refused(), "a name differing in case: still a typo");
        ConfigCheck.Finding plugin = CHECK.check("producer", "my.interceptor.endpoint", "http://x");
        assertFalse(plugin.refused(), "a plugin of the user's may read it");
        assertEquals("producer.my.interceptor.endpoint is not a Kafka producer config: passed on, and the client ignores it "
                + "unless a plugin of yours reads it", plugin.message());
        ConfigCheck.Finding bad = CHECK.check("producer", "linger.ms", "5ms");
        assertTrue(bad.refused());
        assertEquals("producer.linger.ms: Invalid value 5ms for configuration linger.ms: Not a number of type LONG",
                bad.message());
        assertNull(CHECK.check("producer", "linger.ms", "5"));
        assertNull(CHECK.check("topic", "linger.m", "x"), "a section this driver does not describe");
        assertNull(CHECK.check("consumer", "anything", "x"), "a section this driver does not describe: not checked");
        assertNull(ConfigCheck.NONE.check("producer", "linger.m", "5"));
        assertEquals(typo, CHECK.checkKey("producer.linger.m", "5"), "an override's dotted key");
        assertNull(CHECK.checkKey("replicationFactor", "3"), "not a Kafka config");
        assertNull(CHECK.checkKey("topic.linger.m", "3"));
    }

    @Test
    void shouldNeverRepeatASecretAndCutAHugeValue() {
        ConfigCheck.Finding secret = CHECK.check("common", "ssl.keystore.password", "bad");
        assertTrue(secret.refused());
        assertFalse(secret.message().contains("bad"), secret.message());
        assertEquals("common.ssl.keystore.password: the client would not take its value (not shown: it may be a secret)",
                secret.message());
        String huge = "9".repeat(3000) + "x";
        ConfigCheck.Finding cut = CHECK.check("producer", "linger.ms", huge);
        assertTrue(cut.message().contains("(3001 characters)") && cut.message().length() < 400, cut.message());
        ConfigCheck.Finding longName = CHECK.check("producer", "k".repeat(5000), "1");
        assertFalse(longName.refused());
        assertTrue(longName.message().length() < 300, longName.message());
    }

    @Test
    void shouldPlaceAProfilesFindingsAtTheirLinesInTheFilesOrder(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "name: p\nproducer:\n  my.plugin.x: 1\n  acks: all\n"
                + "  linger.ms: soon\ncommon:\n  linger.m: 5\n");
        InvalidConfigException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidConfigException.class,
                () -> Profile.load(f, n -> { }, CHECK));
        assertEquals(List.of("p.yaml:5:3: producer.linger.ms: Invalid value soon for configuration linger.ms: Not a number "
                + "of type LONG", "p.yaml:7:3: common.linger.m is not a Kafka client config; did you mean linger.ms?"),
                e.errors().stream().map(c -> c.toString().replace(dir + "/", "")).toList());
        Files.writeString(f, "name: p\nproducer:\n  my.plugin.x: 1\n  acks: all\n");
        List<String> notes = new ArrayList<>();
        assertEquals("all", Profile.load(f, notes::add, CHECK).producer().get("acks"));
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).endsWith("p.yaml:3:3: producer.my.plugin.x is not a Kafka producer config: passed on, and "
                + "the client ignores it unless a plugin of yours reads it"), notes.toString());
    }

    /** {@link #CHECK}'s producer configs and {@link #TOPICS}' topic configs together. */
    static final ConfigCheck CHECK_BOTH = new ConfigCheck(new ConfigCheck.Defs() {
        @Override
        public Set<String> names(String section) {
            return section.equals("topic") ? Set.of("retention.ms", "min.insync.replicas") : section.equals("producer")
                    ? Set.of("linger.ms", "acks", "ssl.keystore.password") : Set.of();
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            return name.equals("retention.ms") && !value.matches("-?[0-9]+")
                    ? "Invalid value " + value + " for configuration retention.ms: Not a number of type LONG" : null;
        }
    });

    /** A driver that knows two topic configs and takes whole numbers for retention.ms only. */
    static final ConfigCheck TOPICS = new ConfigCheck(new ConfigCheck.Defs() {
        @Override
        public Set<String> names(String section) {
            return section.equals("topic") ? Set.of("retention.ms", "min.insync.replicas") : Set.of();
        }

        @Override
        public String valueProblem(String section, String name, String value) {
            return name.equals("retention.ms") && !value.matches("-?[0-9]+")
                    ? "Invalid value " + value + " for configuration retention.ms: Not a number of type LONG" : null;
        }
    });

    @Test
    void shouldCheckATopicsSettingsAsTheBrokersWould(@TempDir Path dir) throws Exception {
        assertEquals(new ConfigCheck.Finding(true, "topic.retention.m is not a Kafka topic config; did you mean "
                + "retention.ms?", true), TOPICS.checkKey("topic.retention.m", "1000"));
        assertEquals(new ConfigCheck.Finding(true, "topic.retention.ms: Invalid value 7d for configuration retention.ms: "
                + "Not a number of type LONG", false), TOPICS.checkKey("topic.retention.ms", "7d"));
        ConfigCheck.Finding vendor = TOPICS.checkKey("topic.confluent.placement.constraints", "{}");
        assertFalse(vendor.refused(), "another vendor's broker may define it");
        assertTrue(vendor.ofName());
        assertEquals("topic.confluent.placement.constraints is not a Kafka topic config: passed on, and the brokers refuse "
                + "it when the topics are created unless they define it (another version's or vendor's config)",
                vendor.message());
        assertNull(TOPICS.checkKey("topic.retention.ms", "-1"));
        assertTrue(TOPICS.undefined("topic", "confluent.placement.constraints"), "refused for brokers of kbench's version");
        assertFalse(TOPICS.undefined("topic", "retention.ms"));
        assertFalse(TOPICS.undefined("producer", "anything"), "a section this driver does not describe: not known to lack it");
        assertFalse(ConfigCheck.NONE.undefined("topic", "confluent.placement.constraints"));
        assertEquals(new ConfigCheck.Finding(true, "topic.retention.ms: the brokers would not take its value (empty)", false),
                TOPICS.checkKey("topic.retention.ms", ""));
        Path f = Files.writeString(dir.resolve("t.yaml"), "name: t\ntopic:\n  min.insync.replicas: 2\n  retention.m: 5\n");
        InvalidConfigException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidConfigException.class,
                () -> Profile.load(f, n -> { }, TOPICS));
        assertEquals(List.of("t.yaml:4:3: topic.retention.m is not a Kafka topic config; did you mean retention.ms?"),
                e.errors().stream().map(c -> c.toString().replace(dir + "/", "")).toList());
    }
}
