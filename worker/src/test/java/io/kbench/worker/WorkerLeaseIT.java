package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.kbench.embedded.EmbeddedKafka;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.RunRequest;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.StopRequest;
import io.kbench.protocol.rpc.TopicSpec;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Run stream is the worker's lease: when the stream breaks, the worker stops its load and is free again —
 * over gRPC, against a real broker. The lease's rules themselves (renewals, their timeout, a stale stream, a run
 * prepared but never started) are {@link WorkerLifecycleTest}'s, on simulated time.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkerLeaseIT {
    private static final String TOPIC = "lease-topic";

    @Test
    void shouldStopProducingWhenTheRunStreamIsCutThenServeTheNextRunIdempotently() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
             WorkerServer worker = WorkerServer.start("127.0.0.1", 0, "w-lease", MicrosClock.SYSTEM)) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", worker.port()).usePlaintext().build();
            try {
                WorkerGrpc.WorkerBlockingStub stub = WorkerGrpc.newBlockingStub(channel);
                stub.prepare(prepare("run-1", kafka.bootstrapServers(), true));

                LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
                Context.CancellableContext lease = Context.current().withCancellation();
                long now = MicrosClock.SYSTEM.micros();
                lease.run(() -> WorkerGrpc.newStub(channel).run(RunRequest.newBuilder().setRunId("run-1")
                        .setStartMicros(now + 200_000).setEndMicros(now + 120_000_000).build(), observer(events)));
                long acked = 0;
                for (int i = 0; i < 3; i++) {
                    Object e = events.poll(10, TimeUnit.SECONDS);
                    assertTrue(e instanceof Snapshot, "expected a snapshot, got " + e);
                    acked += ((Snapshot) e).getCounters().getAcked();
                }
                assertTrue(acked > 0, "the producer should be sending before the lease is cut");
                assertEquals("run-1", stub.identify(identify()).getBusyRunId());

                lease.cancel(null); // the coordinator's side of the stream goes away
                long cutAt = System.nanoTime();
                while (!stub.identify(identify()).getBusyRunId().isEmpty()) {
                    assertTrue(System.nanoTime() - cutAt < TimeUnit.SECONDS.toNanos(5), "worker still busy 5 s after the cut");
                    Thread.sleep(50);
                }
                long before = endOffset(kafka);
                Thread.sleep(2_000);
                assertEquals(before, endOffset(kafka), "messages were still produced after the lease was lost");

                // the worker is free for the next coordinator; repeated calls with its run id are harmless
                assertTrue(stub.prepare(prepare("run-2", kafka.bootstrapServers(), false)).getReady());
                assertTrue(stub.prepare(prepare("run-2", kafka.bootstrapServers(), false)).getReady());
                StatusRuntimeException busy = assertThrows(StatusRuntimeException.class,
                        () -> stub.prepare(prepare("run-3", kafka.bootstrapServers(), false)));
                assertEquals(Status.Code.FAILED_PRECONDITION, busy.getStatus().getCode());
                assertTrue(busy.getStatus().getDescription().contains("busy with run run-2"), busy.getMessage());
                stub.stop(StopRequest.newBuilder().setRunId("run-2").build());
                stub.stop(StopRequest.newBuilder().setRunId("run-2").build());
                assertEquals("", stub.identify(identify()).getBusyRunId());
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    private static IdentifyRequest identify() {
        return IdentifyRequest.newBuilder().setProtocolVersion(Versions.PROTOCOL).build();
    }

    private static PrepareRequest prepare(String runId, String bootstrap, boolean createTopic) {
        PrepareRequest.Builder b = PrepareRequest.newBuilder().setRunId(runId)
                .setDriver(DriverConfig.newBuilder().setName("kafka").putCommon("bootstrap.servers", bootstrap))
                .addProducers(ProducerAssignment.newBuilder().setProducerIndex(0).setTopic(TOPIC).setRatePerSecond(2_000))
                .setMessageSize(100).setIntervalMicros(1_000_000);
        if (createTopic) {
            b.addCreateTopics(TopicSpec.newBuilder().setName(TOPIC).setPartitions(1).setReplicationFactor(1));
        }
        return b.build();
    }

    private static long endOffset(EmbeddedKafka kafka) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            TopicPartition tp = new TopicPartition(TOPIC, 0);
            return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get(10, TimeUnit.SECONDS).get(tp).offset();
        }
    }

    private static StreamObserver<Snapshot> observer(LinkedBlockingQueue<Object> events) {
        return new StreamObserver<>() {
            @Override
            public void onNext(Snapshot s) {
                events.add(s);
            }

            @Override
            public void onError(Throwable t) {
                events.add(t);
            }

            @Override
            public void onCompleted() {
                events.add("completed");
            }
        };
    }

}
