package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CI gate does not pass on a result that cannot back it: a failed run, or one whose generator fell behind. */
class CompareGateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The sample result with another status and count of saturated measured intervals. */
    private Path result(String name, String status, long saturated) throws IOException {
        ObjectNode r;
        try (InputStream in = CompareGateTest.class.getResourceAsStream("/result-samples/quickstart-result.json")) {
            r = (ObjectNode) JSON.readTree(in);
        }
        r.put("status", status);
        ((ObjectNode) r.get("summary")).put("saturatedIntervals", saturated);
        Path p = dir.resolve(name + ".json");
        JSON.writeValue(p.toFile(), r);
        return p;
    }

    private record Out(int code, String stdout) { }

    private static Out compare(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = Main.execute(args);
        } finally {
            System.setOut(saved);
        }
        return new Out(code, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRefuseAFailedOrSaturatedResultUnderAGateUnlessAllowed() throws IOException {
        String base = result("base", "COMPLETED", 0).toString();
        String clean = result("clean", "COMPLETED", 0).toString();
        String failed = result("failed", "FAILED", 0).toString();
        String saturated = result("saturated", "COMPLETED", 2).toString();
        String gate = "publishRate < -10%";

        Out ok = compare("compare", "--fail-if", gate, base, clean);
        assertEquals(0, ok.code(), ok.stdout());
        assertTrue(ok.stdout().contains("gates: all 1 passed"), ok.stdout());
        assertTrue(ok.stdout().contains("setup: every side ran the baseline's workload, client and topic settings, "
                + "cluster and kbench build"), ok.stdout());

        Out f = compare("compare", "--fail-if", gate, base, failed);
        assertEquals(1, f.code(), "the figures pass, the failed run does not: " + f.stdout());
        assertTrue(f.stdout().contains("refused: " + failed + ": status FAILED"), f.stdout());
        assertTrue(f.stdout().contains("gates: 0 of 1 breached; 1 result(s) refused as unfit to judge"), f.stdout());
        assertEquals(0, compare("compare", "--fail-if", gate, "--allow-failed", base, failed).code());

        Out s = compare("compare", "--fail-if", gate, saturated, clean);
        assertEquals(1, s.code(), "a saturated baseline without a diagnosis cannot back a verdict either: " + s.stdout());
        assertTrue(s.stdout().contains("refused: " + saturated + ": 2 measured interval(s) GENERATOR SATURATED and no "
                + "diagnosis"), s.stdout());
        assertEquals(0, compare("compare", "--fail-if", gate, "--allow-saturated", saturated, clean).code());

        // a middle side is not judged by the gate; without a gate nothing is refused, only warned of
        assertEquals(0, compare("compare", "--fail-if", gate, base, failed, clean).code());
        Out plain = compare("compare", base, failed);
        assertEquals(0, plain.code(), plain.stdout());
        assertTrue(plain.stdout().contains("warning: " + failed + ": status FAILED"), plain.stdout());
    }

    /** The sample result with {@code saturated} saturated intervals and a diagnosis: LIMIT, its evidence FIGURE OP. */
    private Path diagnosed(String name, long saturated, String limit, String figure, String op, boolean also)
            throws IOException {
        Path p = result(name, "COMPLETED", saturated);
        ObjectNode r = (ObjectNode) JSON.readTree(p.toFile());
        ObjectNode d = r.putObject("diagnosis");
        ObjectNode l = also ? d.put("limit", "broker-request-handlers").put("strength", 0.9)
                .putArray("alsoLimitedBy").addObject() : d;
        l.put("limit", limit).put("strength", 0.5).putArray("evidence").addObject().put("figure", figure)
                .put("value", 0.4).put("op", op).put("threshold", 0.1).put("text", "the " + figure + " evidence");
        if (also) {
            d.putArray("evidence");
        }
        JSON.writeValue(p.toFile(), r);
        return p;
    }

    @Test
    void shouldRefuseOnlyAResultWhoseGeneratorFellBehindByItsDiagnosis() throws IOException {
        String clean = result("clean", "COMPLETED", 0).toString();
        String gate = "publishRate < -10%";
        // a pause: 2 saturated intervals, the diagnosis held the generator's figures (limit none)
        String paused = diagnosed("paused", 2, "none", "saturatedShare", "<=", false).toString();
        Out p = compare("compare", "--fail-if", gate, paused, clean);
        assertEquals(0, p.code(), "a pause is judged, not refused: " + p.stdout());
        assertTrue(p.stdout().contains("note: " + paused + ": 2 measured interval(s) GENERATOR SATURATED, judged: by the "
                + "run's diagnosis the load generator did not fall behind (that takes more than 10% of the window's "
                + "intervals and at least 3, or the window short of its target)"), p.stdout());
        assertTrue(p.stdout().contains("gates: all 1 passed"), p.stdout());
        for (String[] behind : new String[][] {{"saturatedShare", ">"}, {"sentRate", "<"}, {"ackedRate", ">"}}) {
            for (boolean also : new boolean[] {false, true}) {
                String r = diagnosed("behind-" + behind[0] + also, 12, "generator", behind[0], behind[1], also).toString();
                Out b = compare("compare", "--fail-if", gate, clean, r);
                assertEquals(1, b.code(), behind[0] + (also ? " among the other limits: " : ": ") + b.stdout());
                assertTrue(b.stdout().contains("refused: " + r + ": the load generator fell behind its schedule (the "
                        + behind[0] + " evidence): its latencies include the generator's own backlog"), b.stdout());
                Out allowed = compare("compare", "--fail-if", gate, "--allow-saturated", clean, r);
                assertEquals(0, allowed.code(), allowed.stdout());
                assertTrue(!allowed.stdout().contains("note: "), "allowed: neither refused nor noted: " + allowed.stdout());
            }
        }
        // the generator named for running unthrottled or on busy cores kept whatever schedule it had
        String busy = diagnosed("busy", 0, "generator", "producerWaitRatio", "<", false).toString();
        Out u = compare("compare", "--fail-if", gate, clean, busy);
        assertEquals(0, u.code(), u.stdout());
        assertTrue(!u.stdout().contains("note: ") && !u.stdout().contains("refused: "), u.stdout());
        // another limit's saturatedShare (transactions whose commits held the load thread) is the cluster's figure
        String commits = diagnosed("commits", 12, "transactions", "saturatedShare", ">", false).toString();
        assertEquals(0, compare("compare", "--fail-if", gate, clean, commits).code());
        // without a gate the fallen-behind result is a warning, not a refusal
        Out plain = compare("compare", clean, diagnosed("plain", 12, "generator", "sentRate", "<", false).toString());
        assertEquals(0, plain.code(), plain.stdout());
        assertTrue(plain.stdout().contains("warning: "), plain.stdout());
    }

    @Test
    void shouldWriteOutControlCharactersOfAResultsNameInEveryTextFormat() throws IOException {
        String base = result("base", "COMPLETED", 0).toString();
        Path hostile = result("hostile", "FAILED", 0);
        ObjectNode r = (ObjectNode) JSON.readTree(hostile.toFile());
        ((ObjectNode) r.get("workload")).put("name", "red\u001b[31m\nline");
        ((ObjectNode) r.get("profile")).putObject("producer").put("client.id", "blue\u001b[34m\nline");
        JSON.writeValue(hostile.toFile(), r);
        for (String format : new String[] {"text", "markdown"}) {
            Out o = compare("compare", "--format", format, base, hostile.toString());
            assertEquals(0, o.code(), o.stdout());
            assertTrue(o.stdout().contains("red\\u001b[31m\\nline"), format + ": " + o.stdout());
            assertTrue(o.stdout().contains("producer.client.id unset (the client's default) -> blue\\u001b[34m\\nline"),
                    format + ": what differs in the setup, written out too: " + o.stdout());
            assertTrue(o.stdout().chars().noneMatch(c -> c == 0x1b), format + ": no escape sequence reaches the terminal");
        }
        Out text = compare("compare", base, hostile.toString());
        assertTrue(text.stdout().lines().noneMatch(l -> l.startsWith("line")), "the name stays on its line: " + text.stdout());
    }
}
