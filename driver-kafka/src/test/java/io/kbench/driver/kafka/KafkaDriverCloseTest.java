package io.kbench.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kbench.driver.DriverConfig;
import io.kbench.driver.DriverException;
import io.kbench.driver.NanoClock;
import org.junit.jupiter.api.Test;

/** The end of a run whose cluster stopped answering: the driver's close does not wait for calls it gave up on. */
class KafkaDriverCloseTest {
    @Test
    void shouldCloseAtOnceAfterADeletionThatTimedOut() throws Exception {
        // a port that takes connections and never answers: the deletion waits its whole timeout, then stays pending
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            KafkaDriver driver = new KafkaDriver(new DriverConfig(Map.of("bootstrap.servers", "127.0.0.1:"
                    + silent.getLocalPort()), Map.of(), Map.of(), Map.of()), NanoClock.SYSTEM);
            DriverException e = assertThrows(DriverException.class,
                    () -> driver.deleteTopics(List.of("gone"), Duration.ofSeconds(1)));
            assertTrue(e.getMessage().startsWith("topics [gone] not deleted within 1 s"), e.getMessage());
            long t0 = System.nanoTime();
            driver.close();
            double seconds = (System.nanoTime() - t0) / 1e9;
            // the Admin client's close waited up to 5 s for the pending deletion before; now it fails it at once
            assertTrue(seconds < 2.5, "close took " + seconds + " s");
        }
    }
}
