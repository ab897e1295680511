package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A result.json larger than anything read whole (a week of 1-s intervals is about 2 GB): compare, merge and
 * --repeat read it as a stream, keeping no interval but the first, so its length does not matter (--repeat shares
 * that reader; running it needs a cluster, so it is not run here); report, which draws the intervals, reads them
 * as a stream onto disk and back. The file is a real run's result whose intervals array
 * holds 1.1 GiB of white space (written to tmpfs where there is one, in about a second).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LargeResultTest {
    private Path dir;

    @AfterEach
    void remove() throws IOException {
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    @Test
    void shouldCompareMergeAndReportAResultLargerThanAnyWholeRead() throws Exception {
        Path shm = Path.of("/dev/shm");
        dir = Files.createTempDirectory(Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")), "kbench-large");
        String text;
        try (InputStream in = LargeResultTest.class.getResourceAsStream("/result-samples/quickstart-result.json")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path small = Files.writeString(dir.resolve("small.json"), text);
        // another run (merge refuses the same run twice), with the same figures
        String runId = new com.fasterxml.jackson.databind.ObjectMapper().readTree(text).get("runId").asText();
        text = text.replace("\"" + runId + "\"", "\"the-long-run\"");
        int at = text.indexOf("\"intervals\"");
        int open = text.indexOf('[', at) + 1;
        Path large = dir.resolve("large.json");
        try (FileChannel ch = FileChannel.open(large, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(text.substring(0, open).getBytes(StandardCharsets.UTF_8)));
            ByteBuffer spaces = ByteBuffer.allocate(8 << 20);
            while (spaces.hasRemaining()) {
                spaces.put((byte) ' ');
            }
            long left = (1L << 30) + (100L << 20);
            while (left > 0) {
                spaces.clear().limit((int) Math.min(spaces.capacity(), left));
                left -= ch.write(spaces);
            }
            ch.write(ByteBuffer.wrap(text.substring(open).getBytes(StandardCharsets.UTF_8)));
        }
        assertTrue(Files.size(large) > (1L << 30), "larger than the 1 GiB whole-read limit");

        InProcessRun.Outcome compare = InProcessRun.execute("compare", small.toString(), large.toString());
        assertEquals(0, compare.exitCode(), compare.stderr());
        InProcessRun.Outcome merge = InProcessRun.execute("merge", small.toString(), large.toString(), "--output",
                dir.resolve("merged").toString());
        assertEquals(0, merge.exitCode(), merge.stderr());
        assertTrue(Files.size(dir.resolve("merged/result.json")) > 0);
        Files.delete(dir.resolve("merged/result.json"));
        Files.delete(dir.resolve("merged"));
        // report draws the intervals: it reads them as a stream too, onto disk, and back for the page
        Path page = dir.resolve("r.html");
        InProcessRun.Outcome report = InProcessRun.execute("report", large.toString(), "-o", page.toString());
        assertEquals(0, report.exitCode(), report.stderr());
        String html = Files.readString(page);
        assertTrue(html.contains("the-long-run"), "the large run's page");
        Files.delete(page);
    }
}
