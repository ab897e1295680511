package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JitCpuTest {
    private static void thread(Path tasks, String tid, String comm, long runNanos) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(t.resolve("comm"), comm + "\n");
        Files.writeString(t.resolve("schedstat"), runNanos + " 123456 789\n");
    }

    @Test
    void shouldAddUpTheCompilerThreadsGrowthOnly(@TempDir Path tasks) throws IOException {
        thread(tasks, "100", "java", 9_000_000_000L);
        thread(tasks, "101", "C2 CompilerThre", 2_000_000_000L);
        thread(tasks, "102", "C1 CompilerThre", 500_000_000L);
        thread(tasks, "103", "kafka-producer-", 7_000_000_000L);
        JitCpu jit = new JitCpu(tasks);
        assertEquals(2_500_000_000L, jit.nanos(), "the two compilers, nothing else");
        thread(tasks, "101", "C2 CompilerThre", 2_300_000_000L);
        thread(tasks, "103", "kafka-producer-", 9_000_000_000L);
        assertEquals(2_800_000_000L, jit.nanos());
        // HotSpot stops C1 and starts another C2 thread: the stopped one keeps what it used, the new one adds its own
        Files.delete(tasks.resolve("102/comm"));
        Files.delete(tasks.resolve("102/schedstat"));
        Files.delete(tasks.resolve("102"));
        thread(tasks, "104", "C2 CompilerThre", 40_000_000L);
        assertEquals(2_840_000_000L, jit.nanos());
        thread(tasks, "101", "C2 CompilerThre", 2_300_000_000L);
        assertEquals(2_840_000_000L, jit.nanos(), "compiled nothing since");
    }

    @Test
    void shouldTellNothingWhereThePlatformDoesNot(@TempDir Path dir) throws IOException {
        assertEquals(-1, new JitCpu(dir.resolve("absent")).nanos(), "no /proc");
        Path tasks = dir.resolve("task");
        Path t = Files.createDirectories(tasks.resolve("7"));
        Files.writeString(t.resolve("comm"), "C2 CompilerThre\n"); // no schedstat: a kernel without it
        JitCpu noCounters = new JitCpu(tasks);
        assertEquals(-1, noCounters.nanos());
        thread(tasks, "7", "C2 CompilerThre", 5);
        assertEquals(-1, noCounters.nanos(), "decided once: a figure that comes and goes is no series");
    }

    @Test
    void shouldReadOnlyHotSpotsCompilerThreadNamesAndSchedstatLines() {
        assertTrue(JitCpu.isCompiler("C2 CompilerThre"));
        assertTrue(JitCpu.isCompiler("C1 CompilerThre"));
        assertTrue(JitCpu.isCompiler("JVMCI CompilerT"));
        assertFalse(JitCpu.isCompiler("CompilerThread"));
        assertFalse(JitCpu.isCompiler("main"));
        assertEquals(387_531_846L, JitCpu.runNanos("387531846 268944 5\n"));
        assertEquals(12L, JitCpu.runNanos("12"));
        assertEquals(-1, JitCpu.runNanos("garbage 1 2"));
        assertEquals(-1, JitCpu.runNanos(""));
        assertEquals(-1, JitCpu.runNanos(null));
    }

    @Test
    void shouldReadThisJvmsCompilers() {
        if (!Files.isReadable(Path.of("/proc/self/schedstat"))) {
            return; // not Linux: nothing to read here
        }
        JitCpu jit = new JitCpu();
        long first = jit.nanos();
        assertTrue(first > 0, "a JVM that ran tests has compiled something: " + first);
        assertTrue(jit.nanos() >= first, "a running total");
    }
}
