package io.kbench.embedded;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Map;

import javax.management.ObjectName;

/** A test node in a JVM of its own that answers with its own bytes in (the count of its BytesInPerSec meter). */
public final class FiguresNodeMain {
    private FiguresNodeMain() { }

    public static void main(String[] args) {
        NodeProcess.serve(args, () -> () -> {
            try {
                Object count = ManagementFactory.getPlatformMBeanServer().getAttribute(
                        new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), "Count");
                return Map.of("bytesIn.count", ((Number) count).doubleValue(),
                        "pid", (double) ProcessHandle.current().pid());
            } catch (javax.management.JMException e) {
                throw new IOException(e.getMessage(), e);
            }
        });
    }
}
