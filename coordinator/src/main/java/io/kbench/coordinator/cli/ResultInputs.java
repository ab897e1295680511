package io.kbench.coordinator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.ResultDocument;
import io.kbench.coordinator.report.ResultFile;
import io.kbench.coordinator.report.ResultMerge;
import io.kbench.protocol.BoundedFiles;

/** The result.json files that report, compare and merge read: found, each once, parsed strictly. */
final class ResultInputs {
    /** A result.json is read up to this size (a week-long run at 1 s intervals stays far below it). */
    private static final long MAX_BYTES = 1L << 30;

    private ResultInputs() { }

    /**
     * The result file {@code path} names (a directory stands for its result.json), which must exist and not be
     * in {@code seen} yet.
     *
     * @param twice what to add to "given twice" (why a repeat is refused), or ""
     */
    static Path file(Path path, Set<Path> seen, String twice) {
        Path file = Files.isDirectory(path) ? path.resolve("result.json") : path;
        if (!Files.isRegularFile(file)) {
            throw new UserException(file + ": " + (Files.exists(file) ? "not a file" : "file not found"));
        }
        if (!seen.add(file.toAbsolutePath().normalize())) {
            throw new UserException(file + ": given twice" + twice);
        }
        return file;
    }

    /** The file's JSON (bounded read). */
    static JsonNode json(Path file) {
        try {
            return ResultDocument.JSON.readTree(BoundedFiles.read(file, MAX_BYTES));
        } catch (IOException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            throw new UserException(file + ": cannot read as JSON: " + why);
        }
    }

    /** A run's result, read into the types kbench run writes; a wrong key is refused naming file and key. */
    static ResultFile.Run run(Path file, JsonNode tree) {
        try {
            return ResultMerge.read(new ResultMerge.Source(file.toString(), tree));
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }

    /** "workload runId", as pages and tables name a run. */
    static String name(ResultFile.Run run) {
        return (run.workload() == null ? "" : run.workload().path("name").asText() + " ") + run.runId();
    }
}
