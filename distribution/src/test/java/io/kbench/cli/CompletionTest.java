package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kbench completion} prints a script bash accepts, and it completes commands and each command's options. */
class CompletionTest {
    @TempDir
    Path dir;

    /** What bash's completion gives for the words, as when TAB is pressed after the last one. */
    private String complete(Path script, String... words) throws IOException, InterruptedException {
        String line = String.join(" ", words);
        String prev = words.length > 1 ? words[words.length - 2] : "";
        String cmd = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; _complete_kbench kbench '"
                + words[words.length - 1] + "' '" + prev + "' 2>/dev/null; echo \"${COMPREPLY[*]}\"";
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash did not finish");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    @Test
    void shouldPrintAScriptThatCompletesCommandsAndOptions() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            rc = Main.execute("completion");
        } finally {
            System.setOut(saved);
        }
        assertEquals(0, rc);
        Path script = Files.writeString(dir.resolve("kbench.bash"), out.toString(StandardCharsets.UTF_8));
        Process check = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        assertTrue(check.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, check.exitValue(), new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals("run", complete(script, "kbench", "ru"));
        assertEquals("share-consumer-perf", complete(script, "kbench", "sha"));
        assertEquals("--port", complete(script, "kbench", "worker", "--po"));
        assertEquals("--threads", complete(script, "kbench", "share-consumer-perf", "--thr"));
    }
}
