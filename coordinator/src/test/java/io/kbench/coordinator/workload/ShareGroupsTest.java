package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The share-group keys of a workload: read, defaults, and every refusal with its place and what is allowed. */
class ShareGroupsTest {
    @TempDir
    Path dir;

    private Workload load(String text) throws IOException {
        return Workload.load(Files.writeString(dir.resolve("w.yaml"), text));
    }

    /** The first problem reported for {@code text}, from its file name on. */
    private String refusal(String text) throws IOException {
        Path p = Files.writeString(dir.resolve("bad.yaml"), text);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> Workload.load(p));
        return e.getMessage().substring(e.getMessage().indexOf("bad.yaml"));
    }

    /**
     * A profile's consumer.isolation.level=read_committed was dropped from a share-only run's share consumers without
     * a word (they refuse it): a note says so, and what takes its place for a share group.
     */
    @Test
    void notesTheConsumerSettingsAShareConsumerLeavesOut() throws IOException {
        Workload shareOnly = load("""
                durationSeconds: 5
                subscriptionsPerTopic: 0
                shareGroupsPerTopic: 1
                """);
        Map<String, String> consumer = Map.of("isolation.level", "read_committed", "fetch.min.bytes", "1",
                "enable.auto.commit", "false");
        assertEquals(java.util.List.of("the profile's consumer.enable.auto.commit applies to the classic consumers only "
                + "(this run has none): a share consumer refuses it; for the share groups, the share acknowledgements "
                + "(shareAcknowledgement, shareCommit)", "the profile's consumer.isolation.level applies to the classic "
                + "consumers only (this run has none): a share consumer refuses it; for the share groups, the share "
                + "group's share.isolation.level (shareGroupConfig)"), ShareGroups.consumerNotes(shareOnly, consumer));
        Workload both = load("durationSeconds: 5\nshareGroupsPerTopic: 1\n");
        assertTrue(ShareGroups.consumerNotes(both, consumer).get(0).contains("classic consumers only: a share"));
        assertEquals(java.util.List.of(), ShareGroups.consumerNotes(load("durationSeconds: 5\n"), consumer),
                "no share groups, nothing to note");
    }

    @Test
    void readsEveryShareKey() throws IOException {
        Workload w = load("""
                durationSeconds: 5
                partitionsPerTopic: 2
                topics: 2
                shareGroupsPerTopic: 2
                consumersPerShareGroup: 5
                shareAcknowledgement: explicit
                consumerProcessingMillis: 1.5
                shareReleaseRatio: 0.1
                shareRejectRatio: 0.02
                shareGroupConfig:
                  share.record.lock.duration.ms: 15000
                  share.auto.offset.reset: latest
                """);
        ShareGroups s = w.shareGroups();
        assertEquals(1500, w.consumerProcessingMicros());
        assertEquals(new ShareGroups(2, 5, true, 0.1, 0.02,
                Map.of("share.record.lock.duration.ms", "15000", "share.auto.offset.reset", "latest")), s);
        assertEquals(20, w.shareConsumerCount(), "2 topics x 2 groups x 5 consumers, more than the partitions");
        assertEquals(3, w.readersPerTopic(), "the default classic subscription and the two share groups");
        assertEquals(15_000, s.lockMillis());
        assertTrue(s.warnings(w.consumerProcessing()).isEmpty());
    }

    @Test
    void aResultKeepsTheWorkloadByItsOwnKeysSoThatItCanBeRunAgain() throws IOException {
        Workload w = load("""
                durationSeconds: 5
                shareGroupsPerTopic: 2
                consumersPerShareGroup: 3
                shareAcknowledgement: explicit
                shareReleaseRatio: 0.25
                consumerProcessingMillis: 1.5
                consumerProcessingDistribution: exponential
                shareGroupConfig:
                  share.delivery.count.limit: 3
                shareCommit: sync
                """);
        com.fasterxml.jackson.databind.JsonNode j = io.kbench.coordinator.report.result.ResultDocument.JSON.valueToTree(w);
        java.util.List<String> keys = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            assertTrue(Workload.KEYS.contains(k), "result.json's workload has '" + k + "', which no workload file may have");
        }
        assertEquals(2, j.get("shareGroupsPerTopic").asInt());
        assertEquals(3, j.get("consumersPerShareGroup").asInt());
        assertEquals("explicit", j.get("shareAcknowledgement").asText());
        assertEquals(0.25, j.get("shareReleaseRatio").asDouble());
        assertEquals(1.5, j.get("consumerProcessingMillis").asDouble());
        assertEquals("exponential", j.get("consumerProcessingDistribution").asText());
        assertEquals("3", j.get("shareGroupConfig").get("share.delivery.count.limit").asText());
        assertEquals("sync", j.get("shareCommit").asText());
        assertTrue(w.shareGroups().commitSync());
    }

    @Test
    void noShareGroupsByDefault() throws IOException {
        Workload w = load("durationSeconds: 5\n");
        assertFalse(w.shareGroups().any());
        assertFalse(w.shareGroups().commitSync());
        assertEquals(0, w.shareConsumerCount());
        assertEquals(1, w.readersPerTopic());
    }

    @Test
    void refusesWhatCannotWork() throws IOException {
        assertEquals("bad.yaml:3:20: shareReleaseRatio is 1.5; allowed: 0 to 1 (fraction of first deliveries released)",
                refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareReleaseRatio: 1.5\n"));
        assertEquals("bad.yaml:3:1: releasing and rejecting records needs shareAcknowledgement: explicit (implicit "
                + "acknowledgement accepts every record)",
                refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareReleaseRatio: 0.5\n"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareAcknowledgement: explicit\n"
                + "shareReleaseRatio: 0.6\nshareRejectRatio: 0.6\n")
                .startsWith("bad.yaml:5:1: shareReleaseRatio + shareRejectRatio is 1.2; together at most 1"));
        assertEquals("bad.yaml:2:1: consumersPerShareGroup describes share groups; set shareGroupsPerTopic (1 or more) "
                + "or remove it", refusal("durationSeconds: 5\nconsumersPerShareGroup: 4\n"));
        assertEquals("bad.yaml:3:25: consumersPerShareGroup is -1; allowed: 1 to 10000",
                refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nconsumersPerShareGroup: -1\n"));
        assertEquals("bad.yaml:3:27: consumerProcessingMillis is 1e9; allowed: 0 to 60000 ms per message",
                refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nconsumerProcessingMillis: 1e9\n"));
        assertEquals("bad.yaml:2:1: consumerProcessingDistribution draws each message's time around "
                + "consumerProcessingMillis (the mean); set that too",
                refusal("durationSeconds: 5\nconsumerProcessingDistribution: uniform\n"));
        assertTrue(refusal("durationSeconds: 5\nconsumerProcessingMillis: 1\nconsumerProcessingDistribution: normal\n")
                .startsWith("bad.yaml:3:1: consumerProcessingDistribution 'normal' is not known; allowed: fixed, uniform, "
                        + "exponential"));
        assertTrue(refusal("durationSeconds: 5\nsubscriptionsPerTopic: 0\nconsumerProcessingMillis: 2\n")
                .startsWith("bad.yaml:3:1: consumerProcessingMillis is the consumers' time per message; this run has no "
                        + "consumers"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareCommit: async\n")
                .matches("bad.yaml:3:1: shareCommit 'async' is not known.*; allowed: poll, sync"));
        assertTrue(refusal("durationSeconds: 5\nshareCommit: sync\n")
                .startsWith("bad.yaml:2:1: shareCommit describes share groups"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareAcknowledgement: sometimes\n")
                .startsWith("bad.yaml:3:1: shareAcknowledgement 'sometimes' is not known; allowed: implicit, explicit"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareGroupConfig:\n  share.bogus: 1\n")
                .startsWith("bad.yaml:4:3: shareGroupConfig.share.bogus is not a share-group config; allowed: "
                        + "share.auto.offset.reset, share.delivery.count.limit"));
        assertEquals("bad.yaml:4:3: shareGroupConfig.share.record.lock.duration.ms is '-5'; allowed: a whole number of "
                + "ms (the broker's bounds apply)", refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\n"
                + "shareGroupConfig:\n  share.record.lock.duration.ms: -5\n"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nshareGroupConfig:\n  share.isolation.level: "
                + "read_committed\n  share.auto.offset.reset: first\n")
                .startsWith("bad.yaml:5:3: shareGroupConfig.share.auto.offset.reset is 'first'; allowed: earliest, latest or "
                        + "by_duration:<ISO-8601 duration>"), "at its own entry, not the mapping's first");
        assertTrue(refusal("numRecords: 5\nsubscriptionsPerTopic: 0\nproducersPerTopic: 0\nexistingTopics: true\n"
                + "topicNames: [a]\n").contains("it needs at least one subscription (subscriptionsPerTopic) or share group"));
        assertTrue(refusal("numRecords: 5\nshareGroupsPerTopic: 1\nsubscriptionsPerTopic: 0\nproducersPerTopic: 0\n")
                .contains("a run without producers reads existing topics: it needs existingTopics: true"));
        Workload drain = load("numRecords: 5\nshareGroupsPerTopic: 1\nsubscriptionsPerTopic: 0\nproducersPerTopic: 0\n"
                + "existingTopics: true\ntopicNames: [a]\n");
        assertEquals(1, drain.readersPerTopic(), "a share group draining an existing topic");
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1\nconsumerBacklogRecords: 10\n")
                .contains("a share consumer cannot be held"));
        assertTrue(refusal("durationSeconds: 5\nshareGroupsPerTopic: 1000\nconsumersPerShareGroup: 10000\n")
                .contains("share consumers; at most 100,000 in all"));
    }

    @Test
    void warnsWhenRecordsWouldLoseTheirLocks() throws IOException {
        assertTrue(warnings("consumerProcessingMillis: 30000\n").get(0).contains("every record's lock runs out"));
        assertTrue(warnings("consumerProcessingMillis: 30000\n").get(0).contains("30,000 ms, the broker's default"));
        assertTrue(warnings("consumerProcessingMillis: 100\n").get(0).contains("records late in a full batch"));
        assertTrue(warnings("consumerProcessingMillis: 100\n").get(0).startsWith("consumerProcessingMillis (100 ms) "));
        assertTrue(warnings("consumerProcessingMillis: 60.25\n").get(0).startsWith("consumerProcessingMillis (60.25 ms) "));
        assertTrue(warnings("consumerProcessingMillis: 59.9\n").isEmpty(), "59.9 ms x 500 = 29.95 s, below 30 s");
        assertTrue(warnings("consumerProcessingMillis: 20\nshareGroupConfig:\n  share.record.lock.duration.ms: 15\n")
                .get(0).contains("(15 ms)"));
        assertTrue(warnings("consumerProcessingMillis: 5000\nconsumerProcessingDistribution: exponential\n").get(0)
                .contains("about 0.2% of the records take at least the record lock duration"), "e^-6 = 0.25%");
        assertTrue(warnings("consumerProcessingMillis: 3000\nconsumerProcessingDistribution: exponential\n").get(0)
                .contains("records late in a full batch"), "e^-10 = 0.005% of single records: below the 0.1% warned "
                        + "of, but 3 s x 500 records on average is not below the lock");
        assertTrue(warnings("consumerProcessingMillis: 20000\nconsumerProcessingDistribution: uniform\n").get(0)
                .contains("about 25.0% of the records"), "uniform 0-40 s against a 30-s lock");
        // the profile's max.poll.records: 100 ms x 10 records is far below the lock; x 400 is not, and says so
        Workload slow = load("durationSeconds: 5\nshareGroupsPerTopic: 1\nconsumerProcessingMillis: 100\n");
        assertTrue(slow.shareGroups().warnings(slow.consumerProcessing(), 10, true).isEmpty(),
                "a profile that lowered max.poll.records is not told to lower it");
        assertTrue(slow.shareGroups().warnings(slow.consumerProcessing(), 400, true).get(0)
                .contains("(max.poll.records, 400 in the profile)"));
        assertTrue(slow.shareGroups().warnings(slow.consumerProcessing()).get(0)
                .contains("(max.poll.records, 500 by default)"));
        Workload classicOnly = load("durationSeconds: 5\nconsumerProcessingMillis: 40000\n");
        assertTrue(classicOnly.shareGroups().warnings(classicOnly.consumerProcessing()).isEmpty(),
                "no share group, no lock");
    }

    private java.util.List<String> warnings(String more) throws IOException {
        Workload w = load("durationSeconds: 5\nshareGroupsPerTopic: 1\n" + more);
        return w.shareGroups().warnings(w.consumerProcessing());
    }
}
