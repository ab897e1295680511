package io.kbench.worker;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * What one JMX call over RMI costs the reading thread, by the kind of call {@link JmxBrokerSource} could make: a
 * meter's count with {@code getAttributes} (a list of name-value pairs back) and with {@code getAttribute} (the
 * number alone), a request-time histogram's three attributes, the heap's {@code HeapMemoryUsage} (a CompositeData),
 * the operating system bean's two attributes and one. Each kind is called {@code WARM} times first (compiled), then
 * {@code CALLS} times measured with the thread's CPU time.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.kbench.worker.JmxCallCost HOST:JMXPORT [WARM] [CALLS]
 * </pre>
 *
 * HOST:JMXPORT is a broker's JMX port, e.g. the one {@code benchmarks/broker-read-cost.sh} starts (or a
 * {@code kbench broker} with {@code -Dcom.sun.management.jmxremote.port=...} in KBENCH_JAVA_OPTS).
 */
public final class JmxCallCost {
    private JmxCallCost() { }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: JmxCallCost HOST:JMXPORT [WARM] [CALLS]");
            System.exit(2);
        }
        int warm = count(args, 1, "WARM", 20_000, 0);
        int calls = count(args, 2, "CALLS", 5_000, 1);
        if (!args[0].matches("[^/\\s]+:[0-9]{1,5}")) {
            fail("expected HOST:JMXPORT (a broker's JMX port), got '" + args[0] + "'");
        }
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[0] + "/jmxrmi");
        JMXConnector connector = null;
        try {
            connector = JMXConnectorFactory.connect(url);
        } catch (java.io.IOException e) {
            fail("no JMX server answered at " + args[0] + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        try (JMXConnector c = connector) {
            MBeanServerConnection m = c.getMBeanServerConnection();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            ObjectName meter = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec");
            ObjectName total = new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce");
            ObjectName memory = new ObjectName("java.lang:type=Memory");
            ObjectName os = new ObjectName("java.lang:type=OperatingSystem");
            String[] count = {"Count"};
            String[] histogram = {"Count", "Mean", "99thPercentile"};
            String[] cpu = {"ProcessCpuTime", "AvailableProcessors"};
            String[] kinds = {"getAttributes(meter, [Count])", "getAttribute(meter, Count)",
                "getAttributes(TotalTimeMs, 3)", "getAttribute(Memory, HeapMemoryUsage)",
                "getAttributes(OperatingSystem, 2)", "getAttribute(OperatingSystem, ProcessCpuTime)"};
            for (int measured = 0; measured < 2; measured++) {
                for (int k = 0; k < kinds.length; k++) {
                    int n = measured == 0 ? warm : calls;
                    long t0 = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < n; i++) {
                        switch (k) {
                            case 0 -> m.getAttributes(meter, count);
                            case 1 -> m.getAttribute(meter, "Count");
                            case 2 -> m.getAttributes(total, histogram);
                            case 3 -> m.getAttribute(memory, "HeapMemoryUsage");
                            case 4 -> m.getAttributes(os, cpu);
                            default -> m.getAttribute(os, "ProcessCpuTime");
                        }
                    }
                    if (measured == 1) {
                        System.out.printf(Locale.ROOT, "%-48s %7.1f us of the thread's CPU per call%n", kinds[k],
                                (threads.getCurrentThreadCpuTime() - t0) / 1e3 / n);
                    }
                }
            }
        }
    }

    /** Argument {@code i} as a whole number from {@code min} to 10,000,000, or {@code otherwise} when absent. */
    private static int count(String[] args, int i, String what, int otherwise, int min) {
        if (args.length <= i) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(args[i]);
            if (n >= min && n <= 10_000_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        fail(what + " must be a whole number from " + min + " to 10000000, got '" + args[i] + "'");
        return otherwise;
    }

    private static void fail(String why) {
        System.err.println("JmxCallCost: " + why);
        System.exit(2);
    }
}
