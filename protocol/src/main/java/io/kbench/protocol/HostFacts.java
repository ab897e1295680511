package io.kbench.protocol;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;

/**
 * A host and the JVM on it, as a result records them for each worker and the coordinator.
 *
 * @param memoryBytes physical memory of the host (0 when the JVM cannot tell)
 */
public record HostFacts(String hostName, int cores, long memoryBytes, String os, String jvm, long maxHeapBytes) {
    /** This host and JVM. */
    public static HostFacts local() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "";
        }
        long memory = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize();
        }
        Runtime.Version v = Runtime.version();
        return new HostFacts(host, Runtime.getRuntime().availableProcessors(), memory,
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                v + " " + System.getProperty("java.vm.vendor", "") + " " + System.getProperty("java.vm.name", ""),
                Runtime.getRuntime().maxMemory());
    }
}
