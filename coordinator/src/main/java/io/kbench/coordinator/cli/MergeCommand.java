package io.kbench.coordinator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.files.OutputDirectory;
import io.kbench.coordinator.report.console.ProgressPrinter;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.compare.ResultMerge;
import io.kbench.coordinator.report.RunEvent;
import io.kbench.coordinator.run.RunIds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kbench merge}: combines results of runs that ran at the same time into one result.json. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Combines results of concurrent runs into one.",
            "",
            "For runs that loaded one cluster at the same time (for example from two coordinators): counts and rates add, and the encoded histograms are added, so every percentile is exact over all samples. Writes result.json and prints the summary."})
public final class MergeCommand implements Callable<Integer> {
    @Parameters(arity = "2..*", paramLabel = "RESULT", description = "result.json files (or directories holding one).")
    List<Path> results;

    @Option(names = "--output", paramLabel = "DIR", description = "Directory for the merged result.json (default: results/merged-<id>).")
    Path output;

    @Override
    public Integer call() throws IOException {
        List<ResultMerge.Source> sources = new ArrayList<>();
        java.util.Set<Path> seen = new java.util.HashSet<>();
        for (Path p : results) {
            Path file = ResultInputs.file(p, seen, "; each result may be merged once");
            sources.add(new ResultMerge.Source(file.toString(), ResultInputs.jsonWithoutIntervals(file)));
        }
        Path dir = output != null ? output : RunIds.defaultOutput("merged", RunIds.next());
        boolean created = OutputDirectory.prepare(dir, output != null ? "--output" : "results directory");
        ResultMerge.Merged merged;
        try {
            merged = ResultMerge.combine(sources);
        } catch (IllegalArgumentException e) {
            if (created) {
                OutputDirectory.removeIfEmpty(dir);
            }
            throw new UserException(e.getMessage());
        }
        Path file;
        try {
            file = ResultDocument.write(dir, merged.document());
        } catch (IOException e) {
            throw new UserException("cannot write " + dir.resolve("result.json") + ": " + e.getMessage());
        }
        ProgressPrinter printer = new ProgressPrinter(System.out);
        printer.on(new RunEvent.Summarized("kbench merge of " + sources.size() + " results: " + merged.document().status(),
                merged.summary(), 1));
        merged.document().issues().forEach(i -> printer.info("  issue: " + i));
        String hot = ResultDocument.partitionsText(merged.document().partitions());
        if (hot != null) {
            printer.info("  partitions: " + hot);
        }
        printer.info("result: " + file);
        return 0;
    }
}
