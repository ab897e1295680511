package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

/** The probe of the bootstrap addresses against real sockets on loopback. */
class BootstrapProbeTest {
    @Test
    void shouldSayPerAddressWhatTheConnectFoundAndWhatAnAcceptingAddressMeans() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (ServerSocket open = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String listening = "127.0.0.1:" + open.getLocalPort();
            assertEquals("connection refused", BootstrapProbe.probe("127.0.0.1:" + closed, 1_000));
            assertEquals(BootstrapProbe.ACCEPTS, BootstrapProbe.probe(listening, 1_000));
            assertEquals("not HOST:PORT", BootstrapProbe.probe("127.0.0.1", 1_000));
            assertEquals("not HOST:PORT", BootstrapProbe.probe("127.0.0.1:99999", 1_000));
            String both = BootstrapProbe.explain("127.0.0.1:" + closed + ", " + listening, 1_000);
            assertTrue(both.startsWith("connection refused at 127.0.0.1:" + closed + "; TCP connections accepted at "
                    + listening + " — something listens there but no Kafka broker answered the client: check the address, security.protocol"),
                    both);
            assertTrue(both.contains("advertised.listeners"), both);
            assertEquals("connection refused at 127.0.0.1:" + closed, BootstrapProbe.explain("127.0.0.1:" + closed, 1_000));
            assertEquals("", BootstrapProbe.explain(" ", 1_000));
            // before a client waits: nothing listening anywhere is said at once; one address that accepts is enough
            // to let the client try
            assertEquals("connection refused at 127.0.0.1:" + closed + "; not HOST:PORT at nohost",
                    BootstrapProbe.nothingListening("127.0.0.1:" + closed + ",nohost", 1_000));
            assertEquals(null, BootstrapProbe.nothingListening("127.0.0.1:" + closed + "," + listening, 1_000));
            assertEquals(null, BootstrapProbe.nothingListening(" ", 1_000));
            assertEquals(null, BootstrapProbe.nothingListening("nohost", 1_000),
                    "nothing that resolves at all: the client refuses that list itself, as a setting");
            // a name stands for every address it resolves to (localhost: 127.0.0.1 and ::1), as the client tries them all
            assertTrue(BootstrapProbe.allRefuse("127.0.0.1:" + closed, 1_000));
            assertTrue(!BootstrapProbe.allRefuse("localhost:" + open.getLocalPort(), 1_000));
            // more addresses than are probed: the client decides
            assertEquals(null, BootstrapProbe.nothingListening(String.join(",", java.util.Collections.nCopies(
                    BootstrapProbe.MAX + 1, "127.0.0.1:" + closed)), 1_000));
        }
    }
}
