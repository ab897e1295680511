package io.kbench.coordinator.report.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.kbench.coordinator.UserException;

/**
 * The directory results go to, made ready before any worker or cluster is contacted: created, and probed
 * with a file written and removed, so that a run never loses its data to a directory found unwritable at its
 * end. Threads: the command's thread.
 */
public final class OutputDirectory {
    private OutputDirectory() { }

    /**
     * Creates {@code dir} if needed and checks that a file can be written in it.
     *
     * @param what the option or purpose that named it, for the message (e.g. "--output")
     * @return true when this call created the directory
     * @throws UserException one line: what is wrong with the directory
     */
    public static boolean prepare(Path dir, String what) {
        refuseEmpty(dir, what);
        boolean existed = Files.isDirectory(dir);
        if (existed) {
            String kept = earlierResults(dir);
            if (kept != null) {
                throw new UserException(what + " " + dir + ": holds the results of an earlier run (" + kept
                        + "); kbench never writes over them: give a new directory, or move them away first");
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (FileAlreadyExistsException e) {
            throw new UserException(what + " " + dir + ": " + e.getFile() + " exists and is not a directory");
        } catch (IOException | SecurityException e) {
            throw new UserException(what + " " + dir + ": cannot create the directory (" + reason(e) + ")");
        }
        try {
            Path probe = Files.createTempFile(dir, ".kbench-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new UserException(what + " " + dir + ": cannot write files there (" + reason(e) + ")");
        }
        return !existed;
    }

    /**
     * Checks, before anything starts, that {@link #prepare} will succeed for {@code dir}, without creating it: it holds
     * no earlier results and files can be written in it, or it can be created (a directory is made in its nearest
     * existing parent and removed again). The run creates it once it starts; a run refused before that leaves
     * nothing behind.
     *
     * @param what the option or purpose that named it, for the message (e.g. "--output")
     * @throws UserException one line: what is wrong with the directory
     */
    public static void check(Path dir, String what) {
        refuseEmpty(dir, what);
        for (Path name : dir) {
            // the directories still to be made: their names are not tried before the run writes into them
            int bytes = name.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes > MAX_NAME_BYTES) {
                throw new UserException(what + " " + dir + ": cannot create the directory (a name of " + bytes
                        + " bytes in the path; a file system takes at most " + MAX_NAME_BYTES + ")");
            }
        }
        if (Files.isDirectory(dir)) {
            prepare(dir, what); // there already: nothing is created, the write is probed
            return;
        }
        if (Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.exists(dir)) {
            throw new UserException(what + " " + dir + ": " + dir + " exists and is not a directory");
        }
        Path parent = dir.toAbsolutePath().normalize().getParent();
        while (parent != null && !Files.exists(parent)) {
            parent = parent.getParent();
        }
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UserException(what + " " + dir + ": cannot create the directory (" + (parent == null
                    ? "no parent directory exists" : parent + " exists and is not a directory") + ")");
        }
        try {
            Files.delete(Files.createTempDirectory(parent, ".kbench-dir-check"));
        } catch (IOException | SecurityException e) {
            throw new UserException(what + " " + dir + ": cannot create the directory (" + parent + " takes no new "
                    + "directory: " + e.getClass().getSimpleName().replace("Exception", "") + ")");
        }
    }

    /** Most bytes of one name in a path that Linux's and macOS's common file systems take (ext4, XFS, APFS: 255). */
    static final int MAX_NAME_BYTES = 255;

    /**
     * An empty path is the working directory to Java; given for an output directory it is nearly always an unset
     * variable ({@code --output "$OUT"}), and the run would scatter its files in whatever directory the shell is in.
     */
    private static void refuseEmpty(Path dir, String what) {
        if (dir.toString().isBlank()) {
            throw new UserException(what + ": an empty path; give the directory to write to (e.g. results/run-1, or . "
                    + "for this one)");
        }
    }

    /**
     * Checks that {@code dir} holds no run directory of an earlier sweep or search ({@code NN-...}, two digits and a
     * dash): a max-rate search names its trials' directories by the rates it finds, so they cannot be checked one by
     * one beforehand, and one in the way would end the search halfway.
     *
     * @throws UserException one line, naming the first such directory
     */
    public static void checkNoRuns(Path dir, String what) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var entries = Files.newDirectoryStream(dir, "[0-9][0-9]-*")) {
            for (Path p : entries) {
                throw new UserException(what + " " + dir + ": holds " + p.getFileName() + " of an earlier sweep or "
                        + "search; kbench never writes over it: give a new directory, or move it away first");
            }
        } catch (IOException | SecurityException e) {
            throw new UserException(what + " " + dir + ": cannot list the directory (" + reason(e) + ")");
        }
    }

    /** Files a run, sweep or search writes: a directory holding one of them holds results. */
    private static final java.util.List<String> RESULT_FILES = java.util.List.of("result.json", "sweep.json",
            "sweep.csv", "intervals.csv");

    /** The first result file found in {@code dir} (a name), or null when it holds none. */
    static String earlierResults(Path dir) {
        for (String name : RESULT_FILES) {
            if (Files.exists(dir.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return name;
            }
        }
        try (var logs = Files.newDirectoryStream(dir, "*.hlog")) {
            for (Path p : logs) {
                return p.getFileName().toString();
            }
        } catch (IOException ignored) {
            // an unreadable directory is reported by the write check below
        }
        return null;
    }

    /** Removes {@code dir} if it is empty (a run that ended before writing anything); quietly. */
    public static void removeIfEmpty(Path dir) {
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException ignored) {
            // left as it is
        }
    }

    private static String reason(Exception e) {
        String type = e.getClass().getSimpleName().replace("Exception", "");
        return e.getMessage() == null ? type : type + ": " + e.getMessage();
    }
}
