package io.kbench.worker;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one read of a broker source costs, on each side: the reader (this JVM, which does nothing else; when paced,
 * its own CPU while it only sleeps subtracted) and the broker process (from /proc, its idle CPU subtracted). Reads back to back, in phases: the first 60 (what a
 * one-minute run pays, the code still interpreted, the connection's classes loading), then up to
 * {@code READS} more in steps, each step's CPU per read. At one read a second, N ms per read is N/10 % of a core.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.kbench.worker.BrokerReadCost SOURCE BROKER_PID [READS] [INTERVAL_MS] [WARM]
 * </pre>
 *
 * With {@code INTERVAL_MS} (e.g. 1000, as a run reads) the reads are paced and the steps are 120 reads: the JIT
 * compiles code that runs once a second much later than code run back to back, so the paced figures are what a
 * run pays; the back-to-back ones (the default) show the cost once compiled. {@code WARM} reads back to back
 * before the measured ones tell the JIT's share of a paced read from the rest.
 *
 * SOURCE is what the worker reads: HOST:PORT of a JMX port or the http:// URL of a JMX exporter.
 * {@code benchmarks/broker-read-cost.sh} starts a broker with both and runs this for each.
 */
public final class BrokerReadCost {
    private BrokerReadCost() { }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: BrokerReadCost SOURCE BROKER_PID [READS] [INTERVAL_MS]");
            System.exit(2);
        }
        String source = args[0];
        long pid = Long.parseLong(args[1]);
        int reads = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        long pace = args.length > 3 ? Long.parseLong(args[3]) : 0;
        int stepSize = pace > 0 ? 120 : 500;
        int warm = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        // the broker's own CPU while nobody reads it, per second of wall time
        long idleTicks0 = ticks(pid);
        long idleCpu0 = os.getProcessCpuTime();
        long idleWall0 = System.nanoTime();
        Thread.sleep(5_000);
        double idleTicksPerNano = (ticks(pid) - idleTicks0) / (double) (System.nanoTime() - idleWall0);
        // this JVM's own CPU while it only sleeps (GC, compiler and VM threads), subtracted from paced reads
        double ownIdlePerNano = (os.getProcessCpuTime() - idleCpu0) / (double) (System.nanoTime() - idleWall0);
        List<Integer> steps = new ArrayList<>(List.of(60));
        for (int n = stepSize; n <= reads; n += stepSize) {
            steps.add(n);
        }
        long c0 = os.getProcessCpuTime();
        long b0 = ticks(pid);
        long w0 = System.nanoTime();
        try (BrokerScraper s = BrokerScraper.open(source, 2_000)) {
            long open = os.getProcessCpuTime() - c0;
            System.out.printf(Locale.ROOT, "%s: connecting cost the reader %.1f ms of CPU%n", source, open / 1e6);
            for (int i = 0; i < warm; i++) { // compiled first: what is left of a paced read's cost is not the JIT's
                s.sample(System.nanoTime());
            }
            if (warm > 0) {
                System.out.printf(Locale.ROOT, "%s: %d reads back to back first%n", source, warm);
            }
            int done = 0;
            for (int step : steps) {
                long rc = os.getProcessCpuTime();
                long bt = ticks(pid);
                long wt = System.nanoTime();
                int first = done;
                for (; done < step; done++) {
                    if (pace > 0) {
                        Thread.sleep(pace);
                    }
                    String error = s.sample(System.nanoTime()).error();
                    if (!error.isEmpty()) {
                        throw new IllegalStateException("read failed: " + error);
                    }
                }
                int n = done - first;
                if (n == 0) {
                    continue;
                }
                long wall = System.nanoTime() - wt;
                double reader = ((os.getProcessCpuTime() - rc) - (pace > 0 ? ownIdlePerNano * wall : 0)) / 1e6 / n;
                double broker = ((ticks(pid) - bt) - idleTicksPerNano * wall) * 10.0 / n; // 100 ticks a second
                // the reader sleeps between paced reads: its own CPU is then the reads' (and the JIT's, GC's)
                System.out.printf(Locale.ROOT, "%s: reads %5d-%5d: reader %.2f ms, broker %.2f ms of CPU per read "
                        + "(wall %.2f ms)%n", source, done - n + 1, done, reader, broker, wall / 1e6 / n);
            }
        }
        System.out.printf(Locale.ROOT, "%s: all %d reads: reader %.1f s, broker %.1f s of CPU (idle subtracted) in %.1f s%n",
                source, reads, (os.getProcessCpuTime() - c0) / 1e9,
                ((ticks(pid) - b0) - idleTicksPerNano * (System.nanoTime() - w0)) / 100.0, (System.nanoTime() - w0) / 1e9);
    }

    /** utime + stime of {@code pid}, in clock ticks (1/100 s). */
    private static long ticks(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
