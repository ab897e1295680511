package io.kbench.coordinator.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.kbench.coordinator.report.result.ResultDocument;
import io.kbench.coordinator.report.result.ResultFile;
import org.junit.jupiter.api.Test;

/** What {@code kbench compare} says differs between the setups of its results. */
class SetupDiffTest {
    /** A result of an embedded run: {@code producer} the profile's producer section, {@code port} its cluster's port. */
    static ResultFile.Run run(String producer, int port, String durationSeconds, String commit, String numIoThreads)
            throws Exception {
        String json = """
                {"runId": "r", "status": "COMPLETED", "histograms": {}, "summary": {"sent": 1, "acked": 1, "failed": 0,
                 "received": 1, "measuredSeconds": 1, "publishRate": 1, "publishMBps": 0, "consumeRate": 1, "consumeMBps": 0},
                 "workload": {"name": "w-%1$d", "durationSeconds": %3$s, "transactions": {"transactionRecords": 0},
                              "topicNames": []},
                 "profile": {"name": "p", "driver": "kafka", "bootstrap.servers": "127.0.0.1:%1$d", "replicationFactor": 1,
                             "producer": {%2$s}, "consumer": {}, "common": {"sasl.jaas.config": "[redacted]"}},
                 "provenance": {"kbenchVersion": "0.1.0", "kbenchCommit": "%4$s",
                   "workers": [{"id": "local-1", "drivers": {"kafka": "kafka-clients 4.3.1"},
                                "host": {"hostName": "vm", "cores": 2}}],
                   "cluster": {"embedded": true, "embeddedBrokers": 1, "brokerSettings": {"num.io.threads": "%5$s"},
                     "clusterId": "c-%1$d", "features": {"metadata.version": 30},
                     "brokers": [{"id": 1, "endpoint": "127.0.0.1:%1$d", "configs": {"num.io.threads": "%5$s",
                       "listeners": "PLAINTEXT://127.0.0.1:%1$d", "log.dirs": "/tmp/kafka-%1$d"}}]}}}
                """.formatted(port, producer, durationSeconds, commit, numIoThreads);
        return ResultDocument.JSON.readValue(json, ResultFile.Run.class);
    }

    @Test
    void shouldListWhatDiffersAndLeaveOutWhatChangesWithEveryStart() throws Exception {
        Map<String, String> a = SetupDiff.setup(run("\"batch.size\": \"16384\"", 40001, "20", "aaaa", "8"));
        Map<String, String> b = SetupDiff.setup(run("\"batch.size\": \"65536\"", 40999, "20", "aaaa", "8"));
        assertEquals(List.of("producer.batch.size 16384 -> 65536"), SetupDiff.differences(a, b),
                "the ports, log directories, cluster ids and workload names of two runs are not their setup");
        assertEquals("[redacted]", a.get("common.sasl.jaas.config"), "a secret stays as the result redacted it");
        assertEquals("8", a.get("broker 1 num.io.threads"));
        assertFalse(a.containsKey("broker.num.io.threads"), "what the sweep set shows as the brokers reported it");
        assertEquals("1", a.get("workers"));
        assertEquals("kafka-clients 4.3.1", a.get("client library"));

        Map<String, String> c = SetupDiff.setup(run("", 40002, "30", "bbbbbbbbbbbbbbbbbbbb", "1"));
        assertEquals(List.of("broker 1 num.io.threads 8 -> 1", "kbench 0.1.0 aaaa -> 0.1.0 bbbbbbbbbbbb",
                "producer.batch.size 16384 -> unset (the client's default)", "workload.durationSeconds 20 -> 30"),
                SetupDiff.differences(a, c));
        // a build from a working tree with changes: its commit alone would name code it was not built from
        Map<String, String> d = SetupDiff.setup(run("\"batch.size\": \"16384\"", 40003, "20",
                "bbbbbbbbbbbbbbbbbbbb-dirty", "8"));
        assertEquals(List.of("kbench 0.1.0 aaaa -> 0.1.0 bbbbbbbbbbbb (with uncommitted changes)"),
                SetupDiff.differences(a, d));
    }

