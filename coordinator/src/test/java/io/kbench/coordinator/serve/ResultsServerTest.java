package io.kbench.coordinator.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kbench serve} over real HTTP on 127.0.0.1: the run index, files, directories as zips (streamed, with
 * back-pressure), and nothing outside the directory whatever the path or link says.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ResultsServerTest {
    @TempDir
    Path dir;
    @TempDir
    Path outside;

    private Path root;
    private ResultsServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final byte[] big = new byte[24 << 20];

    @BeforeEach
    void results() throws IOException {
        root = Files.createDirectories(dir.resolve("results"));
        Path run1 = Files.createDirectories(root.resolve("nightly/run-1"));
        Files.writeString(run1.resolve("result.json"), "{\"schemaVersion\":10,\"runId\":\"r1\",\"status\":\"COMPLETED\","
                + "\"startedAt\":\"2026-11-27T00:00:00Z\",\"intervals\":[{\"a\":[1,2,{\"b\":3}]}],"
                + "\"workload\":{\"topics\":1,\"faults\":[{\"name\":\"x\"}],\"name\":\"quick <start>\"}}");
        Files.writeString(run1.resolve("report.html"), "<html>report</html>");
        Files.createDirectories(run1.resolve("histograms"));
        new Random(7).nextBytes(big);
        Files.write(run1.resolve("histograms/publish.hlog"), big);
        Path run2 = Files.createDirectories(root.resolve("failed run"));
        Files.writeString(run2.resolve("result.json"), "{\"status\":\"FAILED\",\"workload\":{\"name\":\"w2\"}}");
        Files.createDirectories(root.resolve("sweep-a"));
        Files.writeString(root.resolve("sweep-a/sweep.json"), "{}");
        Files.writeString(root.resolve("sweep-a/report.html"), "<html>sweep</html>");
        Path combination = Files.createDirectories(root.resolve("sweep-a/01-producer.acks=1"));
        Files.writeString(combination.resolve("result.json"), "{\"status\":\"COMPLETED\",\"startedAt\":\"2026-11-30T10:00:00Z\","
                + "\"workload\":{\"name\":\"acks\"}}");
        Path merged = Files.createDirectories(root.resolve("merged"));
        Files.writeString(merged.resolve("result.json"), "{\"schemaVersion\":21,\"merged\":[{\"path\":\"a\","
                + "\"runId\":\"r1\",\"status\":\"COMPLETED\",\"workload\":\"quick\"},{\"path\":\"b\",\"runId\":\"r2\","
                + "\"status\":\"COMPLETED\",\"workload\":\"quick\"}],\"status\":\"COMPLETED\",\"summary\":{}}");
        // tampered: elements that are no runs are passed over, the status after them still read
        Path oddMerge = Files.createDirectories(root.resolve("odd-merge"));
        Files.writeString(oddMerge.resolve("result.json"), "{\"merged\":[1,[2,{}],{\"workload\":\"w\"},\"x\"],"
                + "\"status\":\"COMPLETED\"}");
        Files.writeString(root.resolve("broken.json"), "{");
        Path notRun = Files.createDirectories(root.resolve("junk"));
        Files.writeString(notRun.resolve("result.json"), "not json");
        Files.writeString(outside.resolve("secret.txt"), "outside the results\n");
        Files.createSymbolicLink(root.resolve("escape"), outside);
        Files.createSymbolicLink(run1.resolve("passwd"), outside.resolve("secret.txt"));
        server = ResultsServer.start(root, "127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void shouldListTheRunsWithWhatTheirResultsSay() throws Exception {
        HttpResponse<String> index = get("/");
        assertEquals(200, index.statusCode());
        assertEquals("text/html; charset=utf-8", index.headers().firstValue("content-type").orElse(""));
        String page = index.body();
        assertTrue(page.contains("6 runs and 1 sweep."), page);
        assertTrue(page.contains(">odd-merge</a></td><td class=\"completed\">COMPLETED</td><td>merge of 1: w</td>"), page);
        // a merge's row: how many it merged and their workloads; no report.html link (a merge writes none: it was a 404)
        assertTrue(page.contains(">merged</a></td><td class=\"completed\">COMPLETED</td><td>merge of 2: quick</td>"
                + "<td>-</td><td><a href=\"/merged/result.json\">result.json</a> · <a href=\"/merged.zip\">zip</a></td>"),
                page);
        assertFalse(page.contains("href=\"/failed%20run/report.html\""), "that run has no page: " + page);
        assertTrue(page.contains("<a href=\"/nightly/run-1/\">nightly/run-1</a></td><td class=\"completed\">COMPLETED</td>"
                + "<td>quick &lt;start&gt;</td><td>2026-11-27T00:00:00Z</td>"), page);
        assertTrue(page.contains("href=\"/nightly/run-1/report.html\""), page);
        assertTrue(page.contains("href=\"/failed%20run.zip\""), page);
        assertTrue(page.contains("<td class=\"failed\">FAILED</td><td>w2</td>"), page);
        // a sweep's row: its first combination's workload and start, its own page and table (no sweep.csv here)
        assertTrue(page.contains(">sweep-a</a></td><td class=\"\">sweep</td><td>acks</td><td>2026-11-30T10:00:00Z</td>"
                + "<td><a href=\"/sweep-a/report.html\">report</a> · <a href=\"/sweep-a/sweep.json\">sweep.json</a> · "
                + "<a href=\"/sweep-a.zip\">zip</a></td>"), page);
        assertTrue(page.contains(">junk</a></td><td class=\"unreadable\">unreadable</td>"), page);
        assertFalse(page.contains("escape"), "a link is not listed: " + page);

        HttpResponse<String> listing = get("/nightly/run-1/");
        assertEquals(200, listing.statusCode());
        assertTrue(listing.body().contains("href=\"/nightly/run-1/histograms/\""), listing.body());
        String histograms = get("/nightly/run-1/histograms/").body();
        assertTrue(histograms.contains(">publish.hlog</a></td><td class=\"num\">" + String.format(java.util.Locale.ROOT, "%,d",
                big.length) + "</td>"), histograms);
        assertFalse(listing.body().contains("passwd"), "a link is not listed: " + listing.body());
        assertEquals(301, get("/nightly").statusCode());
    }

    @Test
    void shouldServeFilesAndDirectoriesAsZips() throws Exception {
        HttpResponse<String> report = get("/nightly/run-1/report.html");
        assertEquals(200, report.statusCode());
        assertEquals("<html>report</html>", report.body());
        assertTrue(report.headers().firstValue("content-type").orElse("").startsWith("text/html"), report.headers().toString());
        assertEquals(200, get("/failed%20run/result.json").statusCode());

        HttpResponse<InputStream> zip = http.send(request("/nightly.zip"), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, zip.statusCode());
        assertEquals("attachment; filename=\"nightly.zip\"", zip.headers().firstValue("content-disposition").orElse(""));
        Map<String, byte[]> entries = unzip(zip.body());
        assertEquals(java.util.Set.of("nightly/run-1/result.json", "nightly/run-1/report.html",
                "nightly/run-1/histograms/publish.hlog"), entries.keySet(), "a link to a file outside is left out");
        assertArrayEquals(big, entries.get("nightly/run-1/histograms/publish.hlog"));

        Map<String, byte[]> all = unzip(http.send(request("/results.zip"), HttpResponse.BodyHandlers.ofInputStream()).body());
        assertTrue(all.containsKey("results/failed run/result.json"), all.keySet().toString());
        assertFalse(all.keySet().stream().anyMatch(k -> k.contains("secret")), all.keySet().toString());
    }

    @Test
    void shouldServeNothingOutsideItsDirectory() throws Exception {
        for (String path : new String[] {"/../secret.txt", "/%2e%2e/secret.txt", "/nightly/..%2f..%2fsecret.txt",
            "/nightly/%2E%2E/%2E%2E/etc/passwd", "/./nightly/run-1/result.json", "/a%00b", "/..\\..\\etc\\passwd"}) {
            int status = raw("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(status == 400 || status == 404, path + " answered " + status);
        }
        assertEquals(404, get("/escape/secret.txt").statusCode(), "a directory link that leads out");
        assertEquals(404, get("/escape.zip").statusCode());
        assertEquals(404, get("/nightly/run-1/passwd").statusCode(), "a file link that leads out");
        assertEquals(404, get("/nope.zip").statusCode());
        assertEquals(404, get("/nope").statusCode());
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/nightly/run-1/result.json"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals(405, http.send(HttpRequest.newBuilder(uri("/x")).method("DELETE", HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void shouldGoOnServingWhenAClientLeavesAZipHalfRead() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.getOutputStream().write(("GET /nightly.zip HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                s.getInputStream().readNBytes(64 * 1024);
            }
        }
        Map<String, byte[]> entries = unzip(http.send(request("/nightly.zip"), HttpResponse.BodyHandlers.ofInputStream()).body());
        assertArrayEquals(big, entries.get("nightly/run-1/histograms/publish.hlog"));
    }

    @Test
    void shouldLookAtABoundedNumberOfEntriesPerDirectory() throws Exception {
        Path crowd = Files.createDirectories(root.resolve("crowd"));
        for (int i = 0; i <= ResultsIndex.MAX_ENTRIES; i++) {
            Files.createFile(crowd.resolve("f" + i));
        }
        String index = get("/").body();
        assertTrue(index.contains("(the first 7 found; there are more"), index);
        String listing = get("/crowd/").body();
        assertTrue(listing.contains("The first " + ResultsIndex.MAX_ENTRIES + " entries only; the zip holds them all."), listing);
        assertEquals(ResultsIndex.MAX_ENTRIES, listing.split("<tr><td>", -1).length - 1, "rows");
    }

    @Test
    void shouldRefuseWhatItCannotServe() throws Exception {
        assertEquals(dir.resolve("nope") + ": no such directory",
                assertThrows(UserException.class, () -> ResultsServer.start(dir.resolve("nope"), "127.0.0.1", 0)).getMessage());
        assertTrue(assertThrows(UserException.class, () -> ResultsServer.start(root.resolve("broken.json"), "127.0.0.1", 0))
                .getMessage().endsWith("broken.json: not a directory (give the directory that holds the runs)"));
        UserException busy = assertThrows(UserException.class, () -> ResultsServer.start(root, "127.0.0.1", server.port()));
        assertTrue(busy.getMessage().startsWith("127.0.0.1:" + server.port() + ": cannot listen: "), busy.getMessage());
    }

    @Test
    void shouldDecodePathsStrictly() {
        assertEquals("/failed run/x", ResultsServer.decode("/failed%20run/x"));
        assertEquals("/a+b", ResultsServer.decode("/a+b"));
        assertNull(ResultsServer.decode("/%2e%2e/x"));
        assertNull(ResultsServer.decode("/a/./b"));
        assertNull(ResultsServer.decode("/a%zz"));
        assertNull(ResultsServer.decode("relative"));
        assertEquals("failed%20run/r%C3%A9sum%C3%A9%3F%23", ResultsIndex.href("failed run/résumé?#"));
    }

    private static Map<String, byte[]> unzip(InputStream in) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream z = new ZipInputStream(in)) {
            for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
                entries.put(e.getName(), z.readAllBytes());
            }
        }
        return entries;
    }

    private int raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(request(path), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(uri(path)).build();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
