package io.kbench.coordinator.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kbench.coordinator.report.result.ResultDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompareTest {
    /** A result's summary with the headline figures (shared with CompareFormatsTest). */
    static JsonNode summary(double rate, long e2eP99Micros) {
        ObjectNode s = ResultDocument.JSON.createObjectNode();
        s.put("publishRate", rate).put("consumeRate", rate).put("failed", 0).put("saturatedIntervals", 0);
        s.putObject("endToEndLatencyMicros").put("p50", e2eP99Micros / 2).put("p99", e2eP99Micros).put("p999", e2eP99Micros * 2);
        s.putObject("publishLatencyMicros").put("p50", 1000).put("p99", 2000);
        s.putObject("publishResponseMicros").put("p99", 3000).put("p999", 4000);
        return s;
    }

    private static Compare.Side side(String name, JsonNode... s) {
        return new Compare.Side(name, List.of(s));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        // expression; baseline rate; baseline e2e p99 µs; candidate rate; candidate e2e p99 µs; breached
        "publishRate < -10%; 10000; 5000; 9100; 5000; false",
        "publishRate < -10%; 10000; 5000; 8999; 5000; true",
        "endToEnd.p99 > 50ms; 10000; 5000; 10000; 50000; false",
        "endToEnd.p99 > 50ms; 10000; 5000; 10000; 50001; true",
        "endToEndLatencyMicros.p99 > +5%; 10000; 40000; 10000; 42000; false",
        "endToEndLatencyMicros.p99 > +5%; 10000; 40000; 10000; 42001; true",
        "endToEnd.p99.9 > 1s; 10000; 5000; 10000; 400000; false",
        "endToEnd.p99.9 > 1s; 10000; 5000; 10000; 600000; true",
        "publishRate < 20000; 30000; 5000; 19999.5; 5000; true",
    })
    void shouldJudgeTheLastSideAgainstTheBaseline(String expr, double baseRate, long baseE2e, double rate, long e2e,
                                                  boolean breached) {
        Compare.Gate g = Compare.Gate.parse(expr);
        List<String> lines = Compare.breaches(List.of(side("a", summary(baseRate, baseE2e)), side("b", summary(rate, e2e))),
                List.of(g));
        assertEquals(breached ? 1 : 0, lines.size(), lines.toString());
        if (breached) {
            assertTrue(lines.get(0).startsWith("breached: " + expr.strip()), lines.get(0));
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
        "publishRate <= 10; not FIGURE OP LIMIT",
        "bogus.p99 > 5ms; unknown figure 'bogus.p99'",
        "endToEnd.p99 > 50; is a time: give a unit",
        "publishRate < 10ms; is not a time",
        "publishRate < 10%; a relative limit needs its sign",
        "''; not FIGURE OP LIMIT",
    })
    void shouldRefuseMalformedExpressionsWithOneLine(String expr, String says) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compare.Gate.parse(expr));
        assertTrue(e.getMessage().contains(says), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void shouldTellADifferenceBeyondTheNoiseOfRepeatsFromOneWithin() {
        Compare.Side base = side("base", summary(10_000, 10_000), summary(10_200, 10_400), summary(9_800, 9_600));
        Compare.Side same = side("same", summary(10_100, 10_100), summary(9_900, 9_900));
        Compare.Side slower = side("slower", summary(8_000, 20_000), summary(8_100, 20_500));
        List<List<String>> t = Compare.table(List.of(base, same, slower), List.of());
        List<String> rate = t.stream().filter(r -> r.get(0).equals("publish msg/s")).findFirst().orElseThrow();
        assertEquals("10000.0 ±2.0%", rate.get(1));
        List<String> saturated = t.stream().filter(r -> r.get(0).equals("saturated intervals")).findFirst().orElseThrow();
        assertEquals("0.0 ±0.0%", saturated.get(1), "a mean of repeats keeps its decimal");
        assertEquals("+0.0% (within noise)", rate.get(3));
        assertEquals("-19.5% (beyond noise)", rate.get(5));
        List<String> e2e = t.stream().filter(r -> r.get(0).equals("e2e p99 ms")).findFirst().orElseThrow();
        assertEquals("+102.5% (beyond noise)", e2e.get(5));
        List<List<String>> single = Compare.table(List.of(side("a", summary(100, 1000)), side("b", summary(90, 1000))),
                List.of(Compare.Gate.parse("publishLatency.p75 > 1ms")));
        assertEquals("-10.0%", single.get(1).get(3), "no repeats: no noise verdict");
        assertEquals("publishLatencyMicros.p75", single.get(single.size() - 1).get(0), "a gate's figure gets a row");
    }

    @Test
    void shouldHoldARelativeGateOnlyWhenTheDifferenceItselfIsWithinTheNoise() {
        // the baseline's repeats range over 40% of their mean (8 and 12 ms); the gate allows +25%
        Compare.Side base = side("base", summary(10_000, 8_000), summary(10_000, 12_000));
        Compare.Gate g = Compare.Gate.parse("endToEnd.p99 > +25%");
        Compare.GateOutcome within = Compare.outcomes(List.of(base, side("c", summary(10_000, 13_500),
                summary(10_000, 13_500))), List.of(g)).get(0);
        assertTrue(within.crossed() && !within.breached(), "35% slower, within the 40% the repeats range over: "
                + within.line());
        assertTrue(within.line().startsWith("within noise: "), within.line());
        Compare.GateOutcome beyond = Compare.outcomes(List.of(base, side("c", summary(10_000, 14_500),
                summary(10_000, 14_500))), List.of(g)).get(0);
        assertTrue(beyond.breached(), "45% slower is beyond the noise, though the limit is crossed by only 20 points: "
                + beyond.line());
    }

    @Test
    void shouldCompareAndGateTheShareGroupsFiguresOnlyWhereThereAreAny() {
        JsonNode plain = summary(1000, 1000);
        ObjectNode withShare = (ObjectNode) summary(1000, 1000);
        withShare.putObject("share").put("rate", 900).put("acceptRate", 880).put("redelivered", 12).put("unsettled", 0)
                .putObject("acceptLatencyMicros").put("p99", 250_000);
        ObjectNode slower = withShare.deepCopy();
        ((ObjectNode) slower.get("share")).put("acceptRate", 700);
        List<List<String>> none = Compare.table(List.of(side("a", plain), side("b", plain)), List.of());
        assertTrue(none.stream().noneMatch(r -> r.get(0).startsWith("share")), "no share rows without share groups");
        List<List<String>> t = Compare.table(List.of(side("a", withShare), side("b", slower)), List.of());
        List<String> accepted = t.stream().filter(r -> r.get(0).equals("share accepted/s")).findFirst().orElseThrow();
        assertEquals("880.0", accepted.get(1));
        assertEquals("-20.5%", accepted.get(3));
        List<String> p99 = t.stream().filter(r -> r.get(0).equals("share acc p99 ms")).findFirst().orElseThrow();
        assertEquals("250.00", p99.get(1));
        List<String> redelivered = t.stream().filter(r -> r.get(0).equals("share redelivered")).findFirst().orElseThrow();
        assertEquals("12", redelivered.get(1), "a count of one result is whole");
        assertEquals(List.of(), Compare.breaches(List.of(side("a", withShare), side("b", withShare)),
                List.of(Compare.Gate.parse("share.acceptRate < -10%"))));
        assertEquals(1, Compare.breaches(List.of(side("a", withShare), side("b", slower)),
                List.of(Compare.Gate.parse("share.acceptRate < -10%"))).size());
        assertEquals(1, Compare.breaches(List.of(side("a", withShare), side("b", slower)),
                List.of(Compare.Gate.parse("share.acceptLatencyMicros.p99 > 200ms"))).size());
        assertThrows(IllegalArgumentException.class, () -> Compare.Gate.parse("share.bogus > 1"));
        assertEquals(1, Compare.breaches(List.of(side("a", withShare), side("b", plain)),
                List.of(Compare.Gate.parse("share.acceptRate < -10%"))).size(), "a figure that went away breaches");
    }

    /**
     * A share-group run has no classic consumers: its consume rate and end-to-end latency are absent ("–"), not 0 —
     * against a classic run's they read as -100% — and a relative gate on a figure its baseline lacks cannot be
     * judged, so it breaches instead of passing a pipeline.
     */
    @Test
    void shouldLeaveOutWhatARunCouldNotHaveAndNotPassAGateItCannotJudge() {
        JsonNode classic = summary(3000, 20_000);
        ObjectNode shareOnly = (ObjectNode) summary(3000, 20_000);
        shareOnly.put("consumeRate", 0).putObject("endToEndLatencyMicros").put("p50", 0).put("p99", 0).put("p999", 0);
        JsonNode workload = ResultDocument.JSON.createObjectNode().put("subscriptionsPerTopic", 0)
                .put("shareGroupsPerTopic", 1);
        JsonNode applicable = Compare.applicable(shareOnly, workload);
        List<List<String>> t = Compare.table(List.of(side("classic", classic), side("share", applicable)), List.of());
        assertEquals(List.of("consume msg/s", "3000.0", "–", "–"), t.stream().filter(r -> r.get(0).equals("consume msg/s"))
                .findFirst().orElseThrow());
        assertEquals(List.of("e2e p99 ms", "20.00", "–", "–"), t.stream().filter(r -> r.get(0).equals("e2e p99 ms"))
                .findFirst().orElseThrow());
        assertEquals("3000.0", t.stream().filter(r -> r.get(0).equals("publish msg/s")).findFirst().orElseThrow().get(2));
        assertEquals(0, shareOnly.get("consumeRate").asInt(), "the summary given is not changed");
        assertEquals(classic, Compare.applicable(classic, ResultDocument.JSON.createObjectNode()), "defaults: 1 each");
        List<String> b = Compare.breaches(List.of(side("share", applicable), side("classic", classic)),
                List.of(Compare.Gate.parse("consumeRate < -10%")));
        assertEquals(List.of("breached: consumeRate < -10% — consumeRate is 3000.00, limit unknown (the baseline does not "
                + "have it)"), b);
    }

    /** A backlog run's end-to-end figures hold the backlog's wait: the catch-up and the latency after it get rows. */
    @Test
    void shouldCompareTheCatchUpOnlyWhereASideReadABacklog() {
        JsonNode plain = summary(1000, 1000);
        ObjectNode backlog = (ObjectNode) summary(1000, 10_000_000);
        backlog.putObject("catchUp").put("rate", 80_000.0).put("seconds", 1.25).put("backlogRecords", 100_000)
                .putObject("endToEndAfterMicros").put("p99", 9_960);
        ObjectNode slower = backlog.deepCopy();
        ((ObjectNode) slower.get("catchUp")).put("rate", 60_000.0).put("seconds", 1.7)
                .putObject("endToEndAfterMicros").put("p99", 30_000);
        assertTrue(Compare.table(List.of(side("a", plain), side("b", plain)), List.of()).stream()
                .noneMatch(r -> r.get(0).startsWith("catch-up")), "no catch-up rows without a backlog");
        List<List<String>> t = Compare.table(List.of(side("a", backlog), side("b", slower)), List.of());
        assertEquals(List.of("catch-up msg/s", "80000.0", "60000.0", "-25.0%"), t.stream()
                .filter(r -> r.get(0).equals("catch-up msg/s")).findFirst().orElseThrow());
        assertEquals(List.of("catch-up s", "1.250", "1.700", "+36.0%"), t.stream()
                .filter(r -> r.get(0).equals("catch-up s")).findFirst().orElseThrow());
        assertEquals(List.of("e2e p99 after catch-up ms", "9.96", "30.00", "+201.2%"), t.stream()
                .filter(r -> r.get(0).equals("e2e p99 after catch-up ms")).findFirst().orElseThrow());
        assertEquals(1, Compare.breaches(List.of(side("a", backlog), side("b", slower)),
                List.of(Compare.Gate.parse("catchUp.endToEndAfterMicros.p99 > 20ms"))).size());
        assertEquals(1, Compare.breaches(List.of(side("a", backlog), side("b", slower)),
                List.of(Compare.Gate.parse("catchUp.rate < -10%"))).size());
        assertThrows(IllegalArgumentException.class, () -> Compare.Gate.parse("catchUp.bogus > 1"));
    }

    @Test
    void shouldCompareTheCommitsOnlyWhereASideCommittedTransactions() {
        JsonNode plain = summary(1000, 1000);
        ((ObjectNode) plain).putObject("transactionCommitMicros").put("count", 0).put("p50", 0).put("p99", 0).put("max", 0);
        ObjectNode committed = (ObjectNode) summary(1000, 1000);
        committed.putObject("transactionCommitMicros").put("count", 200).put("p50", 8_000).put("p99", 41_000)
                .put("max", 47_000);
        ObjectNode bigger = committed.deepCopy();
        ((ObjectNode) bigger.get("transactionCommitMicros")).put("count", 20).put("p50", 9_000).put("p99", 20_500)
                .put("max", 23_000);
        List<List<String>> none = Compare.table(List.of(side("a", plain), side("b", plain)), List.of());
        assertTrue(none.stream().noneMatch(r -> r.get(0).startsWith("commit")), "no commit rows without transactions");
        List<List<String>> t = Compare.table(List.of(side("100 per txn", committed), side("1000 per txn", bigger)),
                List.of());
        List<String> p99 = t.stream().filter(r -> r.get(0).equals("commit p99 ms")).findFirst().orElseThrow();
        assertEquals(List.of("commit p99 ms", "41.00", "20.50", "-50.0%"), p99);
        assertTrue(t.stream().anyMatch(r -> r.get(0).equals("commit p50 ms")));
        assertTrue(t.stream().anyMatch(r -> r.get(0).equals("commit max ms")));
        assertEquals(1, Compare.breaches(List.of(side("a", bigger), side("b", committed)),
                List.of(Compare.Gate.parse("transactionCommit.p99 > 30ms"))).size());
    }
    @Test
    void shouldSayWhatLimitedEachSidesRunsBelowTheFigures() throws Exception {
        List<List<String>> rows = Compare.table(List.of(
                new Compare.Side("a", List.of(summary(10_000, 5000), summary(10_000, 5000)), List.of("none", "none")),
                new Compare.Side("b", List.of(summary(9_000, 5000), summary(9_000, 5000), summary(9_000, 5000)),
                        java.util.Arrays.asList("none", "generator", "generator")),
                new Compare.Side("merged", List.of(summary(9_000, 5000)), java.util.Arrays.asList((String) null))),
                List.of());
        List<String> last = rows.get(rows.size() - 1);
        assertEquals(List.of("limited by", "none", "generator ×2, none ×1", "", "–", ""), last,
                "one name when the repeats agree, else each with its count, most first; – when none was diagnosed");
        // results without diagnoses (sides made without limits): no such row
        List<List<String>> plain = Compare.table(List.of(side("a", summary(10_000, 5000)), side("b", summary(9_000, 5000))),
                List.of());
        assertTrue(plain.stream().noneMatch(r -> r.get(0).equals("limited by")), plain.toString());
        String json = CompareFormats.json(new CompareFormats.Comparison(List.of(
                new Compare.Side("a", List.of(summary(10_000, 5000)), List.of("none")),
                new Compare.Side("b", List.of(summary(9_000, 5000)), List.of("producer-client"))), List.of(), List.of(),
                List.of()));
        assertTrue(json.contains("\"limitedBy\" : [ \"producer-client\" ]"), json);
    }
}
