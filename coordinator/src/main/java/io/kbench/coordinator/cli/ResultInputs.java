package io.kbench.coordinator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.report.compare.ResultMerge;
import io.kbench.protocol.BoundedFiles;

/** The result.json files that report, compare and merge read: found, each once, parsed strictly. */
final class ResultInputs {
    /** A result.json is read whole up to this size (for a page, which draws the intervals). */
    private static final long MAX_BYTES = 1L << 30;

    private ResultInputs() { }

    /**
     * The result file {@code path} names (a directory stands for its result.json), which must exist and not be
     * in {@code seen} yet.
     *
     * @param twice what to add to "given twice" (why a repeat is refused), or ""
     */
    static Path file(Path path, Set<Path> seen, String twice) {
        if (path.toString().isBlank()) { // the working directory to Java: nearly always an unset variable
            throw new UserException("'': an empty path; give a result.json or the directory that holds it");
        }
        Path file = Files.isDirectory(path) ? path.resolve("result.json") : path;
        if (Files.isDirectory(path) && !Files.exists(file)) {
            throw new UserException(path + ": " + withoutResult(path));
        }
        if (!Files.isRegularFile(file)) {
            throw new UserException(file + ": " + (Files.exists(file) ? "not a file" : "file not found"));
        }
        if (!seen.add(file.toAbsolutePath().normalize())) {
            throw new UserException(file + ": given twice" + twice);
        }
        return file;
    }

    /**
     * Why directory {@code dir} is not a run's: no result.json in it — a sweep's directory (its combinations' results
     * are in its subdirectories), or one whose subdirectories hold results, named (at most three).
     */
    private static String withoutResult(Path dir) {
        List<String> runs = new ArrayList<>();
        try (java.util.stream.Stream<Path> children = Files.list(dir)) {
            children.filter(c -> Files.isRegularFile(c.resolve("result.json"))).sorted().limit(4)
                    .forEach(c -> runs.add(c.toString()));
        } catch (IOException | RuntimeException e) {
            return "no result.json in this directory, and it cannot be listed";
        }
        String examples = runs.isEmpty() ? "" : String.join(", ", runs.subList(0, Math.min(3, runs.size())))
                + (runs.size() > 3 ? ", ..." : "");
        if (Files.isRegularFile(dir.resolve("sweep.json"))) {
            return "a sweep's directory (sweep.json, its page report.html), with no result.json of its own; give the "
                    + "results of its combinations" + (examples.isEmpty() ? "" : ": " + examples);
        }
        return "no result.json in this directory" + (examples.isEmpty() ? "" : "; its subdirectories hold results: "
                + examples);
    }

