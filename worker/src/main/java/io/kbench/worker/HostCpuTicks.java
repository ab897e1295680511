package io.kbench.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The host's CPU time so far over all its processors, as Linux counts it in the {@code cpu} line of {@code /proc/stat}
 * (in clock ticks; only differences are used, so the tick length does not matter): time running (user, nice, system,
 * irq, softirq — every process on the host, this one included), idle (idle, iowait), and stolen — time a processor of
 * this virtual machine wanted to run while the hypervisor ran another guest.
 *
 * <p>Inside a container the line is the whole host's (the kernel does not scope it to a cgroup), which is what
 * it is used for: how busy the machine a worker runs on was, whoever made it busy.
 *
 * @param busy  ticks spent running
 * @param steal ticks stolen by the hypervisor (0 on a kernel or machine that does not count it)
 * @param total every tick counted: busy + idle + steal
 */
record HostCpuTicks(long busy, long steal, long total) {
    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** The fields of the {@code cpu} line that are time spent running (user, nice, system, irq, softirq). */
    private static final int[] BUSY = {0, 1, 2, 5, 6};
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int STEAL = 7;

    /**
     * This host's counters; null where there is no {@code /proc/stat} (not Linux) or it cannot be read or parsed. Only
     * the file's first line is read (the kernel builds the whole file for any read, so reading less saves nothing).
     */
    static HostCpuTicks read() {
        try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(PROC_STAT, StandardCharsets.US_ASCII)) {
            return parse(r.readLine());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    /**
     * The counters of a {@code cpu} line ({@code "cpu  user nice system idle iowait irq softirq steal guest
     * guest_nice"}; kernels before 2.6.11 stop after softirq, so steal is 0 there); null for anything else. Guest
     * time is already counted in user time and is not added again.
     */
    static HostCpuTicks parse(String line) {
        if (line == null || !line.startsWith("cpu ")) {
            return null;
        }
        String[] f = line.substring(4).trim().split("\\s+");
        if (f.length < 7) {
            return null;
        }
        long[] v = new long[Math.min(f.length, 8)];
        try {
            for (int i = 0; i < v.length; i++) {
                v[i] = Long.parseLong(f[i]);
                if (v[i] < 0) {
                    return null;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        long busy = 0;
        for (int i : BUSY) {
            busy += v[i];
        }
        long steal = v.length > STEAL ? v[STEAL] : 0;
        return new HostCpuTicks(busy, steal, busy + v[IDLE] + v[IOWAIT] + steal);
    }
}
