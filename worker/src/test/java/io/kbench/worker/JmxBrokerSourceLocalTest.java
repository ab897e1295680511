package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The local source (the embedded brokers in this JVM) reads only while every embedded broker is registered: the
 * brokers here are stand-in MBeans under the names Kafka gives them ({@code kafka.server:type=app-info,id=N}).
 */
class JmxBrokerSourceLocalTest {
    /** A stand-in meter: what the source reads of BrokerTopicMetrics. */
    public interface MeterMBean {
        long getCount();
    }

    public static final class Meter implements MeterMBean {
        static final java.util.concurrent.atomic.AtomicInteger READS = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public long getCount() {
            READS.incrementAndGet();
            return 42;
        }
    }

    /** A stand-in for a broker's app-info bean. */
    public interface AppInfoMBean {
        String getVersion();
    }

    public static final class AppInfo implements AppInfoMBean {
        @Override
        public String getVersion() {
            return "test";
        }
    }

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<String> names = List.of("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec",
            "kafka.server:type=app-info,id=1", "kafka.server:type=app-info,id=2");

    private void register(String name) throws Exception {
        server.registerMBean(name.contains("app-info") ? new AppInfo() : new Meter(), new ObjectName(name));
    }

    @AfterEach
    void unregister() throws Exception {
        for (String n : names) {
            if (server.isRegistered(new ObjectName(n))) {
                server.unregisterMBean(new ObjectName(n));
            }
        }
    }

    @Test
    void shouldNotLetRmiAskForAFullCollectionEveryHour() throws Exception {
        try (JmxBrokerSource s = JmxBrokerSource.open("local", 500, 1)) {
            assertEquals(Long.toString(JmxBrokerSource.DGC_NEVER), System.getProperty(JmxBrokerSource.DGC_INTERVAL));
        } catch (IOException e) {
            // no broker beans in this JVM: the class, and its setting, are loaded all the same
            assertEquals(Long.toString(JmxBrokerSource.DGC_NEVER), System.getProperty(JmxBrokerSource.DGC_INTERVAL));
        }
    }

    @Test
    void shouldStopForGoodWhenOneOfSeveralEmbeddedBrokersStops() throws Exception {
        for (String n : names) {
            register(n);
        }
        try (JmxBrokerSource s = JmxBrokerSource.open("local", 500, 1)) {
            assertEquals(42.0, s.read().get("bytesInPerSec.count"));
            assertEquals(2.0, s.read().get("handlerIdle.pools"), "two brokers' handler pools mark the shared idle meter");
            server.unregisterMBean(new ObjectName("kafka.server:type=app-info,id=2"));
            IOException e = assertThrows(IOException.class, s::read);
            assertTrue(e.getMessage().startsWith("embedded broker(s) 2 stopped: the embedded brokers share one metrics "
                    + "registry"), e.getMessage());
            register("kafka.server:type=app-info,id=2"); // started again: its meters no longer count the others
            assertThrows(IOException.class, s::read);
        }
    }

    @Test
    void shouldSayTheOnlyEmbeddedBrokerIsStoppedAndReadAgainOnceItServes() throws Exception {
        register(names.get(0));
        register(names.get(1));
        try (JmxBrokerSource s = JmxBrokerSource.open("local", 500, 1)) {
            s.read();
            server.unregisterMBean(new ObjectName(names.get(1)));
            assertEquals("the embedded broker is stopped", assertThrows(IOException.class, s::read).getMessage());
            register(names.get(1));
            assertEquals(42.0, s.read().get("bytesInPerSec.count"));
            assertEquals(1.0, s.read().get("handlerIdle.pools"));
        }
    }

    @Test
    void shouldWarmTheReadPathWithReadsBackToBackForAtMostTwoSeconds() throws Exception {
        register(names.get(0));
        register(names.get(1));
        try (JmxBrokerSource s = JmxBrokerSource.open("local", 500, 1)) {
            assertEquals(0, s.warmOnce(0, () -> 0), "the embedded brokers' own MBeans: no RMI client to warm");
            int before = Meter.READS.get();
            assertEquals(30, s.warm(30, 0, () -> 0), "a fast source: every read asked for");
            assertEquals(30, Meter.READS.get() - before, "each a whole read of the source");
            long[] now = {0};
            assertEquals(2, s.warm(30, 0, () -> now[0] += 700_000_000L), "before each read 0.7 s, 1.4 s on; 2.1 s stops");
            server.unregisterMBean(new ObjectName(names.get(1)));
            assertEquals(0, s.warm(30, 0, () -> 0), "a read that fails ends them, and says nothing");
        }
    }
}
