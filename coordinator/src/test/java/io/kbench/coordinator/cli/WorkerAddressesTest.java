package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerAddressesTest {
    @TempDir
    Path dir;

    private final List<String> notes = new ArrayList<>();

    /** A resolver that knows a few names, as a headless Service's DNS would answer. */
    private static final WorkerAddresses.Resolver FAKE = host -> {
        Map<String, List<String>> names = Map.of(
                "kbench-workers.bench.svc", List.of("10.0.0.7", "10.0.0.5", "10.0.0.6"),
                "v6.example", List.of("fd00::2", "10.0.0.9"),
                "empty.example", List.of());
        List<String> ips = names.get(host);
        if (ips == null) {
            throw new UnknownHostException(host + ": Name or service not known");
        }
        List<InetAddress> out = new ArrayList<>();
        for (String ip : ips) {
            out.add(InetAddress.getByName(ip));
        }
        return out;
    };

    private List<String> expand(List<String> given, Path file) {
        return WorkerAddresses.expand(given, file, FAKE, notes::add);
    }

    @Test
    void shouldUseEveryAddressBehindADnsNameInOrder() {
        assertEquals(List.of("10.0.0.5:7070", "10.0.0.6:7070", "10.0.0.7:7070", "h1:7070"),
                expand(List.of("dns:///kbench-workers.bench.svc:7070", "h1:7070"), null));
        assertEquals(List.of("workers: dns:///kbench-workers.bench.svc:7070 -> 3 address(es): 10.0.0.5:7070, "
                + "10.0.0.6:7070, 10.0.0.7:7070"), notes);
        assertEquals(List.of("10.0.0.9:7071", "[fd00:0:0:0:0:0:0:2]:7071"), expand(List.of("dns:///v6.example:7071"), null));
    }

    @Test
    void shouldReadAWorkersFileWithCommentsAndBlankLines() throws Exception {
        Path f = Files.writeString(dir.resolve("workers.txt"), """
                # the static fleet
                client-1:7070
                client-2:7070   # rack b

                dns:///kbench-workers.bench.svc:7070
                """);
        assertEquals(List.of("a:1", "client-1:7070", "client-2:7070", "10.0.0.5:7070", "10.0.0.6:7070", "10.0.0.7:7070"),
                expand(List.of("a:1"), f));
    }

    @Test
    void shouldRefuseWhatIsNotAWorkerWithWhereItIs() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.txt"), "client-1:7070\nclient-2\n");
        assertEquals(bad + ":2: 'client-2' is not HOST:PORT (e.g. broker1:9092, 10.0.0.5:7070, [::1]:9092)",
                assertThrows(UserException.class, () -> expand(List.of(), bad)).getMessage());
        Path comments = Files.writeString(dir.resolve("none.txt"), "# nothing yet\n\n");
        assertEquals("--workers-file " + comments + ": lists no worker; expected one HOST:PORT (or dns:///NAME:PORT) "
                + "per line, # for comments", assertThrows(UserException.class, () -> expand(List.of(), comments)).getMessage());
        assertEquals("--workers: dns:///nowhere.example:7070: nowhere.example does not resolve (nowhere.example: Name or "
                + "service not known); for a Kubernetes headless Service: NAME.NAMESPACE.svc, with ready pods behind it",
                assertThrows(UserException.class, () -> expand(List.of("dns:///nowhere.example:7070"), null)).getMessage());
        assertEquals("--workers: dns:///empty.example:7070: empty.example resolves to no address",
                assertThrows(UserException.class, () -> expand(List.of("dns:///empty.example:7070"), null)).getMessage());
        assertEquals("--workers: dns:///kbench-workers.bench.svc: 'kbench-workers.bench.svc' is not HOST:PORT (e.g. "
                + "broker1:9092, 10.0.0.5:7070, [::1]:9092)", assertThrows(UserException.class,
                        () -> expand(List.of("dns:///kbench-workers.bench.svc"), null)).getMessage());
        assertEquals("--workers: 'dns://10.0.0.53/kbench-workers:7070': a DNS server cannot be named; use dns:///NAME:PORT "
                + "(the system's resolver)", assertThrows(UserException.class,
                        () -> expand(List.of("dns://10.0.0.53/kbench-workers:7070"), null)).getMessage());
        assertEquals("--workers-file " + dir + ": a directory; expected a file with one HOST:PORT per line",
                assertThrows(UserException.class, () -> expand(List.of(), dir)).getMessage());
        String missing = assertThrows(UserException.class, () -> expand(List.of(), dir.resolve("missing"))).getMessage();
        assertEquals(true, missing.startsWith("--workers-file " + dir.resolve("missing") + ": cannot read: "), missing);
    }
}
