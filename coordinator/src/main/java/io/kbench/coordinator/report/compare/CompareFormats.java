package io.kbench.coordinator.report.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.workload.ConfigError;

/**
 * {@code kbench compare}'s output besides the console table: Markdown (a pull request's summary), JSON (a script's
 * input) and JUnit XML (what CI systems show as tests: one test case per gate, and one per result refused as unfit
 * to judge). Each is built from the same comparison as the table, so they never disagree.
 */
public final class CompareFormats {
    private CompareFormats() { }

    /** What one comparison found: the sides, the gates' outcomes, refusals and warnings. */
    public record Comparison(List<Compare.Side> sides, List<Compare.Gate> gates, List<String> refused,
                             List<String> warnings, List<String> setup) {
        public Comparison {
            sides = List.copyOf(sides);
            gates = List.copyOf(gates);
            refused = List.copyOf(refused);
            warnings = List.copyOf(warnings);
            setup = List.copyOf(setup);
        }

        /** A comparison without setup lines ({@link SetupDiff#lines}). */
        public Comparison(List<Compare.Side> sides, List<Compare.Gate> gates, List<String> refused, List<String> warnings) {
            this(sides, gates, refused, warnings, List.of());
        }

        List<Compare.GateOutcome> outcomes() {
            return Compare.outcomes(sides, gates);
        }

        /** True when every gate held and no result was refused (exit 0). */
        public boolean passed() {
            return refused.isEmpty() && outcomes().stream().noneMatch(Compare.GateOutcome::breached);
        }

        /** The gates' summary line, or null without gates. */
        String gatesLine() {
            if (gates.isEmpty()) {
                return null;
            }
            long breached = outcomes().stream().filter(Compare.GateOutcome::breached).count();
            return breached == 0 && refused.isEmpty() ? "gates: all " + gates.size() + " passed"
                    : "gates: " + breached + " of " + gates.size() + " breached"
                            + (refused.isEmpty() ? "" : "; " + refused.size() + " result(s) refused as unfit to judge");
        }
    }

