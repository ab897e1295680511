package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
