package io.kbench.coordinator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.compare.Compare;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.workload.ConfigError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench compare}: results side by side, and a performance gate for CI pipelines. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares results side by side; gates a CI pipeline on them.",
            "",
            "Each SIDE is a result.json (or its directory; a merged one of kbench merge too, without a page), or several joined with ',' — repeats of one setup, whose spread is the run-to-run noise. The first side is the baseline: every other side shows its difference in %%, and, where both sides have repeats, whether the difference is beyond the noise; a last row says what limited each side's runs (their diagnosis: a side limited by its load generator measures that as much as the change). With --fail-if, the last side is judged against the baseline: exit 1 listing each breached threshold, 0 when none is breached, 2 for a malformed expression. When both sides have repeats, a relative limit (-10%%, +5%%) crossed by a difference that is itself no larger than their run-to-run noise (the larger spread of either side's repeats, as a share of its mean) is not a breach: it is listed as 'within noise'.",
            "",
            "A gate does not pass on a result that cannot back it: one of the baseline or the judged side whose status is not COMPLETED, or whose load generator fell behind its schedule by the run's own diagnosis (more than 10%% of the measured intervals generator-saturated and at least 3, the window sent short of its target, or a warm-up's backlog acknowledged in it), is a breach of its own (exit 1) unless --allow-failed / --allow-saturated say otherwise; without --fail-if such results get a warning line. Fewer saturated intervals are a pause of the generator's host: the result is judged, with a note.",
            "",
            "The comparison ends with what differs between each side's setup and the baseline's — the workload's keys, the client and topic settings, the brokers' configs, the numbers of brokers and workers, the kbench build — since a difference in the table is the change's only when nothing else changed; repeats that are not of one setup get a warning."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(arity = "2..*", paramLabel = "SIDE", description = "Results to compare, the baseline first; A,B,C for repeats.")
    List<String> sides;

    @Option(names = "--fail-if", paramLabel = "EXPR",
            description = "Fails (exit 1) when the last side meets EXPR = FIGURE OP LIMIT: FIGURE a summary figure of result.json "
                    + "(publishRate, endToEndLatencyMicros.p99, or short: endToEnd.p99, publishResponse.p99.9), OP < or >, LIMIT "
                    + "relative to the baseline (-10%%, +5%%) or absolute (50ms, 2s, 500us for latencies; 20000). Repeatable.")
    List<String> failIf = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Also write report.html with every result overlaid.")
    Path output;

    @Option(names = "--allow-failed", description = "Let a gate judge results whose status is FAILED (their figures stop "
            + "where the run failed).")
    boolean allowFailed;

    /** How the comparison is printed on stdout. */
    enum Format { text, json, markdown, junit }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "How the comparison is printed on stdout: text (the table, default), json (every figure's "
                    + "values, the gates' outcomes, 'passed'), markdown (a table for a pull request's summary) or junit "
                    + "(JUnit XML for CI systems: a test case per gate and per refused result). With json and junit the "
                    + "'report:' line goes to stderr. The exit code is the same for every format.")
    Format format;

    @Option(names = "--allow-saturated", description = "Let a gate judge results whose load generator fell behind its "
            + "schedule (their latencies include its backlog).")
    boolean allowSaturated;

    @Override
    public Integer call() throws IOException {
        List<Compare.Gate> gates = new ArrayList<>();
        for (String g : failIf) {
            try {
                gates.add(Compare.Gate.parse(g));
            } catch (IllegalArgumentException e) {
                throw new UserException(e.getMessage());
            }
        }
        Set<Path> seen = new HashSet<>();
        List<List<Path>> files = new ArrayList<>();
        for (String side : sides) {
            List<Path> group = new ArrayList<>();
            for (String part : side.split(",", -1)) {
                if (part.isBlank()) {
                    throw new UserException("'" + side + "': an empty result name; join repeats with ',' and nothing else");
                }
                group.add(ResultInputs.file(Path.of(part.strip()), seen, ""));
            }
            files.add(group);
        }
        Path page = output == null ? null : ResultInputs.pageTarget(output, "--output ");
        List<Compare.Side> compared = new ArrayList<>();
        List<HtmlReport.Named> runs = new ArrayList<>();
        List<String> unfit = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<List<java.util.Map<String, String>>> setups = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int s = 0; s < files.size(); s++) {
            List<JsonNode> summaries = new ArrayList<>();
            List<String> limits = new ArrayList<>();
            List<java.util.Map<String, String>> sideSetups = new ArrayList<>();
            String name = null;
            for (Path file : files.get(s)) {
                ResultFile.Run run = page != null ? ResultInputs.drawable(file, ResultInputs.json(file))
                        : ResultInputs.comparable(file, ResultInputs.jsonWithoutIntervals(file));
                String runName = ResultInputs.name(run);
                name = name == null ? runName : name;
                summaries.add(Compare.applicable(ResultDocument.JSON.valueToTree(run.summary()), run.workload()));
                limits.add(run.diagnosis() == null ? null : run.diagnosis().limit());
                sideSetups.add(io.kbench.coordinator.report.compare.SetupDiff.setup(run));
                runs.add(new HtmlReport.Named(runName, run));
                String why = Compare.unfit(run.status(), run.summary().saturatedIntervals(), run.diagnosis(),
                        allowFailed, allowSaturated);
                if (why != null) {
                    boolean judged = !gates.isEmpty() && (s == 0 || s == files.size() - 1);
                    (judged ? unfit : warnings).add((judged ? "refused: " : "warning: ") + file + ": " + why);
                } else if (!allowSaturated) {
                    String note = Compare.saturationNote(run.summary().saturatedIntervals(), run.diagnosis());
                    if (note != null) {
                        warnings.add("note: " + file + ": " + note);
                    }
                }
            }
            compared.add(new Compare.Side(name, summaries, limits));
            setups.add(sideSetups);
            names.add(name);
        }
        // a difference in the table is the change's only when nothing else changed: say what else did
        List<String> setup = io.kbench.coordinator.report.compare.SetupDiff.lines(names, setups);
        io.kbench.coordinator.report.compare.CompareFormats.Comparison comparison =
                new io.kbench.coordinator.report.compare.CompareFormats.Comparison(compared, gates, unfit, warnings, setup);
        if (format != Format.text) {
            if (page != null) {
                ResultInputs.writePage(page, "--output ", "kbench compare", runs);
                (format == Format.markdown ? System.out : System.err).println("report: " + page);
            }
            System.out.print(switch (format) {
                case json -> io.kbench.coordinator.report.compare.CompareFormats.json(comparison);
                case junit -> io.kbench.coordinator.report.compare.CompareFormats.junit(comparison);
                default -> io.kbench.coordinator.report.compare.CompareFormats.markdown(comparison);
            });
            System.out.flush();
            return comparison.passed() ? ExitCodes.OK : ExitCodes.FAILED;
        }
        print(Compare.table(compared, gates));
        if (page != null) {
            ResultInputs.writePage(page, "--output ", "kbench compare", runs);
            say("report: " + page);
        }
        setup.forEach(CompareCommand::say);
        warnings.forEach(CompareCommand::say);
        List<String> breaches = Compare.breaches(compared, gates);
        Compare.withinNoise(compared, gates).forEach(CompareCommand::say);
        breaches.forEach(CompareCommand::say);
        unfit.forEach(CompareCommand::say);
        if (!gates.isEmpty()) {
            System.out.println(breaches.isEmpty() && unfit.isEmpty() ? "gates: all " + gates.size() + " passed"
                    : "gates: " + breaches.size() + " of " + gates.size() + " breached"
                            + (unfit.isEmpty() ? "" : "; " + unfit.size() + " result(s) refused as unfit to judge"));
        }
        return breaches.isEmpty() && unfit.isEmpty() ? 0 : 1;
    }

    /** The table, its cells written out first: a result's name or a path is a file's text (no control character). */
    private static void print(List<List<String>> rows) {
        List<List<String>> shown = rows.stream().map(r -> r.stream().map(ConfigError::printable).toList()).toList();
        io.kbench.coordinator.report.console.TextTable.lines(shown, i -> i == 0, "", "  ").forEach(System.out::println);
    }

    /** A line that holds a result's name or path, its control characters written out. */
    private static void say(String line) {
        System.out.println(ConfigError.printable(line));
    }
}
