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

    /** A run's result that a page draws: {@link #run} with its intervals checked too. */
    static ResultFile.Run drawable(Path file, JsonNode tree) {
        ResultFile.Run run = run(file, tree);
        try {
            ResultMerge.requireIntervals(file.toString(), run);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
        return run;
    }

    /** "workload runId", as pages and tables name a run. */
    static String name(ResultFile.Run run) {
        return (run.workload() == null ? "" : run.workload().path("name").asText() + " ") + run.runId();
    }

    /**
     * Where a page goes: {@code target}, or {@code report.html} in it when it is a directory; its directory must
     * exist and be writable. Checked before any result is read.
     *
     * @param flag how messages name the target ("--output ", or "" for a default)
     */
    static Path pageTarget(Path target, String flag) {
        Path t = Files.isDirectory(target) ? target.resolve("report.html") : target;
        if (Files.isDirectory(t)) {
            throw new UserException(flag + t + ": cannot write: a directory is in the way");
        }
        Path parent = t.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
            throw new UserException(flag + t + ": cannot write: "
                    + (parent != null && Files.isDirectory(parent) ? "permission denied" : "its directory does not exist"));
        }
        return t;
    }

    /** Writes the page, or says in one line why it could not be written. */
    static void writePage(Path target, String flag, String title, java.util.List<io.kbench.coordinator.report.HtmlReport.Named> runs) {
        try {
            io.kbench.coordinator.report.HtmlReport.write(target, title, runs);
        } catch (IOException | RuntimeException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "its directory does not exist"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new UserException(flag + target + ": not written: " + why);
        }
    }
}
