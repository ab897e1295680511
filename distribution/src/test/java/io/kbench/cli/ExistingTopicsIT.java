package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Named and existing topics: a consumer-only catch-up read, and kbench never deletes a topic it did not create. */
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
            assertEquals(0, Main.execute("run", "--bootstrap-servers", bootstrap, "--keep-topics", "--output",
                    dir.resolve("fill1").toString(), fill.toString()));
            assertEquals(Set.of("catchup"), topics(bootstrap));

            JsonNode r = run(bootstrap, read, dir.resolve("read"));
            assertEquals("COMPLETED", r.get("status").asText());
            assertEquals(0, r.get("summary").get("sent").asLong());
            assertEquals(5000, r.get("summary").get("received").asLong());
            assertTrue(r.get("summary").get("consumeRate").asDouble() > 0, r.get("summary").toString());
            assertEquals(0, r.get("issues").size(), r.get("issues").toString());

            // not created by this run (it existed), so not deleted although --keep-topics is not given
            JsonNode again = run(bootstrap, fill, dir.resolve("fill2"));
            assertEquals(5000, again.get("summary").get("acked").asLong());
            assertEquals(Set.of("catchup"), topics(bootstrap), "a topic kbench did not create must never be deleted");
        }
    }

    private static JsonNode run(String bootstrap, Path workload, Path out) throws Exception {
        assertEquals(0, Main.execute("run", "--bootstrap-servers", bootstrap, "--output", out.toString(), workload.toString()));
        return new ObjectMapper().readTree(out.resolve("result.json").toFile());
    }

    private static Set<String> topics(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(p)) {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        }
    }
}
