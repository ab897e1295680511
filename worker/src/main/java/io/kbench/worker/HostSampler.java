package io.kbench.worker;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.kbench.protocol.HostSample;

/**
 * The worker process's use of its host between two calls of {@link #sample}: CPU time of the whole process,
 * garbage-collection time and count (deltas of the JVM's running totals), the heap in use right after the latest
 * collection, the heap's maximum (read from the JVM's management beans, a few microseconds a call), the JIT compiler
 * threads' CPU ({@link JitCpu}), and how late
 * the run's load threads woke from their parks (the stall); and the whole host's CPU — how busy its processors were,
 * whoever ran on them, and the time a VM's hypervisor stole from them ({@link HostCpuTicks}), so that a load thread
 * that woke late can be put down to a host shared with something busier or to a VM's steal. One sampler per run,
 * called once an interval by the snapshot thread. In-process workers share their JVM, so each reports the same
 * process.
 */
final class HostSampler {
    /** The running totals a sample is the difference of. */
    interface Source {
        int processors();

        /** A monotonic clock, ns. */
        long nanoTime();

        /** CPU time of the process so far, ns; negative when the platform does not tell. */
        long processCpuNanos();

        /** Collection time so far over every collector, ms (as the JVM counts it). */
        long gcMillis();

        long gcCount();

        /** Heap in use right after the latest collection, bytes; -1 before the first. */
        long heapAfterGcBytes();

        long heapMaxBytes();

        /** The longest a load thread woke late from a park since the last call, µs; -1 when none parked. */
        long takeStallMicros();

        /** The host's CPU counters so far; null when the platform does not tell. */
        HostCpuTicks hostCpu();

        /** CPU time of the JIT compiler threads so far, ns; -1 when the platform does not tell. */
        long jitNanos();
    }

    /** What else this JVM hosts (the coordinator's in-process workers); "" for a worker process of its own. */
    private static volatile String sharedWith = "";

    private final Source source;
    private long wallNanos;
    private long cpuNanos;
    private long gcMillis;
    private long gcCount;
    private long jitNanos;
    private HostCpuTicks hostCpu;

    HostSampler(Source source) {
        this.source = source;
        this.wallNanos = source.nanoTime();
        this.cpuNanos = source.processCpuNanos();
        this.gcMillis = source.gcMillis();
        this.gcCount = source.gcCount();
        this.jitNanos = source.jitNanos();
        this.hostCpu = source.hostCpu();
        source.takeStallMicros(); // the first sample's stall covers from now
    }

    /**
     * Says that this JVM also hosts {@code what} (e.g. "coordinator, embedded broker"): every sample then says so,
     * since its CPU and memory figures include them.
     */
    static void sharedWith(String what) {
        sharedWith = what == null ? "" : what;
    }

    /** A sampler of this JVM; {@code stalls} takes the load threads' longest park overrun (µs, -1: none parked). */
    static HostSampler ofThisJvm(java.util.function.LongSupplier stalls) {
        return new HostSampler(new JvmSource(stalls));
    }

    /** The figures since the last call (or since this sampler was made); {@link HostSample#NONE} if unknown. */
    HostSample sample() {
        long wall = source.nanoTime();
        long cpu = source.processCpuNanos();
        long gcMs = source.gcMillis();
        long gcN = source.gcCount();
        long stall = source.takeStallMicros();
        long jit = source.jitNanos();
        long jitBefore = jitNanos;
        jitNanos = jit;
        HostCpuTicks host = source.hostCpu();
        HostCpuTicks hostBefore = hostCpu;
        hostCpu = host;
        if (cpu < 0 || cpuNanos < 0 || wall - wallNanos < 1000) {
            wallNanos = wall;
            cpuNanos = cpu;
            return HostSample.NONE;
        }
        double busy = -1;
        double steal = -1;
        if (host != null && hostBefore != null && host.total() > hostBefore.total()) {
            double ticks = host.total() - hostBefore.total();
            busy = Math.min(1, Math.max(0, (host.busy() - hostBefore.busy()) / ticks));
            steal = Math.min(1, Math.max(0, (host.steal() - hostBefore.steal()) / ticks));
        }
        HostSample s = new HostSample(source.processors(), (wall - wallNanos) / 1000, Math.max(0, (cpu - cpuNanos) / 1000),
                Math.max(0, gcMs - gcMillis) * 1000, Math.max(0, gcN - gcCount), source.heapAfterGcBytes(),
                source.heapMaxBytes(), sharedWith, stall, busy, steal,
                jit < 0 || jitBefore < 0 ? -1 : Math.max(0, jit - jitBefore) / 1000);
        wallNanos = wall;
        cpuNanos = cpu;
        gcMillis = gcMs;
        gcCount = gcN;
        return s;
    }

    /** This JVM's beans, and the run's load threads' park overruns. */
    static final class JvmSource implements Source {
        private final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        private final JitCpu jit = new JitCpu();
        private final java.util.function.LongSupplier stalls;

        JvmSource(java.util.function.LongSupplier stalls) {
            this.stalls = stalls;
        }

        @Override
        public int processors() {
            return Runtime.getRuntime().availableProcessors();
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long processCpuNanos() {
            return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
        }

        @Override
        public long gcMillis() {
            return sum(GarbageCollectorMXBean::getCollectionTime);
        }

        @Override
        public long gcCount() {
            return sum(GarbageCollectorMXBean::getCollectionCount);
        }

        /** Over every collector; a collector that does not tell (-1) counts 0. */
        private long sum(java.util.function.ToLongFunction<GarbageCollectorMXBean> figure) {
            long total = 0;
            for (GarbageCollectorMXBean c : collectors) {
                total += Math.max(0, figure.applyAsLong(c));
            }
            return total;
        }

        @Override
        public long heapAfterGcBytes() {
            com.sun.management.GcInfo latest = null;
            for (GarbageCollectorMXBean c : collectors) {
                if (c instanceof com.sun.management.GarbageCollectorMXBean sun) {
                    com.sun.management.GcInfo info = sun.getLastGcInfo();
                    if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                        latest = info;
                    }
                }
            }
            if (latest == null) {
                return -1;
            }
            long used = 0;
            for (Map.Entry<String, MemoryUsage> e : latest.getMemoryUsageAfterGc().entrySet()) {
                if (heapPools.contains(e.getKey())) {
                    used += e.getValue().getUsed();
                }
            }
            return used;
        }

        @Override
        public long heapMaxBytes() {
            return Runtime.getRuntime().maxMemory();
        }

        @Override
        public long takeStallMicros() {
            return stalls.getAsLong();
        }

        @Override
        public HostCpuTicks hostCpu() {
            return HostCpuTicks.read();
        }

        @Override
        public long jitNanos() {
            return jit.nanos();
        }
    }
}
