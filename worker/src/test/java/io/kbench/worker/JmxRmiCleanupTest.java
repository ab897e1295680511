package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

/**
 * A JVM that read a broker's JMX port and closed the connection lets RMI's distributed garbage collector forget the
 * broker without an error: with {@code sun.rmi.dgc.client.gcInterval} at {@code Long.MAX_VALUE} (what kbench set
 * until 2026-11-29, and what tuning guides advise), the JDK's RMI client takes the value for "no request" and its
 * "RMI RenewClean" thread dies with "IllegalStateException: Request already cancelled" once the last remote
 * reference is collected: a stack trace on the user's console after the run.
 */
class JmxRmiCleanupTest {
    /** A stand-in broker: a JVM with a JMX port (as {@code JMX_PORT} opens one) and a broker's meter. */
    public static final class Broker {
        public static void main(String[] args) throws Exception {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new JmxBrokerSourceLocalTest.Meter(),
                    new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"));
            System.out.println("ready");
            // stops by itself, and with the test's JVM (its stdin closes)
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < end && System.in.read() >= 0) {
                Thread.onSpinWait();
            }
        }
    }

    private static boolean renewing() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith("RMI RenewClean"));
    }

    @Test
    void theRmiClientForgetsAClosedConnectionWithoutAnError() throws Exception {
        Class.forName(JmxBrokerSource.class.getName()); // its setting made, as a worker's first source makes it
        long interval = Long.parseLong(System.getProperty(JmxBrokerSource.DGC_INTERVAL));
        assertTrue(interval > 365L * 24 * 3600 * 1000 && interval < Long.MAX_VALUE,
                "no collection asked for in a run, and a value the RMI client takes as a request: " + interval);

        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path classes = Path.of(Broker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process broker = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-Djava.rmi.server.hostname=127.0.0.1", "-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
                "-cp", classes.toString(), Broker.class.getName()).redirectErrorStream(true).start();
        List<String> died = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler saved = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> died.add(t.getName() + ": " + e));
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("ready", out.readLine());
            try (JmxBrokerSource source = JmxBrokerSource.open("127.0.0.1:" + port, 5_000, 5)) {
                source.read();
            }
            // the connection's remote references collected: RenewClean tells the broker and drops its request
            // (with Long.MAX_VALUE it died within the first second here)
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < end && died.isEmpty() && renewing()) {
                System.gc();
                Thread.sleep(100);
            }
            assertTrue(!renewing(), "the references of the closed connection were not collected in 5 s");
            assertEquals(List.of(), died, "a thread of the JDK's RMI client died");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(saved);
            broker.destroy();
            broker.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
