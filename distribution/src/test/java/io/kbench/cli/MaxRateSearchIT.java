package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kbench run --find-max-rate} against a real broker, with a generous objective and one no rate can meet:
 * the first finds a rate (bracketing upwards from the workload's), the second none, and every trial is a run of
 * its own with the reasons it failed. (How the found rate tracks an objective between those two is checked on a
 * simulated queue in MaxRateSearchTest: on this shared 2-core machine latency is flat in the rate up to the
 * broker's cliff, and noisier than any objective in between.)
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MaxRateSearchIT {
    @TempDir
    Path dir;

    @Test
    void shouldFindARateUnderAHighObjectiveAndNoneUnderAnImpossibleOne() throws Exception {
        Path workload = dir.resolve("search.yaml");
        Files.writeString(workload, """
                name: search
                partitionsPerTopic: 3
                messageSize: 256
                producersPerTopic: 2
                producerRate: 2000
                warmupSeconds: 1
                durationSeconds: 2
                """);
        Path high = dir.resolve("high");
        Path low = dir.resolve("low");
        int highCode;
        InProcessRun.Outcome lowRun;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            highCode = Main.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--output", high.toString(),
                    "--find-max-rate", "--slo", "publishResponse.p99<=5s", "--slo", "endToEnd.p99<=5s",
                    "--precision", "50", "--max-trials", "4", workload.toString());
            lowRun = InProcessRun.execute("run", "--bootstrap-servers", kafka.bootstrapServers(), "--output",
                    low.toString(), "--find-max-rate", "--slo", "publishResponse.p99<=100us", "--max-trials", "3",
                    workload.toString());
        }
        ObjectMapper json = new ObjectMapper();
        assertEquals(0, highCode);
        JsonNode found = json.readTree(high.resolve("result.json").toFile());
        JsonNode search = found.get("rateSearch");
        long max = search.get("maxSustainableRate").asLong();
        assertTrue(max >= 2000, search.toString());
        assertEquals(max, found.get("workload").get("producerRate").asLong(), "result.json is the found rate's trial");
        assertEquals(4, search.get("trials").size());
        assertEquals(2000, search.get("trials").get(0).get("targetRate").asLong());
        assertEquals(java.util.List.of("publishResponse.p99<=5s", "endToEnd.p99<=5s"),
                json.convertValue(search.get("slos"), java.util.List.class));
        for (JsonNode t : search.get("trials")) {
            JsonNode own = json.readTree(high.resolve(t.get("result").asText()).toFile());
            assertEquals(t.get("targetRate").asLong(), own.get("workload").get("producerRate").asLong());
            assertEquals("COMPLETED", own.get("status").asText());
            assertEquals(t.get("summary").get("publishRate").asDouble(), own.get("summary").get("publishRate").asDouble());
            assertEquals(2, t.get("slos").size());
            if (t.get("passed").asBoolean()) {
                assertTrue(t.get("reasons").isEmpty());
                assertTrue(t.get("achievedRate").asDouble() >= 0.99 * t.get("targetRate").asLong(), t.toString());
            }
        }
        assertTrue(Files.exists(high.resolve("report.html")));
        Path browser = Chromium.find();
        if (browser != null) { // the page lists every trial (.ci/run installs Chromium; without it this part is left out)
            String dom = Chromium.dumpDom(browser, high.resolve("report.html"),
                    Files.createDirectories(high.resolve("chromium")));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<pre id=\"kbench-selfcheck\">([^<]*)</pre>")
                    .matcher(dom);
            assertTrue(m.find(), "the page did not run its scripts");
            JsonNode check = json.readTree(m.group(1).replace("&quot;", "\""));
            assertEquals(0, check.get("errors").size(), check.toString());
            assertEquals(4, check.get("searchTrials").asInt(), check.toString());
        } else {
            System.out.println("MaxRateSearchIT: no headless Chromium here; the report page's check is left out");
        }

        assertEquals(1, lowRun.exitCode(), lowRun.stderr());
        JsonNode none = json.readTree(low.resolve("result.json").toFile()).get("rateSearch");
        assertTrue(none.get("maxSustainableRate").isNull(), none.toString());
        assertFalse(none.get("converged").asBoolean());
        assertEquals(3, none.get("trials").size(), none.toString());
        for (JsonNode t : none.get("trials")) {
            assertFalse(t.get("passed").asBoolean());
            assertTrue(t.get("reasons").toString().contains("publishResponse.p99<=100us missed: "), t.toString());
            assertTrue(t.get("targetRate").asLong() <= 2000);
        }
        assertEquals("retry", none.get("trials").get(1).get("phase").asText(), "a failed rate is run again");
        assertEquals(1000, none.get("trials").get(2).get("targetRate").asLong(), "then halved");
    }
}
