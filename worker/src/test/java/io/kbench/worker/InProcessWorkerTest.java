package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.junit.jupiter.api.Test;

/** Workers on gRPC's in-process transport: reached by their address, one name per server in the JVM. */
class InProcessWorkerTest {
    @Test
    void shouldAnswerAtItsAddressAndTakeAnotherNameWhileTheFirstIsHeld() throws Exception {
        try (WorkerServer a = WorkerServer.startInProcess("local-1", MicrosClock.SYSTEM);
             WorkerServer b = WorkerServer.startInProcess("local-1", MicrosClock.SYSTEM)) {
            assertEquals("in-process:local-1", a.address());
            assertNotEquals(a.address(), b.address());
            for (WorkerServer w : new WorkerServer[] {a, b}) {
                ManagedChannel channel = InProcessChannelBuilder.forName(w.address()).build();
                try {
                    assertEquals("local-1", WorkerGrpc.newBlockingStub(channel).identify(IdentifyRequest.newBuilder()
                            .setProtocolVersion(Versions.PROTOCOL).build()).getWorkerId());
                } finally {
                    channel.shutdownNow();
                }
            }
        }
        try (WorkerServer again = WorkerServer.startInProcess("local-1", MicrosClock.SYSTEM)) {
            assertEquals("in-process:local-1", again.address(), "a closed server's name is free again");
        }
    }
}
