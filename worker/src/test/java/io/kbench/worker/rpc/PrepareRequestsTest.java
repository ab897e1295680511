package io.kbench.worker.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.kbench.protocol.rpc.DriverConfig;
import io.kbench.protocol.rpc.KeySpec;
import io.kbench.protocol.rpc.PayloadSpec;
import io.kbench.protocol.rpc.PrepareRequest;
import io.kbench.protocol.rpc.ProducerAssignment;
import io.kbench.protocol.rpc.ShareSettings;
import io.kbench.worker.RunSpec;
import io.kbench.worker.WorkerException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A Prepare request checked and mapped to its run, without gRPC. */
class PrepareRequestsTest {
    private static PrepareRequest.Builder valid() {
        return PrepareRequest.newBuilder().setRunId("r1").setWorkload("wl")
                .setDriver(DriverConfig.newBuilder().setName("kafka").putCommon("bootstrap.servers", "b:9092"))
                .addProducers(ProducerAssignment.newBuilder().setProducerIndex(0).setTopic("t").setRatePerSecond(1_000))
                .setMessageSize(100).setIntervalMicros(1_000_000);
    }

    @Test
    void shouldMapAValidRequest() {
        RunSpec spec = PrepareRequests.toSpec(valid().build(), "10.0.0.1:5000");
        assertEquals("r1", spec.runId());
        assertEquals("10.0.0.1:5000", spec.coordinator());
        assertEquals("kafka", spec.driverName());
        assertEquals(List.of(new RunSpec.Producer(0, "t", 1_000, 0)), spec.producers());
        assertEquals(100, spec.values().messageSize());
        assertTrue(spec.stampMessages());
        assertEquals(PrepareRequests.digest(valid().build()), spec.digest());
        // the embedded cluster's nodes in JVMs of their own, read through the coordinator's process
        assertEquals(List.of("local", "local:3"), PrepareRequests.toSpec(valid().addBrokerSources("local")
                .addBrokerSources("local:3").build(), "c").brokerSources());
    }

