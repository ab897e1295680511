package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;

/** Runs {@code kbench} commands in this JVM (in-process workers) against a test's broker; reads result.json. */
final class InProcessRun {
    private InProcessRun() { }

    /** A command's exit code and what it printed on stderr. */
    record Outcome(int exitCode, String stderr) { }

    /** Runs {@code kbench ARGS} in this JVM and captures its stderr (no result is expected). */
    static Outcome execute(String... args) {
        java.io.PrintStream saved = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try {
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            int rc = Main.execute(args);
            return new Outcome(rc, err.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            System.setErr(saved);
        }
    }

    /** Runs {@code workload}, expects exit code 0, and returns {@code out/result.json}. */
    static JsonNode run(EmbeddedKafka kafka, Path workload, Path out, String... extraArgs) throws IOException {
        List<String> more = new ArrayList<>(List.of("--bootstrap-servers", kafka.bootstrapServers()));
        more.addAll(List.of(extraArgs));
        return run(workload, out, more);
    }

    /** Runs {@code workload} with {@code extraArgs} (which name the cluster), expects exit code 0. */
    static JsonNode run(Path workload, Path out, List<String> extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--output", out.toString()));
        args.addAll(extraArgs);
        args.add(workload.toString());
        assertEquals(0, Main.execute(args.toArray(new String[0])), "kbench " + args);
        return new ObjectMapper().readTree(out.resolve("result.json").toFile());
    }
}
