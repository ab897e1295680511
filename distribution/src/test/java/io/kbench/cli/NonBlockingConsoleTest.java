package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NonBlockingConsoleTest {
    /** A console nobody reads: every write blocks until released, as a full pipe does. */
    private static final class StuckConsole extends OutputStream {
        final CountDownLatch reading = new CountDownLatch(1);
        final ByteArrayOutputStream got = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            try {
                reading.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (got) {
                got.write(b, off, len);
            }
        }

        String text() {
            synchronized (got) {
                return got.toString(StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void shouldNeverBlockAWriterWhenTheConsoleDoesNotRead() throws Exception {
        StuckConsole console = new StuckConsole();
        NonBlockingConsole out = new NonBlockingConsole(console, "test", 4096);
        byte[] line = "   1s | pub 5,000 msg/s ... a progress line of about a hundred bytes, as kbench prints them\n"
                .getBytes(StandardCharsets.UTF_8);
        long start = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            out.write(line, 0, line.length); // 1 MB into a console that reads nothing
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 5_000, "10,000 lines written in " + millis + " ms without a reader");
        assertTrue(out.dropped() > 900_000, "what did not fit is counted: " + out.dropped());
        assertFalse(out.awaitDrained(50), "nothing reached the stuck console");

        console.reading.countDown(); // the console reads again
        out.write("after\n".getBytes(StandardCharsets.UTF_8), 0, 6);
        assertTrue(out.awaitDrained(5_000));
        // the notice goes out once the drainer has caught up, which may be just after the line written meanwhile
        long until = System.nanoTime() + 5_000_000_000L;
        while (!console.text().contains("bytes of console output dropped") && System.nanoTime() < until) {
            out.awaitDrained(100);
            Thread.sleep(5);
        }
        String text = console.text();
        assertTrue(text.startsWith(new String(line, StandardCharsets.UTF_8)), "lines that fitted come first, whole");
        assertTrue(text.contains("bytes of console output dropped"), "and then how much was dropped: " + text.length());
        assertTrue(text.endsWith("after\n") || text.contains("after\n"), "later lines come through");
        for (String l : text.split("\n")) {
            assertTrue(l.startsWith("   1s | pub") || l.startsWith("[kbench: ") || l.equals("after"), "no torn line: " + l);
        }
    }

    @Test
    void shouldPassEverythingThroughInOrderWhenTheConsoleReads() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        NonBlockingConsole out = new NonBlockingConsole(console, "test");
        StringBuilder want = new StringBuilder();
        for (int i = 0; i < 2_000; i++) { // about 20 KB: fits the buffer whatever the drainer does
            byte[] b = ("line " + i + "\n").getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
            want.append("line ").append(i).append('\n');
        }
        assertTrue(out.awaitDrained(5_000));
        assertEquals(0, out.dropped());
        assertEquals(want.toString(), console.toString(StandardCharsets.UTF_8));
    }
}
