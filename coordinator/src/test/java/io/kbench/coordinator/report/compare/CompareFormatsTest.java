package io.kbench.coordinator.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.report.result.ResultDocument;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class CompareFormatsTest {
    private static JsonNode summary(double rate, long e2eP99Micros) {
        return CompareTest.summary(rate, e2eP99Micros);
    }

    private static CompareFormats.Comparison comparison(List<String> refused, String... gates) {
        List<Compare.Gate> g = java.util.Arrays.stream(gates).map(Compare.Gate::parse).toList();
        return new CompareFormats.Comparison(List.of(new Compare.Side("base <1>", List.of(summary(1000, 20_000))),
                new Compare.Side("new|run", List.of(summary(900, 30_000), summary(910, 31_000)))), g, refused,
                List.of("warning: x.json: status FAILED"));
    }

    @Test
    void jsonCarriesEveryValueInResultUnitsAndTheGatesOutcome() throws Exception {
        CompareFormats.Comparison c = comparison(List.of(), "publishRate < -5%", "endToEnd.p99 > 1s");
        JsonNode j = ResultDocument.JSON.readTree(CompareFormats.json(c));
        assertEquals(2, j.get("sides").get(1).get("runs").asInt());
        JsonNode rate = j.get("figures").get(0);
        assertEquals("publishRate", rate.get("figure").asText());
        assertEquals(1000.0, rate.get("values").get(0).get("value").asDouble());
        assertEquals(905.0, rate.get("values").get(1).get("value").asDouble());
        assertEquals(-9.5, rate.get("values").get(1).get("vsFirstPercent").asDouble(), 1e-9);
        JsonNode e2e = null;
        for (JsonNode f : j.get("figures")) {
            e2e = f.get("figure").asText().equals("endToEndLatencyMicros.p99") ? f : e2e;
        }
        assertEquals("us", e2e.get("unit").asText());
        assertEquals(30_500.0, e2e.get("values").get(1).get("value").asDouble());
        assertTrue(j.get("gates").get(0).get("breached").asBoolean(), "905 < 950");
        assertEquals(950.0, j.get("gates").get(0).get("limit").asDouble());
        assertFalse(j.get("gates").get(1).get("breached").asBoolean());
        assertFalse(j.get("passed").asBoolean());
        assertEquals(1, j.get("warnings").size());
        assertTrue(ResultDocument.JSON.readTree(CompareFormats.json(comparison(List.of(), "endToEnd.p99 > 1s")))
                .get("passed").asBoolean());
    }

    @Test
    void markdownIsATableWithTheBreachesBelowAndPipesEscaped() {
        String md = CompareFormats.markdown(comparison(List.of(), "publishRate < -5%"));
        List<String> lines = md.lines().toList();
        assertTrue(lines.get(0).startsWith("| figure | base <1> | new\\|run (2 runs) | vs first |"), lines.get(0));
        assertEquals("|---|---:|---:|---:|", lines.get(1));
        assertTrue(lines.get(2).startsWith("| publish msg/s | 1000.0 | 905.0 ±0.6% | -9.5%"), lines.get(2));
        assertTrue(md.contains("- breached: publishRate < -5% — publishRate is 905.00, limit 950.00"), md);
        assertTrue(md.contains("- **gates: 1 of 1 breached**"), md);
        assertTrue(md.contains("- warning: x.json: status FAILED"), md);
    }

    @Test
    void junitIsValidXmlWithATestCasePerGateAndPerRefusedResult() throws Exception {
        String xml = CompareFormats.junit(comparison(List.of("refused: a&b.json: status FAILED: its figures stop"),
                "publishRate < -5%", "endToEnd.p99 > 1s"));
        Document d = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        Element suite = d.getDocumentElement();
        assertEquals("testsuite", suite.getTagName());
        assertEquals("3", suite.getAttribute("tests"));
        assertEquals("2", suite.getAttribute("failures"));
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals("publishRate < -5%", ((Element) cases.item(0)).getAttribute("name"));
        assertEquals(1, ((Element) cases.item(0)).getElementsByTagName("failure").getLength());
        assertEquals(0, ((Element) cases.item(1)).getElementsByTagName("failure").getLength(), "held");
        assertEquals("fit to judge: a&b.json", ((Element) cases.item(2)).getAttribute("name"));
        assertTrue(suite.getElementsByTagName("system-out").item(0).getTextContent().contains("publish msg/s"));
    }

    @Test
    void aRelativeLimitCrossedWithinTheRepeatsNoiseIsNoBreach() {
        List<Compare.Side> noisy = List.of(new Compare.Side("base", List.of(summary(1000, 20_000), summary(1200, 20_000))),
                new Compare.Side("new", List.of(summary(900, 20_000), summary(1000, 20_000))));
        List<Compare.Gate> gates = List.of(Compare.Gate.parse("publishRate < -10%"), Compare.Gate.parse("publishRate < 990"));
        // -13.6% against a spread of 18% among the baseline's own repeats: chance can do that
        assertEquals(List.of("breached: publishRate < 990 — publishRate is 950.00, limit 990.00"),
                Compare.breaches(noisy, gates), "an absolute limit is a limit");
        List<String> within = Compare.withinNoise(noisy, gates);
        assertEquals(1, within.size());
        assertTrue(within.get(0).startsWith("within noise: publishRate < -10% — publishRate is 950.00, limit 990.00 "
                + "(baseline 1100.00); a side's repeats range over 18.2% of their mean (±9.1%), more than the 13.6% difference"),
                within.get(0));
        // the same means with tight repeats: a breach
        List<Compare.Side> tight = List.of(new Compare.Side("base", List.of(summary(1099, 20_000), summary(1101, 20_000))),
                new Compare.Side("new", List.of(summary(949, 20_000), summary(951, 20_000))));
        assertEquals(1, Compare.breaches(tight, gates.subList(0, 1)).size());
    }

    @Test
    void xmlTextLosesNoCharacterAndCarriesNoControlOne() {
        assertEquals("a&lt;b&gt;&amp;&quot;&apos;?\n", CompareFormats.xml("a<b>&\"'\u0001\n"));
    }
}