    /**
     * Why {@code file} could not be read as JSON, in one line: where the parser stopped ({@code file:line:column})
     * and what it found there, without the parser's own source description; a file that ends inside the JSON is
     * said to be cut short (a copy, or a write that did not finish).
     */
    static UserException unreadable(Path file, IOException e) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
                && j.getLocation().getLineNr() > 0) {
            String where = file + ":" + j.getLocation().getLineNr() + ":" + j.getLocation().getColumnNr();
            if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) {
                return new UserException(where + ": cannot read as JSON: the file ends inside the JSON (cut short: a copy "
                        + "or a write that did not finish?)");
            }
            String why = j.getOriginalMessage() == null ? e.getClass().getSimpleName() : j.getOriginalMessage();
            why = why.replaceAll("\\s*\\(?[a-z ]*\\[Source: [^\\]]*\\]\\)?", "").lines().findFirst().orElse("");
            return new UserException(where + ": cannot read as JSON: " + why);
        }
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        return new UserException(file + ": cannot read as JSON: " + why);
    }

    /** The file's JSON (bounded read). */
    static JsonNode json(Path file) {
        try {
            return ResultDocument.JSON.readTree(BoundedFiles.read(file, MAX_BYTES));
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * The file's JSON with only its first interval, read as a stream: what compare, merge and --repeat need (the
     * first interval gives --repeat the reporting interval), in memory that does not grow with the run's length,
     * from a result.json of any size (a week of 1-s intervals is about 2 GB). The other intervals are skipped,
     * not kept; everything else is bounded as Jackson bounds it.
     */
    static JsonNode jsonWithoutIntervals(Path file) {
        try (com.fasterxml.jackson.core.JsonParser p = ResultDocument.JSON.getFactory().createParser(file.toFile())) {
            com.fasterxml.jackson.core.JsonToken first = p.nextToken();
            if (first != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return first == null ? null : ResultDocument.JSON.readTree(p); // not an object: refused when read as a run
            }
            com.fasterxml.jackson.databind.node.ObjectNode root = ResultDocument.JSON.createObjectNode();
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("intervals") && p.currentToken() == com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
                    // the first interval only (--repeat reads the reporting interval from it); the rest skipped
                    com.fasterxml.jackson.databind.node.ArrayNode kept = root.putArray("intervals");
                    if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                        kept.add(ResultDocument.JSON.<JsonNode>readTree(p));
                        while (p.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                            p.skipChildren();
                        }
                    }
                } else {
                    root.set(name, ResultDocument.JSON.readTree(p));
                }
            }
            if (p.nextToken() != null) {
                throw new UserException(file + ": cannot read as JSON: more after the result's closing brace");
            }
            return root;
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /** {@link #run}, or a merged result read as a run's figures ({@link ResultMerge#mergedAsRun}): what compare judges. */
    static ResultFile.Run comparable(Path file, JsonNode tree) {
        JsonNode merged = ResultMerge.mergedAsRun(tree);
        return run(file, merged != null ? merged : tree);
    }

    /** A run's result, read into the types kbench run writes; a wrong key is refused naming file and key. */
    static ResultFile.Run run(Path file, JsonNode tree) {
        try {
            return ResultMerge.read(new ResultMerge.Source(file.toString(), tree));
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
    }

    /**
     * A result too large to read whole (over {@link #MAX_BYTES}: a run of more than a few days), as a page draws
     * it: everything but the intervals read into memory, the intervals checked one by one and kept on disk
     * ({@link JsonLinesSpool}, removed when kbench exits) and read back as the page is built.
     */
    static ResultFile.Run drawableStream(Path file) {
        io.kbench.coordinator.merge.JsonLinesSpool<ResultFile.Interval> spool;
        try {
            spool = new io.kbench.coordinator.merge.JsonLinesSpool<>(Files.createTempFile("kbench-report-", ".spool"),
                    ResultFile.Interval.class);
        } catch (IOException e) {
            throw new UserException(file + ": no room for its intervals in the temporary directory: " + e.getMessage());
        }
        com.fasterxml.jackson.databind.node.ObjectNode root = ResultDocument.JSON.createObjectNode();
        try (com.fasterxml.jackson.core.JsonParser p = ResultDocument.JSON.getFactory().createParser(file.toFile())) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                throw new UserException(file + ": not a kbench result.json (no runId, summary or histograms)");
            }
            boolean intervals = false;
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("intervals")) {
                    if (p.currentToken() != com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
                        throw new UserException(file + ": intervals must be a list");
                    }
                    intervals = true;
                    int index = 0;
                    while (p.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                        JsonNode node = ResultDocument.JSON.readTree(p);
                        ResultFile.Interval in;
                        try {
                            in = ResultMerge.readInterval(file.toString(), index++, node);
                        } catch (IllegalArgumentException e) {
                            throw new UserException(e.getMessage());
                        }
                        spool.append(in);
                    }
                    root.putArray("intervals");
                } else {
                    root.set(name, ResultDocument.JSON.readTree(p));
                }
            }
            if (!intervals) {
                throw new UserException(file + ": intervals is missing (a list of the run's intervals)");
            }
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        spool.close();
        ResultFile.Run run = run(file, root).withIntervals(spool.list());
        try {
            ResultMerge.requireIntervals(file.toString(), run);
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage());
        }
        return run;
    }

    /** A result read whole: not larger than {@link #MAX_BYTES}. */
    static boolean readableWhole(Path file) {
        try {
            return Files.size(file) <= MAX_BYTES;
        } catch (IOException e) {
            return true; // the whole read says what is wrong with it
        }
    }

    /** A run's result that a page draws: {@link #run} with its intervals checked too. */
    static ResultFile.Run drawable(Path file, JsonNode tree) {
        if (ResultMerge.mergedAsRun(tree) != null) {
            throw new UserException(file + ": a merged result has no intervals to chart; give the results it merged");
        }
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
        if (target.toString().isBlank()) { // the working directory to Java: nearly always an unset variable
            throw new UserException((flag.isEmpty() ? "the page's path" : flag.strip()) + ": an empty path; give the "
                    + "file or directory to write the page to (e.g. report.html, or . for this directory)");
        }
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
    static void writePage(Path target, String flag, String title, java.util.List<io.kbench.coordinator.report.files.HtmlReport.Named> runs) {
        try {
            io.kbench.coordinator.report.files.HtmlReport.write(target, title, runs);
        } catch (IOException | RuntimeException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "its directory does not exist"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null ? fs.getReason()
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new UserException(flag + target + ": not written: " + why);
        }
    }
}