    /** A GitHub-flavoured Markdown table, then the warnings, breaches, refusals and the gates' line as a list. */
    public static String markdown(Comparison c) {
        List<List<String>> rows = Compare.table(c.sides(), c.gates());
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            b.append('|');
            for (String cell : rows.get(r)) {
                // a result's name is a file's text: a newline or an escape sequence would break the table
                b.append(' ').append(ConfigError.printable(cell).replace("|", "\\|")).append(" |");
            }
            b.append('\n');
            if (r == 0) {
                b.append('|');
                for (int i = 0; i < rows.get(0).size(); i++) {
                    b.append(i == 0 ? "---|" : "---:|");
                }
                b.append('\n');
            }
        }
        List<String> notes = new ArrayList<>(c.setup());
        notes.addAll(c.warnings());
        c.outcomes().stream().filter(o -> o.crossed() && !o.breached()).forEach(o -> notes.add(o.line()));
        c.outcomes().stream().filter(Compare.GateOutcome::breached).forEach(o -> notes.add(o.line()));
        notes.addAll(c.refused());
        if (c.gatesLine() != null) {
            notes.add("**" + c.gatesLine() + "**");
        }
        if (!notes.isEmpty()) {
            b.append('\n');
            notes.forEach(n -> b.append("- ").append(ConfigError.printable(n).replace("|", "\\|")).append('\n'));
        }
        return b.toString();
    }

    /**
     * JSON: each side (name, runs), each figure with each side's value in result.json's units (latencies in µs),
     * the spread of its repeats and its difference from the baseline in %, each gate's outcome, the refusals and
     * warnings, and {@code passed}. A value a side lacks is null.
     */
    public static String json(Comparison c) {
        Map<String, Object> doc = new LinkedHashMap<>();
        List<Map<String, Object>> sides = new ArrayList<>();
        for (Compare.Side s : c.sides()) {
            Map<String, Object> side = ordered("name", s.name(), "runs", s.summaries().size());
            if (s.limits().stream().anyMatch(java.util.Objects::nonNull)) {
                side.put("limitedBy", s.limits()); // each run's diagnosis.limit, in the order given
            }
            sides.add(side);
        }
        doc.put("sides", sides);
        List<Map<String, Object>> figures = new ArrayList<>();
        Compare.Side base = c.sides().get(0);
        for (Compare.Figure f : Compare.figures(c.sides(), c.gates())) {
            List<Map<String, Object>> values = new ArrayList<>();
            double b = base.mean(f);
            for (int i = 0; i < c.sides().size(); i++) {
                Compare.Side s = c.sides().get(i);
                double v = s.mean(f);
                Map<String, Object> value = ordered("value", number(v), "spread", number(s.spread(f)));
                if (i > 0) {
                    value.put("vsFirstPercent", number(Compare.percent(b, v)));
                    value.put("noise", Compare.noiseVerdict(base, s, f));
                }
                values.add(value);
            }
            figures.add(ordered("figure", f.path(), "label", f.label(), "unit", f.latency() ? "us" : null,
                    "values", values));
        }
        doc.put("figures", figures);
        List<Map<String, Object>> gates = new ArrayList<>();
        for (Compare.GateOutcome o : c.outcomes()) {
            gates.add(ordered("expression", o.gate().text(), "figure", o.gate().figure().path(), "value",
                    number(o.value()), "baseline", number(o.baseline()), "limit", number(o.threshold()), "crossed",
                    o.crossed(), "noise", number(o.noise()), "breached", o.breached()));
        }
        doc.put("gates", gates);
        doc.put("refused", c.refused());
        doc.put("warnings", c.warnings());
        doc.put("setup", c.setup());
        doc.put("passed", c.passed());
        try {
            return ResultDocument.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * JUnit XML: one test suite, a test case per gate (failed when breached, with the breach as its message) and one
     * per refused result (failed), the comparison table as the suite's system-out. Without gates, no test case.
     */
    public static String junit(Comparison c) {
        List<Compare.GateOutcome> outcomes = c.outcomes();
        long failures = outcomes.stream().filter(Compare.GateOutcome::breached).count() + c.refused().size();
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append(String.format(Locale.ROOT, "<testsuite name=\"kbench compare\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
                + "skipped=\"0\">%n", outcomes.size() + c.refused().size(), failures));
        for (Compare.GateOutcome o : outcomes) {
            b.append("  <testcase classname=\"kbench.gate\" name=\"").append(xml(o.gate().text())).append('"');
            if (o.breached()) {
                b.append(">\n    <failure message=\"").append(xml(o.line())).append("\" type=\"breached\"/>\n")
                        .append("  </testcase>\n");
            } else if (o.crossed()) {
                b.append(">\n    <system-out>").append(xml(o.line())).append("</system-out>\n  </testcase>\n");
            } else {
                b.append("/>\n");
            }
        }
        for (String r : c.refused()) {
            // "refused: FILE: why": the file names the test case
            int end = r.indexOf(": ", "refused: ".length());
            String file = r.startsWith("refused: ") && end > 0 ? r.substring("refused: ".length(), end) : r;
            b.append("  <testcase classname=\"kbench.result\" name=\"fit to judge: ").append(xml(file))
                    .append("\">\n    <failure message=\"")
                    .append(xml(r)).append("\" type=\"refused\"/>\n  </testcase>\n");
        }
        StringBuilder out = new StringBuilder();
        io.kbench.coordinator.report.console.TextTable.lines(Compare.table(c.sides(), c.gates()), i -> i == 0, "", "  ")
                .forEach(l -> out.append(l).append('\n'));
        c.setup().forEach(w -> out.append(w).append('\n'));
        c.warnings().forEach(w -> out.append(w).append('\n'));
        b.append("  <system-out>").append(xml(out.toString())).append("</system-out>\n");
        b.append("</testsuite>\n");
        return b.toString();
    }

    /** Text as XML character data or attribute value: the five entities, and no control character XML 1.0 refuses. */
    static String xml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') {
                        b.append('?');
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.toString();
    }

    private static Double number(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v * 10_000) / 10_000.0;
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
