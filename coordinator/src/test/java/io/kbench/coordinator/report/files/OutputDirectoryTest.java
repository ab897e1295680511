package io.kbench.coordinator.report.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The early check of an output directory creates nothing; the run's prepare creates it once. */
class OutputDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void shouldCheckANewDirectoryWithoutCreatingItOrLeavingAnythingBehind() throws IOException {
        Path dir = tmp.resolve("a/b/out");
        OutputDirectory.check(dir, "--output");
        assertFalse(Files.exists(tmp.resolve("a")), "nothing made: a run refused later leaves no directory");
        try (var left = Files.list(tmp)) {
            assertEquals(0, left.count(), "the probe is gone");
        }
        assertTrue(OutputDirectory.prepare(dir, "--output"), "the run makes it");
        OutputDirectory.check(dir, "--output"); // there and empty: fine, nothing written
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void shouldRefuseAFileInTheWayEarlierResultsAndAPlaceNoDirectoryCanBeMade() throws IOException {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertEquals("--output " + file + ": " + file + " exists and is not a directory",
                assertThrows(UserException.class, () -> OutputDirectory.check(file, "--output")).getMessage());
        assertEquals("--output " + file.resolve("sub") + ": cannot create the directory (" + file
                        + " exists and is not a directory)",
                assertThrows(UserException.class, () -> OutputDirectory.check(file.resolve("sub"), "--output")).getMessage());
        Path old = Files.createDirectories(tmp.resolve("old"));
        Files.writeString(old.resolve("result.json"), "{}");
        assertTrue(assertThrows(UserException.class, () -> OutputDirectory.check(old, "--output")).getMessage()
                .contains("holds the results of an earlier run (result.json)"));
        assertTrue(assertThrows(UserException.class, () -> OutputDirectory.check(Path.of("/proc/kbench-out"), "--output"))
                .getMessage().startsWith("--output /proc/kbench-out: cannot create the directory (/proc takes no new "
                        + "directory: "));
    }

    /**
     * A name longer than a file system takes was found only when the run wrote its result: a sweep's combination
     * failed halfway with "File name too long". Refused before anything runs.
     */
    @Test
    void shouldRefuseANameLongerThanAFileSystemTakes() {
        Path longName = tmp.resolve("y".repeat(300)).resolve("run");
        UserException e = assertThrows(UserException.class, () -> OutputDirectory.check(longName, "--output"));
        assertTrue(e.getMessage().endsWith("cannot create the directory (a name of 300 "
                + "bytes in the path; a file system takes at most 255)"), e.getMessage());
        OutputDirectory.check(tmp.resolve("y".repeat(255)).resolve("run"), "--output"); // 255: taken
    }
}
