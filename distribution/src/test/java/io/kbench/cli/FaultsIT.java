package io.kbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster trouble on kbench's own embedded cluster: a workload's faults stop and start brokers on the run's
 * timeline, the intervals in which a broker was down are marked, and send errors are counted per interval
 * and either tolerated or end the run ({@code maxSendErrors}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FaultsIT {
    @TempDir
    Path dir;

    @Test
    void shouldLoseNothingWhenOneOfThreeBrokersRestartsMidRun() throws Exception {
        Path workload = write("broker-restart", """
                topics: 1
                partitionsPerTopic: 6
                messageSize: 100
                producersPerTopic: 2
                consumersPerSubscription: 2
                producerRate: 2000
                durationSeconds: 60
                faults:
                  - {at: 2, action: stop, broker: 2}
                  - {at: 3, action: start, broker: 2}
                """);
        Path out = dir.resolve("restart");
        JsonNode r = InProcessRun.run(workload, out, List.of("--brokers", "3", "--broker-processes",
                "--set", "replicationFactor=3",
                "--set", "topic.min.insync.replicas=2", "--set", "producer.acks=all",
                "--set", "producer.enable.idempotence=true"));
        assertEquals("COMPLETED", r.get("status").asText(), r.get("error").toString());
        JsonNode s = r.get("summary");
        assertTrue(s.get("sent").asLong() >= 2000 * 60 * 0.95, "sent " + s.get("sent"));
        long failed = s.get("failed").asLong();
        assertEquals(s.get("sent").asLong(), s.get("acked").asLong() + failed, "every send acknowledged or failed");
        // nothing acknowledged is lost (replication factor 3, min.insync.replicas 2, acks=all): the only gaps are sends
        // the client gave up on
        assertTrue(s.get("verification").get("lost").asLong() <= failed, s.get("verification").toString());
        assertTrue(s.get("received").asLong() >= s.get("acked").asLong());
        if (failed > 0) {
            // the client may give up on sends: in 1 of 3 suites on 2026-12-01 (the host 99-100% busy) the idempotent
            // producer sent nothing more to one partition after the restart until its 56 oldest records expired at
            // delivery.timeout.ms (120 s), its other partitions served all along. Kafka's doing; kbench must have seen
            // the sends left waiting in the window and said so
            JsonNode d = r.get("diagnosis");
            List<JsonNode> limits = new ArrayList<>(List.of(d));
            d.get("alsoLimitedBy").forEach(limits::add);
            assertTrue(limits.stream().anyMatch(l -> l.get("limit").asText().equals("cluster-unavailable")
                    && l.get("evidence").findValuesAsText("figure").contains("unackedAgeMs")), failed + " failed: " + d);
        }

        JsonNode faults = r.get("faults");
        assertEquals(2, faults.size(), faults.toString());
        for (JsonNode f : faults) {
            assertTrue(f.get("doneMillis").isNumber(), "fault done: " + f);
            assertTrue(f.get("error").isNull(), f.toString());
        }
        assertEquals("stop", faults.get(0).get("action").asText());
        assertEquals(2, faults.get(0).get("broker").asInt());
        List<Long> marked = new ArrayList<>();
        for (JsonNode i : r.get("intervals")) {
            if (i.get("faults").size() > 0) {
                assertEquals("broker 2 down", i.get("faults").get(0).asText());
                marked.add(i.get("index").asLong());
            }
        }
        // down from the stop request at 2 s (interval 2, or 3 if the fault thread was late) until the restart
        // completed, some time after 3 s (a node in a JVM of its own took 8.7-17.4 s to serve again under this load
        // on the 2-core VMs of 2026-11-27, 28-37 s on the slower one of 2026-11-28 — hence the 60-s run, so that
        // broker 2 is read again after it; the start waits for the stop, 3.5-5.7 s): interval 3 at least
        assertTrue(!marked.isEmpty() && marked.get(0) >= 2 && marked.get(0) <= 3, "marked intervals " + marked);
        assertTrue(marked.get(marked.size() - 1) >= 3, "marked intervals " + marked);
        for (int k = 1; k < marked.size(); k++) {
            assertEquals(marked.get(k - 1) + 1, marked.get(k), "one contiguous window: " + marked);
        }

        // --broker-processes: each node runs in a JVM of its own and is its own broker source: broker 2's says why it
        // has no figures while it is down, and has them again once it is back (brokers sharing one JVM give none
        // from the stop on)
        List<Long> twoRead = new ArrayList<>();
        List<Long> twoStopped = new ArrayList<>(); // stopped, or starting again
        for (JsonNode i : r.get("intervals")) {
            JsonNode b = i.get("brokers");
            assertEquals(List.of("embedded-1", "embedded-2", "embedded-3"), b.findValuesAsText("source"), i.toString());
            JsonNode two = b.get(1);
            if (two.get("figures").has("bytesInPerSec")) {
                twoRead.add(i.get("index").asLong());
            } else if (two.path("error").asText().matches(".*broker 2 is (stopped|starting).*")) {
                twoStopped.add(i.get("index").asLong());
            }
        }
        // a read at an interval's end may see the stop that began with the next interval
        long first = marked.get(0);
        long last = marked.get(marked.size() - 1);
        assertTrue(!twoStopped.isEmpty() && twoStopped.stream().allMatch(k -> k >= first - 1 && k <= last),
                "broker 2's source said it was stopped or starting in " + twoStopped + ", down in " + marked);
        assertTrue(twoRead.stream().anyMatch(k -> k < first) && twoRead.stream().anyMatch(k -> k > last + 1),
                "broker 2 read before and after its restart: " + twoRead + ", down " + marked);
        // the partitions broker 2 left under-replicated while down and catching up are the fault's, not a limit
        JsonNode diagnosis = r.get("diagnosis");
        assertTrue(!diagnosis.get("limit").asText().equals("replication") && diagnosis.path("alsoLimitedBy")
                .findValuesAsText("limit").stream().noneMatch("replication"::equals), diagnosis + "\n"
                + underReplicated(r));
        assertTrue(r.get("provenance").get("cluster").get("embeddedBrokerProcesses").asBoolean(), "recorded for --repeat");
        assertTrue(ProcessHandle.current().descendants().noneMatch(p -> p.info().commandLine().orElse("")
                .contains("BrokerNodeMain")), "a node's JVM outlived the run");
    }

    @Test
    void shouldCountSendErrorsPerIntervalAndGoOnWhileTheOnlyBrokerIsDown() throws Exception {
        Path workload = write("broker-outage", """
                topics: 1
                partitionsPerTopic: 2
                messageSize: 100
                producerRate: 1000
                durationSeconds: 16
                faults:
                  - {at: 4, action: stop, broker: 1}
                  - {at: 9, action: start, broker: 1}
                """);
        Path out = dir.resolve("outage");
        Ran ran = runKeepingConsole(workload, out, List.of("--set", "producer.request.timeout.ms=1000",
                "--set", "producer.delivery.timeout.ms=2000", "--set", "producer.linger.ms=5"));
        JsonNode r = ran.result();
        assertEquals("COMPLETED", r.get("status").asText());
        // the producers' sends blocked waiting for metadata while the only broker was down: dated per interval, on the
        // console while it lasts, and named — not the generator's, whose schedule they held back
        String text = ran.console();
        assertTrue(text.contains("| SENDS BLOCKED "), text);
        boolean dated = false;
        for (JsonNode i : r.get("intervals")) {
            dated |= i.get("faults").size() > 0
                    && i.path("client").path("producer").path("kbench-send-blocked-ratio").asDouble(0) >= 0.5;
        }
        assertTrue(dated, "an interval with the broker down had its sends blocked");
        JsonNode d = r.get("diagnosis");
        List<String> limits = new ArrayList<>(List.of(d.get("limit").asText()));
        d.get("alsoLimitedBy").forEach(l -> limits.add(l.get("limit").asText()));
        assertTrue(limits.contains("cluster-unavailable") && !limits.contains("generator"), d.toString());
        long failed = r.get("summary").get("failed").asLong();
        assertTrue(failed > 0, "sends failed while the broker was down");
        long inIntervals = 0;
        boolean shown = false;
        for (JsonNode i : r.get("intervals")) {
            inIntervals += i.get("publish").get("failed").asLong();
            shown |= i.get("errors").size() > 0;
        }
        assertEquals(failed, inIntervals, "failures are counted per interval");
        assertTrue(shown, "the send errors are shown in the intervals");
        // after the restart (9 s, serving again a few seconds later) the producers send again
        boolean resumed = false;
        for (JsonNode i : r.get("intervals")) {
            resumed |= i.get("index").asLong() >= 10 && i.get("publish").get("acked").asLong() >= 500;
        }
        assertTrue(resumed, "acknowledged sends after the restart");
    }

    /**
     * One of two brokers stops for 4 s and its partitions (replication factor 1) have no leader: their sends wait (up to
     * delivery.timeout.ms) while the other broker's partitions are served in milliseconds. No latency figure holds a
     * send until it completes, and no interval is without acknowledgements: the waiting sends are seen by their age
     * (kbench-unacked-age-max), marked on the console and named — before, the window said nothing of them. (Left
     * stopped to the end, the broker's partitions keep the topic's deletion and the cluster's close waiting 30 and 60 s.)
     */
    @Test
    void shouldShowSendsLeftWaitingOnPartitionsWithoutALeaderWhileTheOthersAreServed() throws Exception {
        Path workload = write("leaderless", """
                topics: 1
                partitionsPerTopic: 4
                messageSize: 100
                producerRate: 1000
                durationSeconds: 10
                faults:
                  - {at: 2, action: stop, broker: 2}
                  - {at: 6, action: start, broker: 2}
                """);
        Ran ran = runKeepingConsole(workload, dir.resolve("leaderless"), List.of("--brokers", "2",
                "--set", "replicationFactor=1"));
        JsonNode r = ran.result();
        assertEquals("COMPLETED", r.get("status").asText());
        // served and left waiting in the same intervals: acknowledgements in milliseconds, one send waiting for seconds
        int waiting = 0;
        for (JsonNode i : r.get("intervals")) {
            double age = i.path("client").path("producer").path("kbench-unacked-age-max").asDouble(-1);
            assertTrue(age >= 0, "every interval with producers carries the age: " + i.get("client"));
            long acked = i.get("publish").get("acked").asLong();
            if (acked > 0 && age > 1_000 + i.get("publish").get("latencyMicros").get("max").asDouble() / 1e3) {
                waiting++;
            }
        }
        assertTrue(waiting >= 2, waiting + " interval(s) with a send left waiting while others were acknowledged");
        String text = ran.console();
        assertTrue(text.contains("| A SEND WAITING "), text);
        JsonNode d = r.get("diagnosis");
        List<JsonNode> limits = new ArrayList<>(List.of(d));
        d.get("alsoLimitedBy").forEach(limits::add);
        JsonNode unavailable = limits.stream().filter(l -> l.get("limit").asText().equals("cluster-unavailable"))
                .findFirst().orElseThrow(() -> new AssertionError(d.toString()));
        assertTrue(unavailable.get("evidence").findValuesAsText("figure").contains("unackedAgeMs"), unavailable.toString());
        // once broker 2 serves again, what waited is acknowledged: nothing failed or was lost, and the window's total
        // may well have caught up with its target — the waits are what says the cluster did not serve
        JsonNode s = r.get("summary");
        assertEquals(s.get("sent").asLong(), s.get("acked").asLong(), "every send acknowledged after the restart");
        assertEquals(0, s.get("verification").get("lost").asLong());
    }

    @Test
    void shouldEndTheRunWhenSendErrorsExceedMaxSendErrors() throws Exception {
        Path workload = write("broker-gone", """
                topics: 1
                messageSize: 100
                producerRate: 1000
                durationSeconds: 60
                maxSendErrors: 0
                faults:
                  - {at: 3, action: stop, broker: 1}
                """);
        Path out = dir.resolve("gone");
        long start = System.nanoTime();
        int rc = Main.execute("run", "--output", out.toString(), "--set", "producer.request.timeout.ms=1000",
                "--set", "producer.delivery.timeout.ms=2000", workload.toString());
        assertEquals(1, rc);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(45), "the run ended at the first failed send");
        JsonNode r = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals("FAILED", r.get("status").asText());
        assertTrue(r.get("error").asText().matches("[\\d,]+ sends failed, more than maxSendErrors \\(0\\)"),
                r.get("error").asText());
        assertTrue(r.get("summary").get("acked").asLong() > 1000, "what was acknowledged before is kept");
    }

    @Test
    void shouldRefuseFaultsForAClusterKbenchDidNotStart() throws Exception {
        Path workload = write("foreign", """
                topics: 1
                producerRate: 10
                durationSeconds: 5
                faults:
                  - {at: 1, action: stop, broker: 1}
                """);
        InProcessRun.Outcome o = InProcessRun.execute("run", "--bootstrap-servers", "127.0.0.1:9", workload.toString());
        String text = o.stderr();
        assertEquals(2, o.exitCode(), text);
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.startsWith("kbench: workload foreign schedules faults: they act only on the embedded cluster"), text);
        assertFalse(text.contains("\tat "), text);
    }

    /** A run's result.json and what it printed on the console. */
    private record Ran(JsonNode result, String console) { }

    /** Runs {@code workload} in-process; its console goes to stdout as usual, and is kept. */
    private static Ran runKeepingConsole(Path workload, Path out, List<String> args) throws Exception {
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(new java.io.OutputStream() {
                @Override
                public void write(int b) {
                    saved.write(b);
                    console.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    saved.write(b, off, len);
                    console.write(b, off, len);
                }
            }, true, java.nio.charset.StandardCharsets.UTF_8));
            JsonNode r = InProcessRun.run(workload, out, args);
            return new Ran(r, console.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
    }

    private Path write(String name, String yaml) throws Exception {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, "name: " + name + "\n" + yaml);
        return f;
    }

    /** Each interval with an under-replicated partition or a fault, as "index [start-end ms] faults source=URP ...". */
    private static String underReplicated(JsonNode r) {
        StringBuilder out = new StringBuilder();
        long t0 = r.get("intervals").get(0).get("startMillis").asLong();
        for (JsonNode i : r.get("intervals")) {
            StringBuilder urp = new StringBuilder();
            boolean any = i.get("faults").size() > 0;
            for (JsonNode b : i.get("brokers")) {
                JsonNode u = b.path("figures").get("underReplicatedPartitions");
                urp.append(' ').append(b.get("source").asText()).append('=').append(u == null ? "-" : u.asText());
                any |= u != null && u.asDouble() > 0;
            }
            if (any) {
                out.append(i.get("index").asLong()).append(" [").append(i.get("startMillis").asLong() - t0).append('-')
                        .append(i.get("endMillis").asLong() - t0).append(" ms] ").append(i.get("faults")).append(urp)
                        .append('\n');
            }
        }
        for (JsonNode f : r.get("faults")) {
            out.append("fault ").append(f).append('\n');
        }
        return out.toString();
    }
}