    @Test
    void shouldFingerprintTheRequestNotItsObjectIdentity() {
        assertEquals(PrepareRequests.digest(valid().build()), PrepareRequests.digest(valid().build()));
        assertNotEquals(PrepareRequests.digest(valid().build()), PrepareRequests.digest(valid().setMessageSize(101).build()));
        // map entries in key order: the same map built in another order is the same request
        PrepareRequest ab = valid().setDriver(DriverConfig.newBuilder().putCommon("a", "1").putCommon("b", "2")).build();
        PrepareRequest ba = valid().setDriver(DriverConfig.newBuilder().putCommon("b", "2").putCommon("a", "1")).build();
        assertEquals(PrepareRequests.digest(ab), PrepareRequests.digest(ba));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refused(b -> b.setRunId(""), "run_id is empty"),
                refused(b -> b.setMessageSize(-1), "message_size must be >= 0 (0: empty values) and interval_micros >= 1000"),
                refused(b -> b.setIntervalMicros(999), "message_size must be >= 0 (0: empty values) and interval_micros >= 1000"),
                refused(b -> b.setMessageSize(100 * 1024 * 1024 + 1), "message_size must be at most 104857600 bytes and payload values at most 1000000"),
                refused(b -> b.setPayloads(PayloadSpec.newBuilder().setRandomBytesRatio(1.5)), "random_bytes_ratio must be 0..1, got 1.5"),
                refused(b -> b.setPayloads(PayloadSpec.newBuilder().setMonotonicProducers(-1)),
                        "payloads.monotonic_producers must be 0 or more than every producer index, got -1"),
                refused(b -> b.setKeys(KeySpec.newBuilder().setDistribution(io.kbench.protocol.rpc.KeyDistribution.KEY_RANDOM)),
                        "keys: count must be >= 1 and zipf_exponent > 0"),
                refused(b -> b.setKeys(KeySpec.newBuilder().setSize(-1)),
                        "keys: size must be 0 to 1048576 bytes, and 0 with a distribution, got -1"),
                refused(b -> b.setKeys(KeySpec.newBuilder().setDistribution(io.kbench.protocol.rpc.KeyDistribution.KEY_RANDOM)
                        .setCount(5).setSize(10)), "keys: size must be 0 to 1048576 bytes, and 0 with a distribution, got 10"),
                refused(b -> b.setHeaders(io.kbench.protocol.rpc.HeaderSpec.newBuilder().setCount(10_000).setKeySize(10)
                        .setValueSize(100)), "headers: count must be 0 to 10000, key_size 0 to 32767, value_size -1 or more, "
                        + "and all of them together at most 1048576 bytes"),
                refused(b -> b.setHeaders(io.kbench.protocol.rpc.HeaderSpec.newBuilder().setCount(1).setValueSize(-2)),
                        "headers: count must be 0 to 10000, key_size 0 to 32767, value_size -1 or more, "
                        + "and all of them together at most 1048576 bytes"),
                refused(b -> b.setProducers(0, ProducerAssignment.newBuilder().setProducerIndex(0).setTopic("t").setRatePerSecond(0)),
                        "producer 0: rate must be -1 or >= 1, got 0"),
                refused(b -> b.setProducers(0, ProducerAssignment.newBuilder().setProducerIndex(0).setTopic("t")
                        .setRatePerSecond(-1).setRecordLimit(-5)), "producer 0: record_limit must be >= 0, got -5"),
                refused(b -> b.setShare(ShareSettings.newBuilder().setReleasePpm(600_000).setRejectPpm(500_000)),
                        "share settings out of range: release 600000 and reject 500000 ppm (0 to 1,000,000 together)"),
                refused(b -> b.setConsumerProcessingMicros(-1), "consumer_processing_micros must be 0 to 60000000, got -1"),
                refused(b -> b.setVerification(true).setNoStamp(true), "verification needs stamped messages (no_stamp is set)"),
                refused(b -> b.setWorkload("w".repeat(201)), "workload name longer than 200 characters"),
                refused(b -> b.addBrokerSources("ftp://admin:s3cret@broker-1:21"),
                        "broker source must be \"local\", \"local:N\" (N 1 to 9), HOST:PORT or an http(s) URL, got \"ftp://broker-1:21\""));
    }

    private static Arguments refused(UnaryOperator<PrepareRequest.Builder> change, String message) {
        return Arguments.of(change, message);
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void shouldRefuseAFieldOutOfRangeNamingIt(UnaryOperator<PrepareRequest.Builder> change, String message) {
        WorkerException e = assertThrows(WorkerException.class,
                () -> PrepareRequests.toSpec(change.apply(valid()).build(), "c:1"));
        assertEquals(WorkerException.Kind.INVALID, e.kind());
        assertEquals(message, e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"));
    }

    @Test
    void shouldCheckABrokerConfigChangeBeforeTheClusterSeesIt() {
        java.util.function.UnaryOperator<io.kbench.protocol.rpc.AlterBrokerConfigsRequest.Builder> ok = b -> b
                .setDriver(DriverConfig.newBuilder().putCommon("bootstrap.servers", "b:9092")).setTimeoutMillis(60_000);
        PrepareRequests.BrokerConfigChange c = PrepareRequests.brokerConfigChange(ok.apply(
                io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder().putSet("num.io.threads", "4")
                        .addDelete("log.flush.interval.ms").setValidateOnly(true)).build());
        assertEquals(Map.of("num.io.threads", "4"), c.set());
        assertEquals(List.of("log.flush.interval.ms"), c.delete());
        assertTrue(c.validateOnly());
        Map<String, io.kbench.protocol.rpc.AlterBrokerConfigsRequest.Builder> refused = Map.of(
                "set and delete must name 1 to 100 configs each, got 0 and 0",
                ok.apply(io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder()),
                "a broker config name is 1 to 249 of a-z 0-9 . _ -, got 'Num IO'",
                ok.apply(io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder().putSet("Num IO", "4")),
                "a broker config is named twice",
                ok.apply(io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder().putSet("a", "1").addDelete("a")),
                "timeout_millis must be 1000 to 300000, got 0",
                io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder().putSet("a", "1")
                        .setDriver(DriverConfig.newBuilder().putCommon("bootstrap.servers", "b:9092")),
                "no bootstrap.servers given",
                io.kbench.protocol.rpc.AlterBrokerConfigsRequest.newBuilder().putSet("a", "1").setTimeoutMillis(1000));
        refused.forEach((message, request) -> assertEquals(message, assertThrows(WorkerException.class,
                () -> PrepareRequests.brokerConfigChange(request.build())).getMessage()));
    }

    @Test
    void shouldTakeARoundTripOnTheWorkerThatRunsBothEndsAndOnOneThatRunsNothing() {
        io.kbench.protocol.rpc.ConsumerAssignment consumer = io.kbench.protocol.rpc.ConsumerAssignment.newBuilder()
                .setConsumerIndex(0).setTopic("t").setGroup("g").build();
        assertTrue(PrepareRequests.toSpec(valid().setRoundTrip(true).addConsumers(consumer).build(), "c").roundTrip());
        assertTrue(PrepareRequests.toSpec(valid().clearProducers().setRoundTrip(true).build(), "c").roundTrip(),
                "a worker the plan gave nothing: another one runs the loop");
        assertEquals("round_trip needs one producer and one classic consumer of the same topic on this worker (or "
                + "neither), got 1 producer(s) and 0 consumer(s)", assertThrows(WorkerException.class,
                () -> PrepareRequests.toSpec(valid().setRoundTrip(true).build(), "c")).getMessage());
    }
}
