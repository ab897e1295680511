package io.kbench.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this JVM's JIT compiler threads so far, from Linux's per-thread scheduler counters: the threads of
 * {@code /proc/self/task} named as HotSpot names its compilers ({@code C1 CompilerThread0} ... , {@code C2
 * CompilerThread0} ..., JVMCI's), each thread's time on a processor from its {@code schedstat} (ns). The JVM's own
 * {@code CompilationMXBean} total is wall time per compilation — it counts a compiler thread waiting for a core, and
 * credits a compilation when it ends — so on a busy host it read up to 3.5 times the compilers' CPU in an interval
 * (1.35 times over a quickstart's window); this is their CPU.
 *
 * <p>Each read lists the process's threads (a directory of a few hundred entries), reads the name of a thread only
 * the first time it is seen, and the counters of the compiler threads only (a handful of 30-byte files): 72 µs
 * with 50 threads, 180 µs with 200 (benchmarks/HostSampleCostBenchmark; under 0.02% of a core at one read a
 * second). The total is the sum of each compiler thread's growth since it was first seen, so a compiler thread
 * that the JVM stops (HotSpot adds and removes them with the load) keeps its share. What it keeps is the threads
 * alive now: bounded by the process's thread count, however long it runs. Not thread-safe: one reader (the
 * snapshot thread's {@link HostSampler}).
 */
final class JitCpu {
    private final Path tasks;
    /** Every thread seen at the latest read: is it a compiler thread. */
    private Map<String, Boolean> compiler = new HashMap<>();
    /** Each compiler thread's CPU at the latest read, ns. */
    private Map<String, Long> lastNanos = new HashMap<>();
    private long totalNanos;
    private boolean unreadable;

    JitCpu() {
        this(Path.of("/proc/self/task"));
    }

    JitCpu(Path tasks) {
        this.tasks = tasks;
    }

    /** Whether a thread's name ({@code comm}: its first 15 characters) is one of HotSpot's JIT compiler threads'. */
    static boolean isCompiler(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre") || comm.startsWith("JVMCI");
    }

    /** The compiler threads' CPU time so far, ns; -1 where the platform does not tell (not Linux, no schedstat). */
    long nanos() {
        if (unreadable) {
            return -1;
        }
        Map<String, Boolean> seen = new HashMap<>(Math.max(16, compiler.size() * 2));
        Map<String, Long> now = new HashMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                String tid = task.getFileName().toString();
                Boolean isCompiler = compiler.get(tid);
                if (isCompiler == null) {
                    String comm = read(task.resolve("comm"));
                    if (comm == null) {
                        continue; // the thread ended between the listing and the read
                    }
                    isCompiler = isCompiler(comm.strip());
                }
                seen.put(tid, isCompiler);
                if (isCompiler) {
                    long cpu = runNanos(read(task.resolve("schedstat")));
                    if (cpu >= 0) {
                        now.put(tid, cpu);
                        Long before = lastNanos.get(tid);
                        totalNanos += before == null ? cpu : Math.max(0, cpu - before);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            unreadable = true; // not Linux, or /proc not mounted: say so once and for all
            return -1;
        }
        if (seen.containsValue(Boolean.TRUE) && now.isEmpty()) {
            unreadable = true; // compiler threads without counters: a kernel without schedstat
            return -1;
        }
        compiler = seen;
        lastNanos = now;
        return totalNanos;
    }

    /** The first field of a {@code schedstat} line (time on a processor, ns); -1 when it is not one. */
    static long runNanos(String schedstat) {
        if (schedstat == null) {
            return -1;
        }
        String s = schedstat.strip();
        int end = s.indexOf(' ');
        try {
            return Long.parseLong(end < 0 ? s : s.substring(0, end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return null;
        }
    }
}
