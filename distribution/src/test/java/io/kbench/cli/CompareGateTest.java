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
        assertEquals(1, s.code(), "a saturated baseline cannot back a verdict either: " + s.stdout());
        assertTrue(s.stdout().contains("refused: " + saturated + ": 2 measured interval(s) GENERATOR SATURATED"),
                s.stdout());
        assertEquals(0, compare("compare", "--fail-if", gate, "--allow-saturated", saturated, clean).code());

        // a middle side is not judged by the gate; without a gate nothing is refused, only warned of
        assertEquals(0, compare("compare", "--fail-if", gate, base, failed, clean).code());
        Out plain = compare("compare", base, failed);
        assertEquals(0, plain.code(), plain.stdout());
        assertTrue(plain.stdout().contains("warning: " + failed + ": status FAILED"), plain.stdout());
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
