package io.kbench.coordinator.report.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kbench.coordinator.FaultTimeline;
import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.IntervalMerger;
import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.merge.Summary;
import io.kbench.coordinator.merge.SummaryHistograms;
import io.kbench.coordinator.report.compare.ResultMerge;
import io.kbench.coordinator.report.files.IntervalsCsv;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.LatencyHistograms;
import io.kbench.protocol.Metric;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The types of result.json, its JSON Schema and docs/results.md say the same thing, and what the types write
 * is valid under the schema (QuickstartIT checks a real run's file too).
 */
public class ResultFileTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final ObjectMapper JSON = ResultDocument.JSON;

    /** Each type of the file and the name of its definition in the schema. */
    private static final Map<Class<?>, String> DEFINITIONS = new LinkedHashMap<>();

    static {
        DEFINITIONS.put(ResultFile.Run.class, "run");
        DEFINITIONS.put(ResultFile.Merged.class, "merged");
        DEFINITIONS.put(ResultFile.Source.class, "source");
        DEFINITIONS.put(ResultFile.Worker.class, "worker");
        DEFINITIONS.put(ResultFile.LostWorker.class, "lostWorker");
        DEFINITIONS.put(ResultFile.Fault.class, "fault");
        DEFINITIONS.put(ResultFile.Interval.class, "interval");
        DEFINITIONS.put(ResultFile.Publish.class, "publish");
        DEFINITIONS.put(ResultFile.Consume.class, "consume");
        DEFINITIONS.put(ResultFile.Client.class, "client");
        DEFINITIONS.put(ResultFile.Verification.class, "verification");
        DEFINITIONS.put(ResultFile.EndToEnd.class, "endToEnd");
        DEFINITIONS.put(ResultFile.ConsumeSummary.class, "consumeSummary");
        DEFINITIONS.put(ResultFile.Summary.class, "summary");
        DEFINITIONS.put(LatencyStats.class, "latency");
        DEFINITIONS.put(CatchUp.class, "catchUp");
        DEFINITIONS.put(ResultFile.Provenance.class, "provenance");
        DEFINITIONS.put(ResultFile.Host.class, "host");
        DEFINITIONS.put(ResultFile.WorkerHost.class, "workerHost");
        DEFINITIONS.put(ResultFile.Cluster.class, "cluster");
        DEFINITIONS.put(ResultFile.Broker.class, "broker");
        DEFINITIONS.put(ResultFile.Topic.class, "topic");
        DEFINITIONS.put(ResultFile.RateSearch.class, "rateSearch");
        DEFINITIONS.put(ResultFile.Trial.class, "trial");
        DEFINITIONS.put(ResultFile.SloFigure.class, "sloFigure");
        DEFINITIONS.put(ResultFile.Hosts.class, "hosts");
        DEFINITIONS.put(ResultFile.HostUse.class, "hostUse");
        DEFINITIONS.put(ResultFile.BrokerFigures.class, "brokerFigures");
        DEFINITIONS.put(ResultFile.Diagnosis.class, "diagnosis");
        DEFINITIONS.put(ResultFile.Limit.class, "limit");
        DEFINITIONS.put(ResultFile.Evidence.class, "evidence");
        DEFINITIONS.put(ResultFile.Share.class, "share");
        DEFINITIONS.put(ResultFile.PerConsumer.class, "perConsumer");
        DEFINITIONS.put(ResultFile.Partitions.class, "partitions");
        DEFINITIONS.put(ResultFile.Busiest.class, "busiestPartition");
    }

    private static List<String> keys(Class<?> type) {
        BeanDescription d = JSON.getSerializationConfig().introspect(JSON.constructType(type));
        return d.findProperties().stream().map(BeanPropertyDefinition::getName).toList();
    }

    private static JsonNode schemaNode() throws IOException {
        return JSON.readTree(ROOT.resolve("docs/schema/result.schema.json").toFile());
    }

    static List<String> validate(String json) throws IOException {
        return ResultSchema.validate(json);
    }

    @Test
    void shouldListInTheSchemaExactlyTheKeysOfEachTypeInOrder() throws IOException {
        JsonNode defs = schemaNode().get("$defs");
        for (Map.Entry<Class<?>, String> e : DEFINITIONS.entrySet()) {
            List<String> schemaKeys = new ArrayList<>();
            defs.get(e.getValue()).get("properties").fieldNames().forEachRemaining(schemaKeys::add);
            assertEquals(keys(e.getKey()), schemaKeys, "schema $defs." + e.getValue() + " against " + e.getKey().getSimpleName());
        }
    }

    @Test
    void shouldDocumentEveryKeyInResultsMd() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/results.md"));
        for (Class<?> type : DEFINITIONS.keySet()) {
            for (String key : keys(type)) {
                assertTrue(doc.contains("`" + key + "`") || doc.contains("\"" + key + "\"") || doc.contains(key + ",")
                                || doc.contains(key + "}") || doc.contains("{" + key) || doc.contains("." + key + "`"),
                        "docs/results.md does not mention " + type.getSimpleName() + "." + key);
            }
        }
        assertTrue(doc.contains("`schemaVersion`"));
    }

    private static Histogram histogram(long... values) {
        Histogram h = LatencyHistograms.create();
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    /** A run of three 1-second intervals built by the same code kbench run uses. */
    public static ResultFile.Run run() {
        IntervalMerger merger = new IntervalMerger(List.of("w1"), SummaryHistograms.from(1_000_000));
        List<MergedInterval> intervals = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] lat = LatencyHistograms.encode(histogram(1000 + i, 2000, 3000));
            IntervalSnapshot s = new IntervalSnapshot("w1", i, i * 1_000_000L, (i + 1) * 1_000_000L,
                    new Counters(3, 3, 0, 300, 3, 300, 0, 0, 0, 0, 0, 3, 0),
                    IntervalSnapshot.histograms(lat, lat, lat, lat, LatencyHistograms.encode(LatencyHistograms.create())),
                    i == 2, i == 2 ? 3_000_000 : 0, 2_900_000, i == 2, "", i == 2 ? 0 : 5,
                    new io.kbench.protocol.ClientMetricsSample(1, Map.of("batch-size-avg", 100.0)),
                    io.kbench.protocol.ClientMetricsSample.NONE)
                    .withHost(new io.kbench.protocol.HostSample(2, 1_000_000, 500_000 + 100_000L * i, 2_000L * i, i,
                            i == 0 ? -1 : 40_000_000, 1_000_000_000, "", 300L + 1_000L * i, 0.5 + 0.125 * i,
                            i == 1 ? 0.03125 : 0, 250_000L * i));
            intervals.addAll(merger.add(s));
        }
        Summary summary = Summary.of(intervals, 1_000_000, 3_000_000, 10_000, merger.summaryHistograms())
                .withClocks(0).withVerification(merger.totals(), 6);
        Workload w = Workload.timed("t", 1, 6, 100, 1, 1, 1, 3, 1, 2);
        return ResultDocument.build("20261124-061830-abc7", "COMPLETED", null, Instant.parse("2026-11-24T06:18:30Z"), w,
                Profile.defaults().withBootstrapServers("b:9092"),
                List.of(new ResultFile.Worker("w1", "127.0.0.1:7070", 0, 0, 0, 0, 0, 1, 1, 3, 9, 9, 0, 9,
                        ResultDocument.workerHost(merger.host("w1")))),
                List.of("kbench-t0"), 0, 1_000_000, 3_000_000, intervals, summary,
                new CatchUp(100, 2_000, 0.5, 200, 0.1), 1_234, List.of("an issue"),
                List.of(new ResultFile.LostWorker("w2", "10.0.0.2:7070", "gone", 1)), new FaultTimeline(), provenance(),
                io.kbench.protocol.ShareSpread.NONE)
                .withDiagnosis(new ResultFile.Diagnosis("broker-request-handlers", 0.4, List.of(
                        new ResultFile.Evidence("requestHandlerIdle", 0.12, "<", 0.2, "request handlers idle 12%"),
                        new ResultFile.Evidence("produceTotalTimeMs", 3.5, null, null, "produce requests took 3.50 ms")),
                        List.of("num.io.threads (broker; default 8)"), List.of(new ResultFile.Limit("producer-client", 0.1,
                        List.of(new ResultFile.Evidence("producerWaitRatio", 0.11, ">=", 0.01, "waited")), List.of("buffer.memory"))),
                        List.of(new ResultFile.Evidence("networkProcessorIdle", 0.8, ">=", 0.3, "network threads idle 80%"),
                                new ResultFile.Evidence("faultUnderReplicatedPartitions", 4.0, null, null, "the fault's"))))
                .withPartitions(new ResultFile.Partitions(1, Map.of("kbench-t0", new long[] {3, 0, 2, 1, 1, 2}),
                        new ResultFile.Busiest("kbench-t0", 0, 3, 3 / 9.0, 6, 2)));
    }

    static ResultFile.Provenance provenance() {
        ResultFile.Host host = new ResultFile.Host("client-1", 8, 32L << 30, "Linux 6.1.0 amd64",
                "17.0.13+11 Eclipse Adoptium OpenJDK 64-Bit Server VM", 1L << 30);
        return new ResultFile.Provenance("0.1.0", "7629e96fb6257d17b31e53a67b37023f7a337053", List.of("run",
                "--bootstrap-servers", "b:9092", "w.yaml"), host, List.of(new ResultFile.WorkerHost("w1", "0.1.0",
                "7629e96fb6257d17b31e53a67b37023f7a337053", Map.of("kafka", "kafka-clients 4.3.1"), host)),
                new ResultFile.Cluster(false, 0, false, Map.of("num.io.threads", "4"), "abc", Map.of("metadata.version", 27), List.of(new ResultFile.Broker(1,
                        "b:9092", "", Map.of("min.insync.replicas", "1"))), Map.of("kbench-t0",
                        new ResultFile.Topic(6, 1, Map.of("compression.type", "producer"))), null));
    }

    @Test
    void shouldWriteWhatTheSchemaAcceptsAndReadItBackAsTheSameTypes() throws IOException {
        ResultFile.Run run = run();
        String json = JSON.writeValueAsString(run);
        assertEquals(List.of(), validate(json));
        assertEquals(run.summary(), JSON.readValue(json, ResultFile.Run.class).summary());

        ResultMerge.Merged merged = ResultMerge.combine(List.of(new ResultMerge.Source("a.json", JSON.readTree(json)),
                new ResultMerge.Source("b.json", ((ObjectNode) JSON.readTree(json)).put("runId", "20261124-061831-abc8"))));
        assertEquals(List.of(), validate(JSON.writeValueAsString(merged.document())));
        assertEquals(2 * run.summary().acked(), merged.document().summary().acked());
        // schema 20: windows that overlap in part give the merged result an issue
        ObjectNode later = (ObjectNode) JSON.readTree(json);
        later.put("runId", "20261124-061831-abc9").put("measureStartMillis", run.measureStartMillis()
                + (run.measureEndMillis() - run.measureStartMillis()) / 2).put("measureEndMillis",
                run.measureEndMillis() + (run.measureEndMillis() - run.measureStartMillis()) / 2);
        ResultMerge.Merged part = ResultMerge.combine(List.of(new ResultMerge.Source("a.json", JSON.readTree(json)),
                new ResultMerge.Source("c.json", later)));
        assertEquals(1, part.document().issues().size());
        assertEquals(List.of(), validate(JSON.writeValueAsString(part.document())));
    }

    @Test
    void shouldRejectWhatTheTypesWouldNotWrite() throws IOException {
        ObjectNode doc = (ObjectNode) JSON.readTree(JSON.writeValueAsString(run()));
        ((ObjectNode) doc.get("summary")).put("sent", "5");
        assertFalse(validate(doc.toString()).isEmpty(), "a count as a string");
        ObjectNode extra = (ObjectNode) JSON.readTree(JSON.writeValueAsString(run()));
        extra.put("surprise", 1);
        assertFalse(validate(extra.toString()).isEmpty(), "an undocumented key");
        ObjectNode missing = (ObjectNode) JSON.readTree(JSON.writeValueAsString(run()));
        ((ObjectNode) missing.get("intervals").get(0)).remove("publish");
        assertFalse(validate(missing.toString()).isEmpty(), "an interval without publish");
    }

    @Test
    void shouldWriteOneCsvRowPerIntervalWithItsFigures(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        ResultFile.Run run = run();
        List<String> lines = Files.readAllLines(IntervalsCsv.write(dir, run));
        assertEquals(run.intervals().size() + 1, lines.size());
        assertTrue(lines.get(0).startsWith("index,startMillis,endMillis,warmup,saturated,workers,publishSent,"), lines.get(0));
        assertFalse(lines.get(0).contains("\""), "a name is quoted only when it needs it: " + lines.get(0));
        ResultFile.Interval last = run.intervals().get(run.intervals().size() - 1);
        assertTrue(lines.get(lines.size() - 1).startsWith(last.index() + "," + last.startMillis() + "," + last.endMillis()
                + ",false,"), lines.get(lines.size() - 1));
        assertEquals(lines.get(0).split(",").length, IntervalsCsv.rows(run).size() > 0 ? 54 : 0);
        assertTrue(lines.get(0).endsWith(",workerStallMaxMs,workerHostBusyMax,workerHostStealMax,"
                + "transactionCommitP99Ms,transactionCommitMaxMs,workerJitMax,unread"), lines.get(0));
        String[] lastRow = lines.get(lines.size() - 1).split(",", -1);
        assertEquals(54, lastRow.length);
        assertEquals(last.hosts().stallMicrosMax() / 1000.0, Double.parseDouble(lastRow[lastRow.length - 7]), 1e-9,
                "the load threads' stall, ms");
        assertEquals(0.75, Double.parseDouble(lastRow[lastRow.length - 6]), 1e-9, "the host's busy share");
        assertEquals(0.0, Double.parseDouble(lastRow[lastRow.length - 5]), 1e-9, "the host's stolen share");
        assertEquals("", lastRow[lastRow.length - 4], "no commits: not transactional");
        assertEquals("", lastRow[lastRow.length - 3]);
        assertEquals(0.25, Double.parseDouble(lastRow[lastRow.length - 2]), 1e-9,
                "0.5 s compiling in 1 s on 2 processors");
        // what the groups had not read: acknowledged so far minus received over the groups, interval by interval
        long acked = 0;
        long received = 0;
        int groups = run.workload().path("subscriptionsPerTopic").asInt();
        for (int k = 0; k < run.intervals().size(); k++) {
            acked += run.intervals().get(k).publish().acked();
            received += run.intervals().get(k).consume().received();
            String[] row = lines.get(k + 1).split(",", -1);
            assertEquals(String.valueOf(Math.max(0, Math.round(acked - (double) received / groups))),
                    row[row.length - 1], "interval " + k);
        }
    }

    @Test
    void shouldSayInTheWorkerHostLineHowMuchOfItsCpuTheJitTookFromATenthOn() {
        java.util.function.DoubleFunction<String> line = jit -> ResultDocument.hostsLine(List.of(new ResultFile.Worker(
                "local-1", "in-process", 0, 0, 0, 0, 0, 2, 2, 5_000, 0, 0, 0, 0, new ResultFile.HostUse(20, 2, 0.74, 0.93,
                69_000, 20_000, 9, 1_000, 100_000, null, 22_000L, 0.76, 0.96, 0.0, 0.035, jit < 0 ? null : jit,
                jit < 0 ? null : 0.38))));
        // 0.296 of the processors is 40% of the worker's 0.74: a share of its CPU, as the diagnosis says it
        assertTrue(line.apply(0.296).contains("CPU 74% of its 2 processor(s) (worst interval 93%), 40% of it compiling "
                + "(the JIT); GC"), line.apply(0.296));
        assertFalse(line.apply(0.073).contains("JIT"), "under a tenth of its CPU: " + line.apply(0.073));
        assertFalse(line.apply(-1).contains("JIT"), "not measured: " + line.apply(-1));
    }

    @Test
    void shouldSayWhatSharesTheWorkersProcessInTheNumberOfTheWorkers() {
        java.util.function.BiFunction<String, Double, ResultFile.Worker> worker = (id, cpu) -> new ResultFile.Worker(id,
                "in-process:" + id, 0, 0, 0, 0, 0, 2, 2, 5_000, 0, 0, 0, 0, new ResultFile.HostUse(20, 2, cpu, 0.9, 1_000,
                1_000, 1, 1_000, 100_000, "coordinator, embedded broker", null, null, null, null, null, null, null));
        String one = ResultDocument.hostsLine(List.of(worker.apply("local-1", 0.5)));
        assertTrue(one.startsWith("  worker host (local-1; its process also runs: coordinator, embedded broker): CPU 50% "
                + "of its 2 processor(s) (worst interval 90%)"), one);
        // in-process workers are one process, each reading its CPU: one figure, no busiest among them
        String three = ResultDocument.hostsLine(List.of(worker.apply("local-1", 0.48), worker.apply("local-2", 0.49),
                worker.apply("local-3", 0.48)));
        assertTrue(three.startsWith("  worker host (3 in-process workers, one process, which also runs: coordinator, "
                + "embedded broker): CPU 48% of its 2 processor(s) (worst interval 90%)"), three);
        // workers of their own (kbench worker on each host): the mean and the busiest
        java.util.function.BiFunction<String, Double, ResultFile.Worker> remote = (id, cpu) -> new ResultFile.Worker(id,
                "10.0.0." + id.length() + ":7070", 0, 0, 0, 0, 0, 2, 2, 5_000, 0, 0, 0, 0, new ResultFile.HostUse(20, 2,
                cpu, 0.9, 1_000, 1_000, 1, 1_000, 100_000, null, null, null, null, null, null, null, null));
        String two = ResultDocument.hostsLine(List.of(remote.apply("a", 0.2), remote.apply("bb", 0.6)));
        assertTrue(two.startsWith("  worker hosts (2): CPU 40% of their processors on average, busiest bb 60% (worst "
                + "interval 90%)"), two);
        // collection time: the most one of several workers spent; one process's is its own; none is said as none
        assertTrue(two.contains("; GC at most 1.00 ms in one interval and 1.00 ms over the window (one worker);"), two);
        assertTrue(one.contains("; GC at most 1.00 ms in one interval and 1.00 ms over the window;"), one);
        assertTrue(three.contains("over the window;"), three);
        String none = ResultDocument.hostsLine(List.of(new ResultFile.Worker("local-1", "in-process:local-1", 0, 0, 0,
                0, 0, 2, 2, 5_000, 0, 0, 0, 0, new ResultFile.HostUse(20, 2, 0.5, 0.9, 0, 0, 0, -1, 100_000, null, null,
                null, null, null, null, null, null))));
        assertTrue(none.contains("; no garbage collection in the window"), "not 'GC at most 0.00 ms': " + none);
    }

    @Test
    void shouldLeaveOutOnlyWhatIsDocumentedAsOptional() throws IOException {
        JsonNode doc = JSON.readTree(JSON.writeValueAsString(run()));
        assertEquals(ResultFile.SCHEMA_VERSION, doc.get("schemaVersion").asInt());
        assertFalse(doc.get("summary").get("verification").has("untracked"), "untracked only when there were any");
        assertTrue(doc.get("intervals").get(2).get("consume").get("lag").isNumber());
        assertTrue(doc.get("error").isNull(), "error is written as null");
        Map<Metric, Histogram> none = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            none.put(m, LatencyHistograms.create());
        }
        assertEquals(Metric.values().length, ResultDocument.encoded(none).size());
    }
}
