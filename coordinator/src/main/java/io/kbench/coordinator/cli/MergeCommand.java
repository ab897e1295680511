package io.kbench.coordinator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.OutputDirectory;
import io.kbench.coordinator.report.ProgressPrinter;
import io.kbench.coordinator.report.ResultDocument;
import io.kbench.coordinator.report.ResultMerge;
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
        ObjectMapper json = new ObjectMapper();
        List<ResultMerge.Source> sources = new ArrayList<>();
        java.util.Set<Path> seen = new java.util.HashSet<>();
        for (Path p : results) {
            Path file = p.toFile().isDirectory() ? p.resolve("result.json") : p;
            if (!java.nio.file.Files.isRegularFile(file)) {
                throw new UserException(file + ": " + (java.nio.file.Files.exists(file) ? "not a file" : "file not found"));
            }
            if (!seen.add(file.toAbsolutePath().normalize())) {
                throw new UserException(file + ": given twice; each result may be merged once");
            }
            try {
                sources.add(new ResultMerge.Source(file.toString(), json.readTree(file.toFile())));
            } catch (IOException e) {
                String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
                throw new UserException(file + ": cannot read as JSON: " + why);
            }
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
        printer.summary("kbench merge of " + sources.size() + " results: " + merged.document().status(),
                merged.summary(), 1);
        printer.info("result: " + file);
        return 0;
    }
}
