package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share groups (KIP-932) on a real broker, one for the class: a group with more consumers than partitions, split
 * over two workers, receives every message once with implicit acknowledgement; explicit acknowledgement with a
 * fraction released and rejected shows the redeliveries and loses nothing; the figures agree with the Admin API's
 * view of the group.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ShareGroupsIT {
    private static EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.builder().start();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void moreConsumersThanPartitionsOnTwoWorkersReadEveryMessageOnce() throws Exception {
        // a topic of the test's, which outlives the run: the group's offsets can be read after it
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("share-implicit", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        Path w = Files.writeString(dir.resolve("implicit.yaml"), """
                topicNames: [share-implicit]
                existingTopics: true
                producersPerTopic: 1
                subscriptionsPerTopic: 0
                shareGroupsPerTopic: 1
                consumersPerShareGroup: 3
                shareGroupConfig:
                  share.auto.offset.reset: earliest
                messageSize: 100
                producerRate: 1000
                numRecords: 3000
                """);
        JsonNode r = InProcessRun.run(kafka, w, dir.resolve("out-implicit"), "--local-workers", "2");
        JsonNode s = r.get("summary");
        JsonNode share = s.get("share");
        assertNotNull(share, s.toString());
        assertEquals(3000, s.get("acked").asLong());
        assertEquals(3000, share.get("delivered").asLong(), share.toString());
        assertEquals(3000, share.get("accepted").asLong());
        assertEquals(0, share.get("redelivered").asLong());
        assertEquals(0, share.get("released").asLong() + share.get("rejected").asLong());
        assertEquals(0, share.get("unsettled").asLong());
        assertTrue(share.get("verified").asBoolean(), "checked per record: " + share);
        assertEquals(0, share.get("verification").get("lost").asLong(), share.toString());
        assertEquals(0, share.get("verification").get("duplicated").asLong(), share.toString());
        assertFalse(share.get("verification").get("orderChecked").asBoolean());
        assertEquals(3000, share.get("deliveryLatencyMicros").get("count").asLong(), "every first delivery timed");
        assertEquals(300_000, share.get("bytes").asLong());
        assertNull(share.get("commitLatencyMicros"), "acknowledgements with the next poll: no commit of their own");
        JsonNode per = share.get("perConsumer");
        assertEquals(3, per.get("consumers").asInt(), "every share consumer on both workers counted: " + per);
        assertEquals(1000.0, per.get("mean").asDouble(), 1e-9);
        assertTrue(per.get("min").asLong() <= 1000 && per.get("max").asLong() >= 1000 && per.get("max").asLong() <= 3000,
                per.toString());
        long perInterval = 0;
        for (JsonNode i : r.get("intervals")) {
            perInterval += i.get("share").get("delivered").asLong();
        }
        assertEquals(3000, perInterval, "the intervals add up to the summary");
        // kbench's own reading of the broker's view, every interval: a backlog while producing, none at the end
        assertEquals(0, share.get("backlog").asLong(), "the brokers' count after the drain: " + share);
        long readIntervals = 0;
        for (JsonNode i : r.get("intervals")) {
            readIntervals += i.get("share").has("backlog") ? 1 : 0;
        }
        assertTrue(readIntervals >= r.get("intervals").size() - 1, "read (nearly) every interval: " + readIntervals);
        assertEquals(2, r.get("workers").size());
        assertEquals(0, s.get("received").asLong(), "no classic subscription");
        // the broker's view: the group's share partition has nothing left to deliver
        String group = "kbench-" + r.get("runId").asText() + "-t0-sg0";
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            Map<org.apache.kafka.common.TopicPartition, SharePartitionOffsetInfo> offsets = admin
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(group)
                    .get(30, TimeUnit.SECONDS);
            assertEquals(1, offsets.size(), offsets.toString());
            SharePartitionOffsetInfo info = offsets.values().iterator().next();
            // lag: records after the start offset not yet in a terminal state (acknowledged, rejected, archived); the
            // start offset itself may trail what was acknowledged (it moves when a whole in-flight batch is done)
            assertEquals(java.util.Optional.of(0L), info.lag(), "nothing left to deliver: " + info);
            assertTrue(info.startOffset() > 0 && info.startOffset() <= 3000, info.toString());
        }
    }

    @Test
    void releasedRecordsAreRedeliveredAndNothingIsLost() throws Exception {
        Path w = Files.writeString(dir.resolve("explicit.yaml"), """
                topics: 1
                partitionsPerTopic: 2
                producersPerTopic: 1
                subscriptionsPerTopic: 1
                shareGroupsPerTopic: 1
                consumersPerShareGroup: 2
                shareAcknowledgement: explicit
                shareReleaseRatio: 0.1
                shareRejectRatio: 0.02
                shareCommit: sync
                consumerProcessingMillis: 0.2
                messageSize: 100
                producerRate: 1000
                numRecords: 3000
                """);
        JsonNode r = InProcessRun.run(kafka, w, dir.resolve("out-explicit"));
        JsonNode s = r.get("summary");
        JsonNode share = s.get("share");
        long released = share.get("released").asLong();
        long rejected = share.get("rejected").asLong();
        long accepted = share.get("accepted").asLong();
        // 10% and 2% of 3,000 first deliveries: far outside chance to be 0
        assertTrue(released > 150 && released < 450, share.toString());
        assertTrue(rejected > 20 && rejected < 120, share.toString());
        assertEquals(released, share.get("redelivered").asLong(), "each released record delivered once more");
        assertEquals(3000, accepted + rejected, "every record accepted or rejected: " + share);
        assertEquals(3000 + released, share.get("delivered").asLong());
        assertEquals(0, share.get("unsettled").asLong());
        assertEquals(3000, s.get("received").asLong(), "the classic subscription next to it reads everything too");
        assertEquals(0, s.get("verification").get("lost").asLong(), "the classic subscription is verified");
        // the released records came again as redeliveries: not duplicates, and nothing lost
        assertEquals(0, share.get("verification").get("duplicated").asLong(), share.toString());
        assertEquals(0, share.get("verification").get("lost").asLong(), share.toString());
        JsonNode acceptLatency = share.get("acceptLatencyMicros");
        assertEquals(accepted, acceptLatency.get("count").asLong());
        assertTrue(acceptLatency.get("p50").asLong() >= 200, "processing time is in the accept latency: " + acceptLatency);
        // each poll's acknowledgements committed by the consumer itself and timed: a round trip to the broker
        JsonNode commit = share.get("commitLatencyMicros");
        assertNotNull(commit, share.toString());
        assertTrue(commit.get("count").asLong() > 0 && commit.get("count").asLong() <= share.get("delivered").asLong(),
                commit.toString());
        assertTrue(commit.get("p50").asLong() > 0 && commit.get("p50").asLong() < 1_000_000, commit.toString());
        assertTrue(Files.exists(dir.resolve("out-explicit").resolve("shareCommitMicros.hlog")));
        assertTrue(r.get("issues").isEmpty() || !r.get("issues").toString().contains("share groups accepted"),
                r.get("issues").toString());
        List<String> lines = Files.readAllLines(dir.resolve("out-explicit").resolve("intervals.csv"));
        assertTrue(lines.get(0).contains("shareDelivered"), lines.get(0));
    }

    @Test
    void aShareGroupDrainsWhatATopicHolds() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("share-drain", 2, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> p = new org.apache.kafka.clients.producer
                .KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new org.apache.kafka.common.serialization.ByteArraySerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < 2000; i++) {
                p.send(new org.apache.kafka.clients.producer.ProducerRecord<>("share-drain", new byte[50]));
            }
            p.flush();
        }
        Path w = Files.writeString(dir.resolve("drain.yaml"), """
                topicNames: [share-drain]
                existingTopics: true
                producersPerTopic: 0
                subscriptionsPerTopic: 0
                shareGroupsPerTopic: 1
                consumersPerShareGroup: 3
                numRecords: 2000
                """);
        JsonNode r = InProcessRun.run(kafka, w, dir.resolve("out-drain"));
        JsonNode share = r.get("summary").get("share");
        assertEquals(2000, share.get("accepted").asLong(), "the share group read the 2,000 the topic held: " + share);
        assertEquals(2000, share.get("delivered").asLong());
        assertEquals(0, share.get("unsettled").asLong(), "against numRecords, not against 0 acknowledged");
        assertEquals(0, r.get("summary").get("acked").asLong());
        assertFalse(share.get("verified").asBoolean(), "no producers of the run's own: nothing to check against");
        assertNull(share.get("verification"));
        // the group was started at the beginning before the start (as kafka-share-groups --reset-offsets does): its
        // consumers got their partitions on their first heartbeat, not one 5-s heartbeat interval later
        // (the run ends as soon as the group has settled all 2,000: it may have one interval only)
        long firstSecond = 0;
        for (int i = 0; i < Math.min(2, r.get("intervals").size()); i++) {
            firstSecond += r.get("intervals").get(i).get("share").get("delivered").asLong();
        }
        assertTrue(firstSecond > 0, "deliveries in the first two seconds: " + r.get("intervals"));
        assertTrue(r.get("issues").toString().indexOf("share groups accepted") < 0, r.get("issues").toString());
    }

    @Test
    void recordsDeletedBeforeTheGroupDeliveredThemAreFoundLost() throws Exception {
        // a slow group (one consumer, 5 ms a record) behind its producer; while it is behind, the test deletes the
        // partition's first 1,500 records (Admin deleteRecords, what retention does): the group never delivers the
        // ones it had not acquired yet. They were acknowledged to the producer: kbench's per-record check counts them
        // lost, and nothing duplicated
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("share-loss", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            Path w = Files.writeString(dir.resolve("loss.yaml"), """
                    topicNames: [share-loss]
                    existingTopics: true
                    producersPerTopic: 1
                    subscriptionsPerTopic: 0
                    shareGroupsPerTopic: 1
                    consumersPerShareGroup: 1
                    shareGroupConfig:
                      share.auto.offset.reset: earliest
                    consumerProcessingMillis: 5
                    messageSize: 100
                    producerRate: 2000
                    numRecords: 2000
                    """);
            java.util.concurrent.CompletableFuture<JsonNode> run = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return InProcessRun.run(kafka, w, dir.resolve("out-loss"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition("share-loss", 0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (admin.listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest())).partitionResult(tp)
                    .get(30, TimeUnit.SECONDS).offset() < 2000 && System.nanoTime() < deadline && !run.isDone()) {
                Thread.sleep(50);
            }
            admin.deleteRecords(Map.of(tp, org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(1500))).all()
                    .get(30, TimeUnit.SECONDS);
            JsonNode r = run.get(2, TimeUnit.MINUTES);
            JsonNode share = r.get("summary").get("share");
            long delivered = share.get("delivered").asLong();
            assertEquals(2000, r.get("summary").get("acked").asLong());
            assertTrue(delivered >= 500 && delivered < 1800, "the group was behind when the records went: " + share);
            JsonNode v = share.get("verification");
            assertEquals(2000 - delivered, v.get("lost").asLong(), "every record never delivered is lost: " + share);
            assertEquals(0, v.get("duplicated").asLong());
            assertTrue(r.get("issues").toString().contains("per-record check found " + String.format("%,d",
                    2000 - delivered) + " message(s) lost"), r.get("issues").toString());
        }
    }

    /** Last: it takes share groups away from the class's broker, and gives them back. */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void aClusterWithoutShareGroupsIsToldInOneLineBeforeAnyLoad() throws Exception {
        Path w = Files.writeString(dir.resolve("share.yaml"), """
                durationSeconds: 2
                producerRate: 100
                subscriptionsPerTopic: 0
                shareGroupsPerTopic: 1
                """);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.updateFeatures(Map.of("share.version", new org.apache.kafka.clients.admin.FeatureUpdate((short) 0,
                    org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get(30, TimeUnit.SECONDS);
            try {
                InProcessRun.Outcome o = InProcessRun.execute("run", "--bootstrap-servers", kafka.bootstrapServers(),
                        "--output", dir.resolve("out-none").toString(), w.toString());
                assertEquals(2, o.exitCode(), o.stderr());
                List<String> refusal = o.stderr().lines().filter(l -> l.startsWith("kbench: ")).toList();
                assertEquals(1, refusal.size(), o.stderr());
                assertTrue(refusal.get(0).contains("the cluster has no share groups: its feature share.version is not "
                        + "finalized"), refusal.get(0));
                assertTrue(refusal.get(0).contains("upgrade --feature share.version=1"), refusal.get(0));
                assertFalse(o.stderr().contains("    1s |"), "no load: " + o.stderr());
                assertFalse(o.stderr().contains("\tat "), "no stack trace: " + o.stderr());
            } finally {
                admin.updateFeatures(Map.of("share.version", new org.apache.kafka.clients.admin.FeatureUpdate((short) 1,
                        org.apache.kafka.clients.admin.FeatureUpdate.UpgradeType.UPGRADE)),
                        new org.apache.kafka.clients.admin.UpdateFeaturesOptions()).all().get(30, TimeUnit.SECONDS);
            }
        }
    }
}
