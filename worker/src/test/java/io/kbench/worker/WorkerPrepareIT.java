package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.PrepareResponse;
import io.kbench.protocol.rpc.PrepareStatusRequest;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.TopicSpec;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Prepare is idempotent for the same request only, is polled without its spec, and never keeps the worker from
 * answering Identify while it waits for Kafka.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WorkerPrepareIT {
    private static final String TOPIC = "prepare-topic";

    @Test
    void shouldAnswerIdentifyAsBusyWhileAPrepareWaitsForKafka() throws Exception {
        // a port that takes connections and never answers (no broker behind it): reaching Kafka there takes the
        // client's full timeout; a closed port would be refused at once (the driver probes it first)
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             WorkerServer worker = WorkerServer.start("127.0.0.1", 0, "w-prep", MicrosClock.SYSTEM)) {
            int silentPort = silent.getLocalPort();
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", worker.port()).usePlaintext().build();
            try {
                long started = System.nanoTime();
                ListenableFuture<PrepareResponse> slow = WorkerGrpc.newFutureStub(channel)
                        .prepare(prepare("run-slow", "127.0.0.1:" + silentPort, 100));
                WorkerGrpc.WorkerBlockingStub quick = WorkerGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
                IdentifyResponse id = quick.identify(identify());
                while (id.getBusyRunId().isEmpty()) {
                    Thread.sleep(20);
                    id = quick.identify(identify());
                }
                // Identify answers at once while the prepare still waits for the broker
                for (int i = 0; i < 5; i++) {
                    long t0 = System.nanoTime();
                    id = WorkerGrpc.newBlockingStub(channel).withDeadlineAfter(2, TimeUnit.SECONDS).identify(identify());
                    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "Identify waited for the prepare");
                    assertEquals("run-slow", id.getBusyRunId());
                    assertTrue(id.getBusyCoordinator().startsWith("127.0.0.1:"), id.getBusyCoordinator());
                    Thread.sleep(200);
                }
                assertFalse(slow.isDone(), "the prepare should still be reaching Kafka");
                assertFalse(quick.prepareStatus(status("run-slow")).getReady());
                StatusRuntimeException busy = assertThrows(StatusRuntimeException.class,
                        () -> quick.prepare(prepare("run-other", "127.0.0.1:" + silentPort, 100)));
                assertEquals(Status.Code.FAILED_PRECONDITION, busy.getStatus().getCode());
                assertTrue(busy.getStatus().getDescription().contains("busy with run run-slow"), busy.getMessage());

                Exception failed = assertThrows(Exception.class, () -> slow.get(60, TimeUnit.SECONDS));
                assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(failed).getCode(), failed.toString());
                System.out.printf("prepare against a silent port failed after %.1f s; Identify kept answering%n",
                        (System.nanoTime() - started) / 1e9);
                assertEquals("", quick.identify(identify()).getBusyRunId(), "free again once the prepare failed");
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void shouldRefuseAPrepareWithAnotherSpecUnderTheSameRunIdAndAnswerPollsWithoutASpec() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             WorkerServer worker = WorkerServer.start("127.0.0.1", 0, "w-spec", MicrosClock.SYSTEM)) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", worker.port()).usePlaintext().build();
            try {
                WorkerGrpc.WorkerBlockingStub stub = WorkerGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
                PrepareRequest spec = prepare("run-s", kafka.bootstrapServers(), 100);
                stub.prepare(spec);
                assertTrue(stub.prepare(spec).getReady(), "a retransmission answers the readiness");
                assertTrue(stub.prepareStatus(status("run-s")).getReady());

                StatusRuntimeException other = assertThrows(StatusRuntimeException.class,
                        () -> stub.prepare(prepare("run-s", kafka.bootstrapServers(), 200)));
                assertEquals(Status.Code.FAILED_PRECONDITION, other.getStatus().getCode());
                assertTrue(other.getStatus().getDescription().contains("with another spec"), other.getMessage());

                StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class,
                        () -> stub.prepareStatus(status("run-unknown")));
                assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
                stub.stop(StopRequest.newBuilder().setRunId("run-s").build());
                assertEquals("", stub.identify(identify()).getBusyRunId());
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static IdentifyRequest identify() {
        return IdentifyRequest.newBuilder().setProtocolVersion(Versions.PROTOCOL).build();
    }

    private static PrepareStatusRequest status(String runId) {
        return PrepareStatusRequest.newBuilder().setRunId(runId).build();
    }

    private static PrepareRequest prepare(String runId, String bootstrap, int messageSize) {
        return PrepareRequest.newBuilder().setRunId(runId)
                .setDriver(DriverConfig.newBuilder().setName("kafka").putCommon("bootstrap.servers", bootstrap))
                .addProducers(ProducerAssignment.newBuilder().setProducerIndex(0).setTopic(TOPIC).setRatePerSecond(1_000))
                .addCreateTopics(TopicSpec.newBuilder().setName(TOPIC).setPartitions(1).setReplicationFactor(1))
                .setMessageSize(messageSize).setIntervalMicros(1_000_000).build();
    }
}
