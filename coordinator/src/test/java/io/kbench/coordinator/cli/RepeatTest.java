package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/** What {@code --repeat} takes from a result besides its workload and profile: the broker settings of its run. */
class RepeatTest {
    private static final Path FILE = Path.of("r/result.json");

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void shouldRepeatACombinationsBrokerSettingsAsASweepOfOne() throws Exception {
        Map<String, String> settings = Repeat.brokerSettings(FILE, json("{\"num.io.threads\": \"1\", \"num.replica.fetchers\": 4}"));
        assertEquals(Map.of("num.io.threads", "1", "num.replica.fetchers", "4"), settings);
        Sweep one = Sweep.of(Workload.of("w", Map.of("topics", 1, "durationSeconds", 10)));
        Sweep again = Repeat.withBrokerSettings(one, settings);
        assertEquals(List.of("num.io.threads", "num.replica.fetchers"), again.brokerAxes());
        assertEquals(1, again.points().size());
        Sweep.Point p = again.points().get(0);
        assertEquals(settings, p.brokerSettings());
        assertEquals("broker.num.io.threads=1, broker.num.replica.fetchers=4", p.label());
        assertSame(one.points().get(0).workload(), p.workload());
        assertTrue(again.isSweep());
        assertSame(one, Repeat.withBrokerSettings(one, Map.of()), "none recorded: the run as it was");
    }

    @Test
    void shouldReadNoneFromAnOlderResultAndRefuseWhatIsNoBrokerSetting() throws Exception {
        assertTrue(Repeat.brokerSettings(FILE, json("{}").path("brokerSettings")).isEmpty(), "schema 13 and before");
        assertTrue(Repeat.brokerSettings(FILE, json("{\"brokerSettings\": null}").get("brokerSettings")).isEmpty());
        for (String bad : List.of("[1]", "{\"Num.IO\": \"1\"}", "{\"a\": {\"b\": 1}}",
                "{\"a\": \"" + "x".repeat(1001) + "\"}")) {
            UserException e = assertThrows(UserException.class, () -> Repeat.brokerSettings(FILE, json(bad)), bad);
            assertTrue(e.getMessage().startsWith("r/result.json: provenance.cluster.brokerSettings"), e.getMessage());
            assertFalse(e.getMessage().contains("x".repeat(200)), "one short line");
        }
    }

    @Test
    void shouldRefuseAFileThatHoldsNoRunInOneLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // an empty file (or /dev/null) was an internal error: a NullPointerException and its stack trace
        for (String text : List.of("", "  \n", "[]", "{}", "{\"merged\": []}")) {
            Path f = java.nio.file.Files.writeString(dir.resolve("result.json"), text);
            UserException e = assertThrows(UserException.class, () -> Repeat.load(f), "'" + text + "'");
            assertTrue(e.getMessage().startsWith(f + ": "), e.getMessage());
            assertTrue(e.getMessage().contains("repeat"), e.getMessage());
        }
    }
}
