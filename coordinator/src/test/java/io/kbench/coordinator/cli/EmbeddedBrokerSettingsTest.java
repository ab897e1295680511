package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.workload.Sweep;
import io.kbench.coordinator.workload.Workload;
import org.junit.jupiter.api.Test;

/** The embedded cluster is started again only when a combination's broker settings differ from those in force. */
class EmbeddedBrokerSettingsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream human = new PrintStream(out, true, StandardCharsets.UTF_8);
    private final List<Map<String, String>> restarts = new ArrayList<>();
    private boolean failNext;

    private final EmbeddedBrokerSettings.Cluster cluster = new EmbeddedBrokerSettings.Cluster() {
        @Override
        public void restart(Map<String, String> brokerConfigs) {
            restarts.add(brokerConfigs);
            if (failNext) {
                failNext = false;
                throw new UserException("the embedded cluster did not start with " + brokerConfigs);
            }
        }

        @Override
        public String problem(String name, String value) {
            return name.equals("num.io.thread") ? "'num.io.thread' is not a Kafka broker config" : null;
        }
    };

    private static Sweep.Point point(Map<String, String> settings) {
        return new Sweep.Point("p", Map.of(), Workload.timed("w", 1, 1, 100, 1, 1, 1, 100, 0, 1), Map.of(), settings);
    }

    @Test
    void shouldStartAgainOnlyWhenTheSettingsChangeAndAfterAFailedStart() {
        EmbeddedBrokerSettings b = new EmbeddedBrokerSettings(cluster, Map.of("num.partitions", "2"), human);
        b.apply(point(Map.of("num.partitions", "2"))); // what it started with
        b.apply(point(Map.of("num.partitions", "2")));
        assertEquals(List.of(), restarts);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("broker settings: num.partitions=2 (the embedded cluster "
                + "started with them)"));
        failNext = true;
        assertThrows(UserException.class, () -> b.apply(point(Map.of("num.partitions", "3"))));
        b.apply(point(Map.of("num.partitions", "3"))); // not known to be running with them: started again
        b.apply(point(Map.of("num.partitions", "3")));
        assertEquals(List.of(Map.of("num.partitions", "3"), Map.of("num.partitions", "3")), restarts);
        assertTrue(b.restore(), "the embedded cluster ends with the command: nothing to put back");
    }

    @Test
    void shouldRefuseAnUnknownSettingBeforeTheClusterStarts() {
        UserException e = assertThrows(UserException.class, () -> EmbeddedBrokerSettings.check(
                List.of(point(Map.of("num.io.thread", "4"))), cluster::problem));
        assertEquals("matrix broker.num.io.thread=4: 'num.io.thread' is not a Kafka broker config", e.getMessage());
    }
}
