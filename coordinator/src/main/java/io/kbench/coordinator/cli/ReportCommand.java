package io.kbench.coordinator.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.HtmlReport;
import io.kbench.coordinator.report.result.ResultFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench report}: builds report.html again from one or more results, overlaid. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Builds report.html from results.",
            "",
            "One self-contained page (nothing is fetched when it is opened): rates against the target, latency percentiles over time, each metric's percentile distribution from the exact merged histograms, consumer lag, client metrics, the per-worker table. Several results are overlaid on the same charts. Every run writes its own report.html already; this rebuilds it or compares runs."})
public final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RESULT", description = "result.json files of runs (or directories holding one).")
    List<Path> results;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Where to write the page (default: report.html next to a single result, ./report.html for several).")
    Path output;

    @Override
    public Integer call() {
        List<HtmlReport.Named> runs = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        List<Path> files = new ArrayList<>();
        for (Path p : results) { // every path checked before any file is read
            files.add(ResultInputs.file(p, seen, ""));
        }
        Path target = output != null ? output
                : results.size() == 1 ? resultDir(results.get(0)).resolve("report.html") : Path.of("report.html");
        target = ResultInputs.pageTarget(target, output != null ? "--output " : "");
        for (Path file : files) {
            if (!ResultInputs.readableWhole(file)) { // a run of days: its intervals go to disk, not the heap
                ResultFile.Run run = ResultInputs.drawableStream(file);
                runs.add(new HtmlReport.Named(ResultInputs.name(run), run));
                continue;
            }
            JsonNode tree = ResultInputs.json(file);
            if (tree != null && tree.has("merged") && !tree.has("intervals")) {
                throw new UserException(file + ": a merged result has no intervals to chart; give the results it merged");
            }
            ResultFile.Run run = ResultInputs.drawable(file, tree);
            String name = ResultInputs.name(run);
            runs.add(new HtmlReport.Named(name, run));
        }
        String title = runs.size() == 1 ? "kbench " + runs.get(0).name()
                : "kbench: " + String.join(" vs ", runs.stream().map(HtmlReport.Named::name).toList());
        ResultInputs.writePage(target, output != null ? "--output " : "", title, runs);
        System.out.println("report: " + target);
        return 0;
    }

    private static Path resultDir(Path p) {
        Path abs = p.toAbsolutePath();
        return Files.isDirectory(abs) ? abs : abs.getParent();
    }
}
