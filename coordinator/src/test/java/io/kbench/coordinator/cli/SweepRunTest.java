package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.Written;
import io.kbench.coordinator.run.RunOutcome;
import io.kbench.coordinator.workload.Sweep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep primes its JVMs with its first combination, unmeasured, before the combinations run. */
class SweepRunTest {
    @TempDir
    Path dir;

    private record Call(Sweep.Point point, Path dir) { }

    private Sweep sweep() throws Exception {
        return Sweep.load(Files.writeString(dir.resolve("w.yaml"), """
                producerRate: 1000
                numRecords: 5000
                faults: [{at: 2, action: stop, broker: 1}]
                matrix:
                  producer.acks: [1, all]
                """));
    }

    private static RunOutcome outcome(boolean completed) {
        return new RunOutcome(completed, null, completed ? null : "failed", null, null, List.of(), 0, 0);
    }

    @Test
    void shouldRunTheFirstCombinationUnmeasuredFirstAsLoadAlone() throws Exception {
        List<Call> calls = new ArrayList<>();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Path out = dir.resolve("out");
        int code = new SweepRun(sweep(), out, new PrintStream(console, true, StandardCharsets.UTF_8), new Written(), 3)
                .run((p, d) -> {
                    calls.add(new Call(p, d));
                    return outcome(true);
                }, () -> false);
        assertEquals(0, code);
        assertEquals(3, calls.size(), "the priming run, then the two combinations");
        Call priming = calls.get(0);
        assertEquals(out.resolve("00-priming"), priming.dir());
        assertEquals("1", priming.point().profileOverrides().get("producer.acks"), "the first combination's settings");
        assertEquals(3, priming.point().workload().durationSeconds(), "timed, although the workload sends a count");
        assertEquals(0, priming.point().workload().numRecords());
        assertEquals(0, priming.point().workload().warmupSeconds());
        assertTrue(priming.point().workload().faults().isEmpty(), "load, not a test: no faults");
        assertEquals(1000, priming.point().workload().producerRate());
        assertEquals(5000, calls.get(1).point().workload().numRecords(), "the combinations as the file has them");
        assertEquals(1, calls.get(1).point().workload().faults().size());
        String text = console.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("=== sweep: priming with producer.acks=1 for 3 s, unmeasured"), text);
        assertTrue(text.contains("sweep: 2 combination(s), after 3 s of the first one unmeasured to prime the JVMs "
                + "(00-priming)"), text);
        JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertEquals(3, json.get("priming").get("seconds").asInt());
        assertEquals("COMPLETED", json.get("priming").get("status").asText());
        assertEquals(2, json.get("runs").size(), "the priming run is not a row");
    }

    @Test
    void shouldGoOnWhenThePrimingRunFailsOrIsRefusedAndSaySo() throws Exception {
        for (boolean refused : new boolean[] {true, false}) {
            List<Call> calls = new ArrayList<>();
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            Path out = dir.resolve("out-" + refused);
            int code = new SweepRun(sweep(), out, new PrintStream(console, true, StandardCharsets.UTF_8), new Written(), 5)
                    .run((p, d) -> {
                        calls.add(new Call(p, d));
                        if (calls.size() == 1) {
                            if (refused) {
                                throw new UserException("the cluster refused it");
                            }
                            return outcome(false);
                        }
                        return outcome(true);
                    }, () -> false);
            assertEquals(0, code, "the combinations completed: the priming run's failure is not the sweep's");
            assertEquals(3, calls.size());
            String text = console.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains(refused ? "priming failed: the cluster refused it; the first combination's row is a "
                    + "cold start's" : "priming failed: the first combination's row is a cold start's"), text);
            assertTrue(text.contains(refused ? "sweep: 2 combination(s), its priming run was refused: the first row may "
                    + "be a cold start's" : "sweep: 2 combination(s), its priming run (the first one unmeasured, "
                    + "00-priming) did not complete: the first row may be a cold start's"), text);
            assertEquals(refused ? "REFUSED" : "FAILED", new ObjectMapper().readTree(out.resolve("sweep.json").toFile())
                    .get("priming").get("status").asText());
        }
    }

    @Test
    void shouldNotPrimeWithZeroOrOnceInterrupted() throws Exception {
        List<Call> calls = new ArrayList<>();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Path out = dir.resolve("out");
        new SweepRun(sweep(), out, new PrintStream(console, true, StandardCharsets.UTF_8), new Written(), 0)
                .run((p, d) -> {
                    calls.add(new Call(p, d));
                    return outcome(true);
                }, () -> false);
        assertEquals(2, calls.size());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("sweep: 2 combination(s), not primed: "
                + "the first row ran on JVMs new to this load"));
        assertFalse(new ObjectMapper().readTree(out.resolve("sweep.json").toFile()).has("priming"));
        calls.clear();
        new SweepRun(sweep(), dir.resolve("stopped"), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new Written(), 30).run((p, d) -> {
                    calls.add(new Call(p, d));
                    return outcome(true);
                }, () -> true);
        assertTrue(calls.isEmpty(), "Ctrl-C before the sweep: nothing runs, not even the priming");
    }

    /**
     * A matrix value of 20,000 characters (a client.id) named its combination's directory with all of them: the sweep
     * primed and ran its first combination, then the second failed on "File name too long".
     */
    @Test
    void shouldKeepACombinationsDirectoryNameWithinWhatAFileSystemTakes() throws Exception {
        String x = "x".repeat(20_000);
        Sweep sweep = Sweep.load(Files.writeString(dir.resolve("long.yaml"), "producerRate: 100\ndurationSeconds: 1\n"
                + "matrix:\n  producer.client.id: [a, " + x + ", " + x + "y]\n"));
        List<Path> dirs = SweepRun.directories(sweep, dir.resolve("out"), 0);
        assertEquals("01-producer.client.id=a", dirs.get(0).getFileName().toString());
        for (Path d : dirs.subList(1, 3)) {
            assertTrue(d.getFileName().toString().length() <= 3 + SweepRun.LABEL_IN_NAME + 9, d.getFileName().toString());
            Files.createDirectories(d); // what the file system takes
        }
        assertFalse(dirs.get(1).getFileName().toString().substring(3).equals(dirs.get(2).getFileName().toString().substring(3)),
                "two long labels alike at the start: two directories");
    }
}
