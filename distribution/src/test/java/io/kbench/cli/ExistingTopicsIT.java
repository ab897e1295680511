package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named and existing topics: a consumer-only catch-up read, kbench never deletes a topic it did not create, and records a
 * topic would refuse for their size are refused before any client starts.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExistingTopicsIT {
    @TempDir
    Path dir;

    @Test
    void shouldReadAnExistingTopicWithConsumersOnlyAndLeaveItInPlace() throws Exception {
        Path fill = Files.writeString(dir.resolve("fill.yaml"), """
                topicNames: [catchup]
                partitionsPerTopic: 3
                messageSize: 100
                subscriptionsPerTopic: 0
                numRecords: 5000
                """);
        Path read = Files.writeString(dir.resolve("read.yaml"), """
                topicNames: [catchup]
                existingTopics: true
                producersPerTopic: 0
                subscriptionsPerTopic: 1
                consumersPerSubscription: 2
                numRecords: 5000
                """);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            String bootstrap = kafka.bootstrapServers();
            // created by this run, kept on request
            InProcessRun.run(kafka, fill, dir.resolve("fill1"), "--keep-topics");
            assertEquals(Set.of("catchup"), topics(bootstrap));

            JsonNode r = InProcessRun.run(kafka, read, dir.resolve("read"));
            assertEquals("COMPLETED", r.get("status").asText());
            assertEquals(0, r.get("summary").get("sent").asLong());
            assertEquals(5000, r.get("summary").get("received").asLong());
            assertEquals(0, r.get("issues").size(), r.get("issues").toString());
            // the window runs from the start instant to the last receipt: it is positive only if the consumers
            // were held until the start (had they read the backlog during prepare, it would end before it)
            double seconds = r.get("summary").get("measuredSeconds").asDouble();
            assertTrue(seconds > 0 && seconds < 1, "catch-up of 5,000 small messages measured over " + seconds + " s");
            assertEquals(5000 / seconds, r.get("summary").get("consumeRate").asDouble(), 5000 / seconds * 0.05);

            // a run with producers on a topic that already holds data reads only its own messages (from the
            // log end), so its end-to-end latency is not polluted by old records
            Path produce = Files.writeString(dir.resolve("produce.yaml"), """
                    topicNames: [catchup]
                    partitionsPerTopic: 3
                    messageSize: 100
                    subscriptionsPerTopic: 1
                    producerRate: 2000
                    numRecords: 2000
                    """);
            JsonNode again = InProcessRun.run(kafka, produce, dir.resolve("fill2"));
            assertEquals(2000, again.get("summary").get("acked").asLong());
            assertEquals(2000, again.get("summary").get("received").asLong(), "old records must not be read");
            assertTrue(again.get("summary").get("endToEndLatencyMicros").get("max").asLong() < 5_000_000,
                    again.get("summary").get("endToEndLatencyMicros").toString());
            // not created by this run (it existed), so not deleted although --keep-topics is not given
            assertEquals(Set.of("catchup"), topics(bootstrap), "a topic kbench did not create must never be deleted");

            // records a topic would refuse for their size: refused once the worker has made or found the topics,
            // before any client is built; a topic made for the run goes, one that was there stays
            Path big = Files.writeString(dir.resolve("big.yaml"), """
                    topicNames: [big]
                    messageSize: 3000
                    producerRate: 100
                    durationSeconds: 5
                    """);
            InProcessRun.Outcome refused = InProcessRun.execute("run", "--bootstrap-servers", bootstrap, "--set",
                    "topic.max.message.bytes=2000", "--output", dir.resolve("big").toString(), big.toString());
            assertEquals(2, refused.exitCode(), refused.stderr());
            assertTrue(refused.stderr().contains("the brokers would refuse every record: topic big takes batches of at "
                    + "most 2,000 bytes (its max.message.bytes; the brokers' message.max.bytes unless the topic sets it), "
                    + "and one record here is a batch of at least 3,070 bytes uncompressed"), refused.stderr());
            assertEquals(Set.of("catchup"), topics(bootstrap), "the topic made for the refused run is deleted");
            Path large = Files.writeString(dir.resolve("large.yaml"), """
                    topicNames: [catchup]
                    existingTopics: true
                    messageSize: 1100000
                    numRecords: 10
                    """);
            refused = InProcessRun.execute("run", "--bootstrap-servers", bootstrap, "--set",
                    "producer.max.request.size=2000000", "--output", dir.resolve("large").toString(), large.toString());
            assertEquals(2, refused.exitCode(), refused.stderr());
            assertTrue(refused.stderr().contains("topic catchup takes batches of at most 1,048,588 bytes"), refused.stderr());
            assertEquals(Set.of("catchup"), topics(bootstrap));
            // a topic to read that is not there: named, and how to have it
            Path absent = Files.writeString(dir.resolve("absent.yaml"), """
                    topicNames: [catchup, absent]
                    existingTopics: true
                    producersPerTopic: 0
                    numRecords: 10
                    """);
            refused = InProcessRun.execute("run", "--bootstrap-servers", bootstrap, "--output",
                    dir.resolve("absent").toString(), absent.toString());
            assertEquals(2, refused.exitCode(), refused.stderr());
            assertTrue(refused.stderr().contains("topic absent does not exist at " + bootstrap + ": create it first, or let "
                    + "kbench create it for the run (a workload without existingTopics: true; producer-perf with "
                    + "--partitions N)"), refused.stderr());
        }
    }

    private static Set<String> topics(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        }
    }
}
