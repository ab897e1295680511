package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result file that is not JSON is refused in one line naming where the parser stopped, without the parser's own
 * source description ("[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, ...]"
 * was what compare, merge, report and --repeat printed).
 */
class ResultInputsTest {
    @TempDir
    Path dir;

    private String refusal(String name, String text, boolean streamed) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        UserException e = assertThrows(UserException.class,
                () -> { if (streamed) { ResultInputs.jsonWithoutIntervals(f); } else { ResultInputs.json(f); } });
        return e.getMessage().replace(dir + "/", "");
    }

    @Test
    void shouldSayWhereAFileIsNotJsonAndWhenItWasCutShort() throws Exception {
        for (boolean streamed : new boolean[] {false, true}) {
            assertEquals("cut.json:1:36: cannot read as JSON: the file ends inside the JSON (cut short: a copy or a "
                    + "write that did not finish?)", refusal("cut.json", "{\"schemaVersion\": 19, \"workload\": {", streamed));
            assertEquals("comma.json:3:1: cannot read as JSON: Unexpected character ('}' (code 125)): was expecting "
                    + "double-quote to start field name", refusal("comma.json", "{\n  \"a\": 1,\n}", streamed));
            assertEquals("token.json:1:7: cannot read as JSON: Unrecognized token 'tru': was expecting (JSON String, "
                    + "Number, Array, Object or token 'null', 'true' or 'false')", refusal("token.json", "{\"a\": tru}",
                    streamed));
        }
    }
}