    /**
     * A merged result compared with a run listed 97 of the run's settings as "-> unset": a merged result records no
     * setup of its own. Said once instead.
     */
    @Test
    void shouldNotListAMergedResultsMissingSetupAsDifferences() throws Exception {
        Map<String, String> a = SetupDiff.setup(run("", 1, "20", "aaaa", "8"));
        ResultFile.Run merged = ResultDocument.JSON.treeToValue(io.kbench.coordinator.report.compare.ResultMerge.mergedAsRun(
                ResultDocument.JSON.readTree("""
                        {"schemaVersion": 20, "kbenchVersion": "0.1.0", "status": "COMPLETED", "workers": [],
                         "merged": [{"path": "a", "runId": "r1", "status": "COMPLETED", "workload": "w"},
                                    {"path": "b", "runId": "r2", "status": "COMPLETED", "workload": "w"}],
                         "summary": {"sent": 1, "acked": 1, "failed": 0, "received": 1, "measuredSeconds": 1,
                                     "publishRate": 1, "publishMBps": 0, "consumeRate": 1, "consumeMBps": 0},
                         "histograms": {}}""")), ResultFile.Run.class);
        assertEquals("merged r1+r2", merged.runId());
        assertEquals("w", merged.workload().path("name").asText());
        Map<String, String> m = SetupDiff.setup(merged);
        assertEquals(Map.of(), m);
        assertEquals(List.of("setup: w merged r1+r2 records no setup of its own (a merged result: the results it merged "
                + "have theirs): not compared with the baseline's"), SetupDiff.lines(List.of("w r", "w merged r1+r2"),
                List.of(List.of(a), List.of(m))));
        assertEquals(List.of("setup: w merged r1+r2 records no setup of its own (a merged result: the results it merged "
                + "have theirs): not compared with the other sides'"), SetupDiff.lines(List.of("w merged r1+r2", "w r",
                "w r"), List.of(List.of(m), List.of(a), List.of(a))));
    }

    @Test
    void shouldSayWhenNothingDiffersAndWarnWhenRepeatsAreNotOfOneSetup() throws Exception {
        Map<String, String> a = SetupDiff.setup(run("", 1, "20", "aaaa", "8"));
        Map<String, String> b = SetupDiff.setup(run("", 2, "20", "aaaa", "8"));
        Map<String, String> c = SetupDiff.setup(run("\"linger.ms\": \"20\"", 3, "20", "aaaa", "8"));
        assertEquals(List.of("setup: every side ran the baseline's workload, client and topic settings, cluster and "
                + "kbench build"), SetupDiff.lines(List.of("base", "new"), List.of(List.of(a), List.of(b))));
        assertEquals(List.of("setup: new against the baseline: producer.linger.ms unset (the client's default) -> 20",
                "warning: the repeats of base are not of one setup (repeat 2 against the first: producer.linger.ms unset "
                        + "(the client's default) -> 20): their spread is not run-to-run noise alone"),
                SetupDiff.lines(List.of("base", "new"), List.of(List.of(a, c), List.of(c, c))));
    }

    @Test
    void shouldKeepALineShortWhateverTheDifferences() {
        Map<String, String> a = new java.util.TreeMap<>();
        Map<String, String> b = new java.util.TreeMap<>();
        for (int i = 0; i < 100; i++) {
            a.put("topic.k" + (100 + i), "x".repeat(500));
        }
        List<String> d = SetupDiff.differences(a, b);
        assertEquals(SetupDiff.MAX_LISTED + 1, d.size());
        assertEquals("and 88 more", d.get(d.size() - 1));
        assertTrue(d.get(0).startsWith("topic.k100 " + "x".repeat(60) + "... -> unset (the brokers' default)"), d.get(0));
        assertTrue(d.stream().allMatch(x -> x.length() < 200), d.toString());
    }
}
