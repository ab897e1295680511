package io.kbench.coordinator.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.kbench.coordinator.UserException;
import io.kbench.coordinator.run.Workers;
import io.kbench.coordinator.workload.Profile;
import io.kbench.protocol.rpc.ListTopicsRequest;
import io.kbench.protocol.rpc.ListTopicsResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import org.junit.jupiter.api.Test;

/** The coordinator's side of ListTopics (consumer-perf's --include): what it sends, and each answer as the user sees it. */
class WorkerClientListTopicsTest {
    private static final Profile PROFILE = Profile.defaults().withBootstrapServers("b1:9092")
            .with(Map.of("admin.request.timeout.ms", "7000", "common.security.protocol", "SSL"));

    /** A worker that answers ListTopics with {@code answer} (or fails with {@code error}) and keeps the request. */
    private static Server worker(String name, AtomicReference<ListTopicsRequest> seen, ListTopicsResponse answer,
                                 Status error) throws Exception {
        return InProcessServerBuilder.forName(WorkerChannels.IN_PROCESS + name).addService(new WorkerGrpc.WorkerImplBase() {
            @Override
            public void listTopics(ListTopicsRequest request, StreamObserver<ListTopicsResponse> response) {
                seen.set(request);
                if (error != null) {
                    response.onError(error.asRuntimeException());
                    return;
                }
                response.onNext(answer);
                response.onCompleted();
            }
        }).build().start();
    }

    @Test
    void shouldSendTheProfilesClusterAndSettingsAndReturnTheNamesAndTheirCount() throws Exception {
        AtomicReference<ListTopicsRequest> seen = new AtomicReference<>();
        Server server = worker("lt-ok", seen, ListTopicsResponse.newBuilder().addAllTopics(List.of("a1", "a2"))
                .setMatched(5).build(), null);
        try (WorkerClient client = new WorkerClient(WorkerChannels.IN_PROCESS + "lt-ok", ClientSecurity.NONE)) {
            WorkerClient.TopicList list = client.listTopics(PROFILE, "a.*", 2);
            assertEquals(List.of("a1", "a2"), list.names());
            assertEquals(5, list.matched());
        } finally {
            server.shutdownNow();
        }
        ListTopicsRequest r = seen.get();
        assertEquals("a.*", r.getRegex());
        assertEquals(2, r.getLimit());
        assertEquals("b1:9092", r.getDriver().getCommonMap().get("bootstrap.servers"));
        assertEquals("SSL", r.getDriver().getCommonMap().get("security.protocol"));
        assertEquals("7000", r.getDriver().getAdminMap().get("request.timeout.ms"));
    }

    @Test
    void shouldSayTheClusterDidNotAnswerAsUnreachableAndARefusalAsBadInput() throws Exception {
        Server down = worker("lt-down", new AtomicReference<>(), null,
                Status.UNAVAILABLE.withDescription("cannot list the topics of b1:9092: no broker answered within 15 s"));
        Server refused = worker("lt-refused", new AtomicReference<>(), null,
                Status.INTERNAL.withDescription("cannot list the topics of b1:9092: Authorization failed."));
        try (WorkerClient a = new WorkerClient(WorkerChannels.IN_PROCESS + "lt-down", ClientSecurity.NONE);
             WorkerClient b = new WorkerClient(WorkerChannels.IN_PROCESS + "lt-refused", ClientSecurity.NONE)) {
            UserException e = assertThrows(UserException.class, () -> Workers.setup(() -> a.listTopics(PROFILE, ".*", 1)));
            assertTrue(e.unreachable(), "exit 3: " + e.getMessage());
            assertTrue(e.getMessage().contains("no broker answered within 15 s"), e.getMessage());
            e = assertThrows(UserException.class, () -> Workers.setup(() -> b.listTopics(PROFILE, ".*", 1)));
            assertTrue(!e.unreachable() && e.getMessage().contains("Authorization failed."), e.getMessage());
        } finally {
            down.shutdownNow();
            refused.shutdownNow();
        }
    }

    @Test
    void shouldTellAWorkerWithoutTheCallToRunTheSameVersion() throws Exception {
        Server old = InProcessServerBuilder.forName(WorkerChannels.IN_PROCESS + "lt-old")
                .addService(new WorkerGrpc.WorkerImplBase() { }).build().start();
        try (WorkerClient client = new WorkerClient(WorkerChannels.IN_PROCESS + "lt-old", ClientSecurity.NONE)) {
            UserException e = assertThrows(UserException.class, () -> Workers.setup(() -> client.listTopics(PROFILE, ".*", 1)));
            assertEquals("worker in-process:lt-old cannot list topics (an older kbench): run the same kbench version on "
                    + "both", e.getMessage());
        } finally {
            old.shutdownNow();
        }
    }
}
