package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped quickstart, run as the README's first command runs it: embedded broker, in-process worker — measured
 * for 8 s instead of the file's 20 (its 5-s warm-up kept): nothing below depends on the window's length, and 12 s
 * of suite time do.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class QuickstartIT {
    @TempDir
    Path dir;

    @Test
    void shouldRunTheShippedQuickstartOnTheEmbeddedDefault() throws Exception {
        Path quickstart = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
                .resolve("workloads/quickstart.yaml");
        assertEquals(0, Main.execute("run", "--duration", "8", "--output", dir.toString(), quickstart.toString()));
        JsonNode r = new ObjectMapper().readTree(dir.resolve("result.json").toFile());
        JsonNode s = r.get("summary");
        assertEquals("COMPLETED", r.get("status").asText());
        assertEquals(s.get("sent").asLong(), s.get("acked").asLong());
        assertEquals(s.get("sent").asLong(), s.get("received").asLong());
        assertTrue(Math.abs(s.get("publishRate").asDouble() - 5000) < 5000 * 0.02, s.toString());
        // brokers on loopback: the consumers' socket buffer left to the OS, and the result says so
        assertEquals("-1", r.path("profile").path("consumer").path("receive.buffer.bytes").asText(), r.get("profile").toString());
        // the real file is valid under the published schema
        Path root = quickstart.getParent().getParent();
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(root.resolve("docs/schema/result.schema.json")), InputFormat.JSON);
        List<Error> errors = schema.validate(Files.readString(dir.resolve("result.json")), InputFormat.JSON);
        assertEquals(List.of(), errors.stream().map(Error::toString).toList());
        // the worker's own process, per interval and over the window: it used CPU (producing 5,000 msg/s is not free),
        // no more than its processors, and its heap after a collection is a share of its maximum
        JsonNode host = r.get("workers").get(0).get("host");
        assertTrue(host != null && host.get("cpuMean").asDouble() > 0 && host.get("cpuMax").asDouble() <= 1.05
                && host.get("processors").asInt() == Runtime.getRuntime().availableProcessors(), String.valueOf(host));
        // how late its paced load threads woke from their parks: measured in every interval they paced through
        assertTrue(host.path("stallMicrosMaxInterval").asLong(-1) >= 0, String.valueOf(host));
        // the host as a whole (Linux /proc/stat): how busy, every process counted, and what a hypervisor stole
        double hostBusy = host.path("hostBusyMean").asDouble(-1);
        assertTrue(hostBusy > 0 && hostBusy <= 1 && host.path("hostStealMax").asDouble(-1) >= 0, String.valueOf(host));
        // the JIT compiler threads' CPU (Linux): part of the process's, which a fresh JVM with a broker in it never lacks
        double jit = host.path("jitShareMean").asDouble(-1);
        assertTrue(jit > 0 && jit <= host.get("cpuMean").asDouble() + 1e-3 && host.path("jitShareMax").asDouble(-1) >= jit,
                String.valueOf(host));
        for (JsonNode i : r.get("intervals")) {
            assertTrue(i.has("hosts") && i.get("hosts").get("workers").asInt() == 1, i.toString());
            if (i.get("publish").get("sent").asLong() >= 1_000) {
                assertTrue(i.get("hosts").path("stallMicrosMax").asLong(-1) >= 0, i.toString());
            }
            // the embedded broker's own figures, read without any flag
            assertTrue(i.has("brokers") && i.get("brokers").get(0).get("source").asText().equals("embedded"), i.toString());
        }
        // provenance of a run on the embedded broker: `kbench run --repeat` starts one of the same size again
        JsonNode cluster = r.get("provenance").get("cluster");
        assertTrue(cluster.get("embedded").asBoolean() && cluster.get("embeddedBrokers").asInt() == 1, cluster.toString());
        assertEquals(6, cluster.get("topics").get(r.get("topics").get(0).asText()).get("partitions").asInt());

        // its report.html, opened in a real browser: no script errors, every time chart has one point per interval
        Path report = dir.resolve("report.html");
        assertTrue(Files.isRegularFile(report), "report.html next to result.json");
        Path browser = Chromium.require();
        Path profile = Files.createDirectories(dir.resolve("chromium"));
        String dom = Chromium.dumpDom(browser, report, profile);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<pre id=\"kbench-selfcheck\">([^<]*)</pre>").matcher(dom);
        assertTrue(m.find(), "the page did not run its scripts: " + dom.substring(0, Math.min(300, dom.length())));
        JsonNode check = new ObjectMapper().readTree(m.group(1).replace("&quot;", "\""));
        assertEquals(0, check.get("errors").size(), check.toString());
        assertTrue(check.get("done").asBoolean(), check.toString());
        int intervals = r.get("intervals").size();
        int timeCharts = 0;
        for (var e : (Iterable<java.util.Map.Entry<String, JsonNode>>) check.get("charts")::fields) {
            if (e.getKey().startsWith("chart-")) {
                assertEquals(intervals, e.getValue().asInt(), e.getKey() + ": one point per interval");
                timeCharts++;
            } else {
                assertEquals(51, e.getValue().asInt(), e.getKey() + ": 0% to 99.999% in 51 steps");
            }
        }
        assertTrue(timeCharts >= 9, check.toString());
        assertTrue(check.get("charts").has("chart-host-cpu"), "the worker hosts' charts: " + check);
        assertTrue(check.get("charts").has("chart-broker-produce"), "the brokers' charts: " + check);
        // a warm-up that peaked far above the measured window (a cold start's seconds) would flatten the window's
        // latency charts: they are scaled to what follows it, and say so; the same run's page with the first
        // interval's publish latency made 900 ms
        com.fasterxml.jackson.databind.node.ObjectNode cold = (com.fasterxml.jackson.databind.node.ObjectNode) r.deepCopy();
        JsonNode first = cold.get("intervals").get(0);
        assertTrue(first.get("warmup").asBoolean(), "the quickstart's first interval is warm-up");
        for (String q : List.of("p99", "p999", "p9999", "max")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) first.get("publish").get("latencyMicros")).put(q, 900_000);
        }
        Path coldDir = Files.createDirectories(dir.resolve("cold"));
        new ObjectMapper().writeValue(coldDir.resolve("result.json").toFile(), cold);
        assertEquals(0, Main.execute("report", coldDir.resolve("result.json").toString(), "-o",
                coldDir.resolve("report.html").toString()));
        java.util.regex.Matcher c = java.util.regex.Pattern.compile("<pre id=\"kbench-selfcheck\">([^<]*)</pre>")
                .matcher(Chromium.dumpDom(browser, coldDir.resolve("report.html"), profile));
        assertTrue(c.find());
        JsonNode clipped = new ObjectMapper().readTree(c.group(1).replace("&quot;", "\"")).get("clipped");
        assertEquals(900.0, clipped.path("chart-publishLatencyMicros").asDouble(), 0.001, "clipped: " + clipped);

        Path png = Path.of(System.getProperty("basedir", ".")).resolve("target/screenshots/quickstart-report.png");
        Chromium.screenshot(browser, report, png, profile);
        System.out.println("report screenshot: " + png.toAbsolutePath());
    }
}
