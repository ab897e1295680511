package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.ListTopicsRequest;
import io.kbench.protocol.rpc.ListTopicsResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import io.kbench.worker.rpc.WorkerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ListTopics, the call consumer-perf's {@code --include} is resolved by: the worker lists the cluster's topics with
 * the request's client settings and sends back those the regex matches whole, sorted, at most the limit asked for.
 * Over gRPC's in-process transport, on an in-memory driver.
 */
class ListTopicsTest {
    private final FakeDriver driver = new FakeDriver(new SimClock(0));
    private RunManager runs;
    private Server server;
    private ManagedChannel channel;
    private WorkerGrpc.WorkerBlockingStub stub;

    @BeforeEach
    void start() throws Exception {
        runs = new RunManager("w1", MicrosClock.SYSTEM, new SimClock(0), name -> {
            if (!name.equals("fake")) {
                throw new WorkerException(WorkerException.Kind.INVALID, "no driver named '" + name + "' on this worker");
            }
            return driver;
        }, false);
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(new WorkerService(runs)).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
        stub = WorkerGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
        runs.close();
    }

    private static ListTopicsRequest request(String driver, String regex, int limit) {
        return ListTopicsRequest.newBuilder().setDriver(DriverConfig.newBuilder().setName(driver)
                .putCommon("bootstrap.servers", "fake:1")).setRegex(regex).setLimit(limit).build();
    }

    @Test
    void shouldSendTheWholeNameMatchesSortedUpToTheLimitAndCountThemAll() {
        driver.topics = List.of("orders-2", "audit", "orders-10", "orders-1", "xorders-3", "orders-");
        ListTopicsResponse r = stub.listTopics(request("fake", "orders-\\d+", 10));
        assertEquals(List.of("orders-1", "orders-10", "orders-2"), r.getTopicsList(), "whole names only, sorted");
        assertEquals(3, r.getMatched());
        r = stub.listTopics(request("fake", "orders-\\d+", 2));
        assertEquals(List.of("orders-1", "orders-10"), r.getTopicsList());
        assertEquals(3, r.getMatched(), "every match counted, beyond the limit");
        assertEquals(0, stub.listTopics(request("fake", "none.*", 10)).getMatched());
        assertEquals(driver.opened, driver.closed, "each listing closes the driver it opened");
    }

    @Test
    void shouldAnswerUnavailableWhenTheClusterDoesNotAnswer() {
        driver.unreachable = true;
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> stub.listTopics(request("fake", ".*", 10)));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
        assertEquals("cannot list the topics of fake:1: no broker answered within 15 s", e.getStatus().getDescription());
    }

    @Test
    void shouldRefuseWhatItCannotUseAsInvalid() {
        for (var c : List.of(
                new Object[] {request("fake", "t[", 10), "regex is not a Java regular expression: Unclosed character class"},
                new Object[] {request("fake", "", 10), "regex must be 1 to 10000 characters, got 0"},
                new Object[] {request("fake", "t", 0), "limit must be 1 to 100000, got 0"},
                new Object[] {request("fake", "t", 100_001), "limit must be 1 to 100000, got 100001"},
                new Object[] {request("other", "t", 10), "no driver named 'other' on this worker"},
                new Object[] {ListTopicsRequest.newBuilder().setRegex("t").setLimit(1).build(), "no bootstrap.servers given"})) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> stub.listTopics((ListTopicsRequest) c[0]));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), (String) c[1]);
            assertEquals(c[1], e.getStatus().getDescription());
        }
    }
}
