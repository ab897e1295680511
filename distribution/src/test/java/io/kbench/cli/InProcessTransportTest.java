package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.kbench.coordinator.ClockEstimator;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.MicrosClock;
import io.kbench.worker.WorkerServer;
import org.junit.jupiter.api.Test;

/**
 * The worker's server and the coordinator's client over gRPC's in-process transport: both take the transport
 * from the caller, so the protocol is tested without sockets.
 */
class InProcessTransportTest {
    private static WorkerClient client(String name) {
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        return new WorkerClient("in-process:" + name, false, channel);
    }

    @Test
    void shouldIdentifyAndEstimateTheClockOfAWorkerOnTheInProcessTransport() {
        String name = InProcessServerBuilder.generateName();
        MicrosClock skewed = new MicrosClock(5_000_000); // this worker's clock runs 5 s ahead
        try (WorkerServer w = WorkerServer.start(InProcessServerBuilder.forName(name).directExecutor(), "w-in", skewed, null);
             WorkerClient c = client(name)) {
            WorkerClient.Identity id = c.identify();
            assertEquals("w-in", id.id());
            assertEquals(skewed.id(), id.clockId());
            assertTrue(id.busyRunId().isEmpty());
            ClockEstimator.Estimate e = c.clock(8, MicrosClock.SYSTEM::micros);
            // the true offset between the two clocks: each anchors the wall clock (ms) when made, and a wall clock that
            // is being slewed moves away from the monotonic one between the anchors (20.8 ms once, in a full suite)
            long now = System.nanoTime();
            long trueOffset = skewed.toMicros(now) - MicrosClock.SYSTEM.toMicros(now);
            assertTrue(Math.abs(e.offsetMicros() - trueOffset) <= e.uncertaintyMicros() + 1_000,
                    "offset " + e.offsetMicros() + " ± " + e.uncertaintyMicros() + ", true " + trueOffset);
            assertTrue(Math.abs(trueOffset - 5_000_000) < 1_000_000, "about 5 s ahead: " + trueOffset);
        }
    }

    @Test
    void shouldRefuseACallWithoutTheClusterTokenAsARefusalNotAnOutage() {
        String name = InProcessServerBuilder.generateName();
        ClusterToken token = ClusterToken.of("a-token-of-at-least-sixteen-chars", "test");
        try (WorkerServer w = WorkerServer.start(InProcessServerBuilder.forName(name), "w-tok", MicrosClock.SYSTEM, token);
             WorkerClient c = client(name)) {
            WorkerCallException e = assertThrows(WorkerCallException.class, c::identify);
            assertEquals(WorkerCallException.Kind.REFUSED, e.kind());
            assertTrue(e.getMessage().contains("w-tok"), e.getMessage());
        }
    }
}
