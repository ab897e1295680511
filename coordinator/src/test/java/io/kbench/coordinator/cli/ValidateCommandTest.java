package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ValidateCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldPassValidFilesAndListEveryProblemOfInvalidOnes() throws IOException {
        Path workload = Files.writeString(dir.resolve("w.yaml"), "durationSeconds: 5\npartitionsPerTopic: 3\n");
        Path profile = Files.writeString(dir.resolve("p.yaml"), "replicationFactor: 3\nproducer:\n  acks: all\n");
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "durationSeconds: 5\nproducersPerTopc: 2\n");
        Path badProfile = Files.writeString(dir.resolve("bp.yaml"), "replicationFactor: 0\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new CommandLine(new ValidateCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(workload.toString(), profile.toString(), bad.toString(), badProfile.toString());
        assertEquals(2, rc);
        assertEquals("ok: " + workload + " (workload w: 1 topic(s) x 3 partitions, 1 producer(s), 1 consumer(s), unthrottled, 5 s)\n"
                + "ok: " + profile + " (profile p: no bootstrap.servers, replication factor 3)\n", out.toString());
        String[] lines = err.toString().split("\n");
        assertEquals(2, lines.length, err.toString());
        assertEquals(bad + ":2:1: unknown workload key 'producersPerTopc' (did you mean 'producersPerTopic'?); allowed: "
                + String.join(", ", io.kbench.coordinator.workload.Workload.KEYS), lines[0]);
        assertEquals(badProfile + ":1:20: replicationFactor is 0; allowed: 1 to 32767", lines[1]);
    }

    /** A sweep's line says what it varies, each key's values in file order; a huge matrix is cut. */
    @Test
    void shouldNameWhatASweepVaries() throws IOException {
        Path sweep = Files.writeString(dir.resolve("s.yaml"), """
                durationSeconds: 5
                matrix:
                  partitionsPerTopic: [1, 3]
                  producer.acks: ["1", all]
                """);
        StringWriter out = new StringWriter();
        int rc = new CommandLine(new ValidateCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(new StringWriter()))
                .execute(sweep.toString());
        assertEquals(0, rc);
        assertEquals("ok: " + sweep + " (workload s: 1 topic(s) x 1 partitions, 1 producer(s), 1 consumer(s), unthrottled, "
                + "5 s, sweep of 4 combinations of partitionsPerTopic [1, 3] x producer.acks [1, all])\n", out.toString());

        Path huge = Files.writeString(dir.resolve("h.yaml"), "durationSeconds: 5\nmatrix:\n  producer.client.id: ["
                + String.join(", ", java.util.Collections.nCopies(1, "x".repeat(300))) + ", y]\n");
        StringWriter hugeOut = new StringWriter();
        assertEquals(0, new CommandLine(new ValidateCommand()).setOut(new PrintWriter(hugeOut))
                .setErr(new PrintWriter(new StringWriter())).execute(huge.toString()));
        String line = hugeOut.toString();
        assertTrue(line.contains("sweep of 2 combinations of producer.client.id [" + "x".repeat(100) + "..., y]"), line);
        assertTrue(line.length() < 400, line);
    }

    @Test
    void shouldWriteOutAControlCharacterInANoteOrAnOkLine() throws IOException {
        // an OMB workload's name is translated with a note that quotes it: the escape reaches no terminal
        Path omb = Files.writeString(dir.resolve("omb.yaml"), "name: \"\\e[2J\"\ntestDurationMinutes: 1\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new CommandLine(new ValidateCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(omb.toString());
        assertEquals(0, rc, err.toString());
        String all = out.toString() + err;
        assertEquals(0, all.chars().filter(c -> c < 32 && c != '\n').count(), all);
        org.junit.jupiter.api.Assertions.assertTrue(err.toString().contains("OMB workload: name '\\u001b[2J' -> '2J'"),
                err.toString());
    }

    /** Fewer distinct keys than partitions: some partitions get nothing — warned, not refused (as Kafka's tools). */
    @Test
    void shouldWarnOfKeysThatLeavePartitionsWithoutAMessage() throws IOException {
        Path sized = Files.writeString(dir.resolve("sized.yaml"), "durationSeconds: 5\npartitionsPerTopic: 60\nkeySize: 8\n");
        Path few = Files.writeString(dir.resolve("few.yaml"), "durationSeconds: 5\npartitionsPerTopic: 12\n"
                + "keyDistribution: random\nkeys: 4\n");
        Path enough = Files.writeString(dir.resolve("enough.yaml"), "durationSeconds: 5\npartitionsPerTopic: 12\n"
                + "keyDistribution: zipf\nkeys: 12\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new CommandLine(new ValidateCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(sized.toString(), few.toString(), enough.toString());
        assertEquals(0, rc, err.toString());
        assertEquals("warning: keySize 8 gives at most 26 distinct keys (one capital letter repeated, as Kafka's "
                + "EndToEndLatency) for 60 partitions per topic: at least 34 of them get no message, as every message of a "
                + "key goes to the partition of its hash; a keyDistribution with at least as many keys as partitions "
                + "loads them all\n"
                + "warning: keys: 4 for 12 partitions per topic: at least 8 of them get no message, as every message of a "
                + "key goes to the partition of its hash; more keys, or no keyDistribution, load them all\n",
                err.toString());
        assertEquals(4, io.kbench.coordinator.workload.Messages.sizedKeys(1 << 20), "4 keys of 1 MiB in 4 MiB");
        assertEquals(1, io.kbench.coordinator.workload.Messages.sizedKeys(8 << 20));
    }
}
