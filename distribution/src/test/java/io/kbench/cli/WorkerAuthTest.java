package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.kbench.coordinator.rpc.ClientSecurity;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.ClusterToken;
import io.kbench.protocol.MicrosClock;
import io.kbench.protocol.Versions;
import io.kbench.protocol.rpc.IdentifyRequest;
import io.kbench.protocol.rpc.IdentifyResponse;
import io.kbench.protocol.rpc.WorkerGrpc;
import io.kbench.worker.WorkerSecurity;
import io.kbench.worker.WorkerServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may give a worker work: the cluster token, TLS and mutual TLS, the loopback-or-insecure rule, and the
 * version check at identify time. Real gRPC servers and clients on loopback; no Kafka is needed, since every
 * refusal happens before a run is prepared.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WorkerAuthTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";
    private static final ClusterToken GOOD = ClusterToken.of(TOKEN, "test");

    @TempDir
    static Path dir;
    static TestCertificates ca;
    static TestCertificates rogue;
    static TestCertificates.Pem server;
    static TestCertificates.Pem client;
    static TestCertificates.Pem rogueClient;

    @BeforeAll
    static void certificates() throws Exception {
        ca = TestCertificates.authority(dir, "kbench");
        rogue = TestCertificates.authority(dir, "rogue");
        server = ca.issue("worker", List.of("127.0.0.1"), List.of("localhost"));
        client = ca.issue("coordinator", List.of(), List.of());
        rogueClient = rogue.issue("intruder", List.of(), List.of());
    }

    private static WorkerServer worker(WorkerSecurity security) {
        return WorkerServer.start("127.0.0.1", 0, "w-auth", MicrosClock.SYSTEM, security);
    }

    private static WorkerClient.Identity identify(WorkerServer w, ClientSecurity security) {
        try (WorkerClient c = new WorkerClient("127.0.0.1:" + w.port(), security)) {
            return c.identify();
        }
    }

    private static ClientSecurity token(ClusterToken t) {
        return new ClientSecurity(t, false, null, null, null, null);
    }

    @Test
    void shouldAcceptACoordinatorPresentingTheClusterToken() {
        try (WorkerServer w = worker(new WorkerSecurity(GOOD, null, null, null, false))) {
            assertEquals("w-auth", identify(w, token(ClusterToken.of(TOKEN, "coordinator"))).id());
        }
    }

    @Test
    void shouldRefuseACoordinatorWithoutTheToken() {
        try (WorkerServer w = worker(new WorkerSecurity(GOOD, null, null, null, false))) {
            WorkerCallException e = assertThrows(WorkerCallException.class, () -> identify(w, ClientSecurity.NONE));
            assertEquals(WorkerCallException.Kind.REFUSED, e.kind());
            assertEquals("worker w-auth refused the call: no cluster token presented (give the coordinator the "
                    + "workers' token with --token-file or $KBENCH_TOKEN)", e.getMessage());
        }
    }

    @Test
    void shouldRefuseACoordinatorWithTheWrongToken() {
        try (WorkerServer w = worker(new WorkerSecurity(GOOD, null, null, null, false))) {
            WorkerCallException e = assertThrows(WorkerCallException.class,
                    () -> identify(w, token(ClusterToken.of(TOKEN.replace('0', 'x'), "coordinator"))));
            assertEquals(WorkerCallException.Kind.REFUSED, e.kind());
            assertTrue(e.getMessage().contains("wrong cluster token"), e.getMessage());
            assertFalse(e.getMessage().contains(TOKEN), "the token must not appear in messages");
        }
    }

    @Test
    void shouldServeTlsAndRefuseAPlaintextOrUntrustingCoordinator() {
        try (WorkerServer w = worker(new WorkerSecurity(GOOD, server.cert(), server.key(), null, false))) {
            assertEquals("w-auth", identify(w, new ClientSecurity(GOOD, true, ca.caFile(), null, null, null)).id());

            WorkerCallException plain = assertThrows(WorkerCallException.class, () -> identify(w, token(GOOD)));
            assertTrue(plain.getMessage().contains("if the worker serves TLS, give --tls and --tls-ca"), plain.getMessage());

            WorkerCallException untrusted = assertThrows(WorkerCallException.class,
                    () -> identify(w, new ClientSecurity(GOOD, true, rogue.caFile(), null, null, null)));
            assertTrue(untrusted.getMessage().startsWith("TLS handshake with worker 127.0.0.1:" + w.port() + " failed"),
                    untrusted.getMessage());
        }
    }

    @Test
    void shouldRequireAClientCertificateSignedByTheClientCaUnderMutualTls() {
        try (WorkerServer w = worker(new WorkerSecurity(null, server.cert(), server.key(), ca.caFile(), false))) {
            assertEquals("w-auth", identify(w, new ClientSecurity(null, true, ca.caFile(), client.cert(), client.key(),
                    null)).id());

            WorkerCallException none = assertThrows(WorkerCallException.class,
                    () -> identify(w, new ClientSecurity(null, true, ca.caFile(), null, null, null)));
            assertEquals(WorkerCallException.Kind.REFUSED, none.kind(), none.getMessage());
            assertTrue(none.getMessage().contains("TLS handshake with worker"), none.getMessage());

            WorkerCallException wrong = assertThrows(WorkerCallException.class,
                    () -> identify(w, new ClientSecurity(null, true, ca.caFile(), rogueClient.cert(), rogueClient.key(), null)));
            assertEquals(WorkerCallException.Kind.REFUSED, wrong.kind(), wrong.getMessage());
            assertTrue(wrong.getMessage().contains("TLS handshake with worker"), wrong.getMessage());
        }
    }

    @Test
    void shouldRefuseToServeUnauthenticatedOffLoopbackUnlessInsecure() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkerSecurity.NONE.check("0.0.0.0"));
        assertTrue(e.getMessage().startsWith("refusing to accept unauthenticated work on 0.0.0.0: give a cluster token"),
                e.getMessage());
        assertTrue(e.getMessage().contains("--insecure"), e.getMessage());
        new WorkerSecurity(null, null, null, null, true).check("0.0.0.0");
        new WorkerSecurity(GOOD, null, null, null, false).check("0.0.0.0");
        new WorkerSecurity(null, server.cert(), server.key(), ca.caFile(), false).check("0.0.0.0");
        WorkerSecurity.NONE.check("127.0.0.1");
        // Java resolves "" to the loopback address, but a server bound to "" listens on every interface
        for (String empty : new String[] {"", " "}) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> WorkerSecurity.NONE.check(empty)).getMessage()
                    .startsWith("refusing to accept unauthenticated work"), "'" + empty + "'");
        }
        IllegalArgumentException tlsOnly = assertThrows(IllegalArgumentException.class,
                () -> new WorkerSecurity(null, server.cert(), server.key(), null, false).check("10.1.2.3"));
        assertTrue(tlsOnly.getMessage().startsWith("refusing"), "TLS without a token or client CA authenticates nobody");
    }

    @Test
    void shouldRejectShortTokensAndReadTokenFiles() throws Exception {
        IllegalArgumentException shortOne = assertThrows(IllegalArgumentException.class, () -> ClusterToken.of("secret", "x"));
        assertTrue(shortOne.getMessage().contains("use at least 16"), shortOne.getMessage());
        Path file = dir.resolve("token");
        Files.writeString(file, TOKEN + "\n");
        assertTrue(ClusterToken.resolve(file, Map.of()).matches("Bearer " + TOKEN));
        assertTrue(ClusterToken.resolve(null, Map.of(ClusterToken.ENV, TOKEN)).matches("Bearer " + TOKEN));
        assertEquals(null, ClusterToken.resolve(null, Map.of()));
        assertFalse(ClusterToken.resolve(file, Map.of()).toString().contains(TOKEN));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ClusterToken.resolve(dir.resolve("nope"), Map.of()));
        assertEquals("token file " + dir.resolve("nope") + " not found", missing.getMessage());
    }

    @Test
    void shouldPrintOneLineAndExit2WhenKbenchRunLacksTheToken() throws Exception {
        try (WorkerServer w = worker(new WorkerSecurity(GOOD, null, null, null, false))) {
            Path workload = dir.resolve("tiny.yaml");
            Files.writeString(workload, "topics: 1\nmessageSize: 10\nproducerRate: 10\ndurationSeconds: 1\n");
            InProcessRun.Outcome o = InProcessRun.execute("run", "--workers", "127.0.0.1:" + w.port(),
                    "--bootstrap-servers", "127.0.0.1:9", workload.toString());
            String text = o.stderr();
            assertEquals(2, o.exitCode(), text);
            // the worker shares this JVM and logs the refusal on stderr too; the command's own output is one line
            assertEquals(List.of("kbench: worker w-auth refused the call: no cluster token presented (give the "
                    + "coordinator the workers' token with --token-file or $KBENCH_TOKEN)"),
                    text.lines().filter(l -> !l.contains("WARN io.kbench.worker")).toList());
        }
    }

    @Test
    void shouldRefuseAWorkerSpeakingAnotherProtocolAtIdentify() throws Exception {
        // a worker refuses an older coordinator ...
        try (WorkerServer w = worker(WorkerSecurity.NONE)) {
            ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", w.port()).usePlaintext().build();
            try {
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> WorkerGrpc.newBlockingStub(ch)
                        .identify(IdentifyRequest.newBuilder().setProtocolVersion(Versions.PROTOCOL - 1)
                                .setCoordinatorVersion("0.0.1").build()));
                assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
                assertTrue(e.getStatus().getDescription().contains("run the same kbench version on both"), e.getMessage());
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        // ... and the coordinator refuses a worker that answers with another protocol
        Server future = NettyServerBuilder.forAddress(new java.net.InetSocketAddress("127.0.0.1", 0))
                .addService(new WorkerGrpc.WorkerImplBase() {
                    @Override
                    public void identify(IdentifyRequest request, StreamObserver<IdentifyResponse> response) {
                        response.onNext(IdentifyResponse.newBuilder().setWorkerId("future").setVersion("9.0.0")
                                .setProtocolVersion(Versions.PROTOCOL + 1).build());
                        response.onCompleted();
                    }
                }).build().start();
        try (WorkerClient c = new WorkerClient("127.0.0.1:" + future.getPort())) {
            WorkerCallException e = assertThrows(WorkerCallException.class, c::identify);
            assertEquals(WorkerCallException.Kind.REFUSED, e.kind());
            assertEquals("worker 127.0.0.1:" + future.getPort() + " speaks protocol " + (Versions.PROTOCOL + 1)
                    + " (kbench 9.0.0), this coordinator " + Versions.PROTOCOL + " (kbench " + Versions.kbench()
                    + "): run the same kbench version on both", e.getMessage());
        } finally {
            future.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
