package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The brokers' figures read over a real JMX/RMI connection (the path {@code --broker-jmx} takes to a broker's
 * JMX_PORT): a real broker in this JVM, its MBeans served on a loopback JMX port, a run against it. And the
 * refusals before any load: an address where nothing answers, --broker-jmx with the embedded cluster.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class BrokerMetricsIT {
    @TempDir
    Path dir;

    @Test
    void shouldReadABrokersFiguresOverJmxAndRefuseAnAddressThatDoesNotAnswer() throws Exception {
        Path w = Files.writeString(dir.resolve("w.yaml"), """
                name: broker-metrics
                partitionsPerTopic: 3
                messageSize: 1000
                producerRate: 2000
                warmupSeconds: 1
                durationSeconds: 3
                """);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        Registry registry = LocateRegistry.createRegistry(port);
        JMXConnectorServer jmx = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"), Map.of(),
                ManagementFactory.getPlatformMBeanServer());
        jmx.start();
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            String address = "127.0.0.1:" + port;
            JsonNode r = InProcessRun.run(kafka, w, dir.resolve("jmx"), "--broker-jmx", address);
            assertEquals("COMPLETED", r.get("status").asText());
            double measuredIn = 0;
            int measured = 0;
            for (JsonNode i : r.get("intervals")) {
                JsonNode b = i.get("brokers");
                assertTrue(b != null && b.size() == 1 && b.get(0).get("source").asText().equals(address), i.toString());
                // the measured intervals in which the producers sent at their rate (not the last, short interval that
                // may hold a handful of final sends, for which the broker rightly shows almost nothing)
                if (!i.get("warmup").asBoolean() && i.get("publish").get("sent").asLong() >= 1_000) {
                    measuredIn += b.get(0).get("figures").get("bytesInPerSec").asDouble();
                    measured++;
                    double idle = b.get(0).get("figures").get("requestHandlerIdle").asDouble();
                    assertTrue(idle > 0 && idle <= 1, "idle is a share: " + b);
                    assertTrue(b.get(0).get("figures").get("produceRequestsPerSec").asDouble() > 0, b.toString());
                    assertTrue(b.get(0).get("figures").has("produceTotalTimeMsMean"), b.toString());
                }
            }
            assertTrue(measured >= 2, r.get("intervals").toString());
            // what the broker took in against what kbench had acknowledged: 2,000 x 1,000-byte values a second,
            // plus record and batch headers
            double ratio = measuredIn / measured / (2000 * 1000.0);
            assertTrue(ratio > 0.95 && ratio < 1.3, "broker bytes in / acknowledged value bytes = " + ratio);

            // nothing listens there: refused while preparing, before any load, in one line
            int closed;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                closed = s.getLocalPort();
            }
            InProcessRun.Outcome bad = InProcessRun.execute("run", "--output", dir.resolve("bad").toString(),
                    "--bootstrap-servers", kafka.bootstrapServers(), "--broker-jmx", "127.0.0.1:" + closed, w.toString());
            assertEquals(2, bad.exitCode(), bad.stderr());
            assertTrue(bad.stderr().contains("cannot read the broker metrics of JMX 127.0.0.1:" + closed), bad.stderr());
            assertFalse(bad.stderr().contains("\tat "), "no stack trace: " + bad.stderr());
            assertFalse(Files.exists(dir.resolve("bad/result.json")), "no run took place");
        } finally {
            jmx.stop();
            UnicastRemoteObject.unexportObject(registry, true);
        }
        InProcessRun.Outcome embedded = InProcessRun.execute("run", "--broker-jmx", "127.0.0.1:1", w.toString());
        assertEquals(2, embedded.exitCode(), embedded.stderr());
        assertTrue(embedded.stderr().contains("--broker-jmx reads a cluster of yours"), embedded.stderr());
        InProcessRun.Outcome twice = InProcessRun.execute("run", "--bootstrap-servers", "127.0.0.1:9",
                "--broker-jmx", "b:1,b:1", w.toString());
        assertEquals(2, twice.exitCode(), twice.stderr());
        assertTrue(twice.stderr().contains("b:1 is given twice"), twice.stderr());
    }
}
