package io.kbench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Prometheus text as the JMX exporter serves it, and its mapping to the broker readings kbench computes figures from. */
class PrometheusReadingTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = PrometheusReadingTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldParseTheTextFormatIncludingItsEdges() {
        List<PrometheusText.Sample> s = PrometheusText.parse("""
                # HELP x help text
                # TYPE x untyped
                a 1
                b{l="v",m="with \\"quotes\\" and \\\\ and \\n"} 2.5e3 1712345678000
                  c{} -Inf
                d{l="v",} NaN
                e{l="unterminated} 3
                f{l=v} 4
                g not-a-number
                h{l="v"}
                """);
        assertEquals(List.of("a", "b", "c", "d"), s.stream().map(PrometheusText.Sample::name).toList());
        assertEquals(2500, s.get(1).value());
        assertEquals("with \"quotes\" and \\ and \n", s.get(1).labels().get("m"));
        assertEquals(Double.NEGATIVE_INFINITY, s.get(2).value());
        assertTrue(Double.isNaN(s.get(3).value()));
        assertEquals(List.of(), PrometheusText.parse(""));
        assertEquals(List.of(), PrometheusText.parse("<html><body>not metrics</body></html>"));
    }

    @Test
    void shouldReadTheExportersDefaultNamingAsRecordedFromARealBroker() throws IOException {
        Map<String, Double> r = PrometheusReading.of(PrometheusText.parse(resource("jmx-exporter-default.txt")));
        assertTrue(PrometheusReading.looksLikeBroker(r));
        assertEquals(0.0, r.get("bytesInPerSec.count"));
        assertEquals(1.3018936806E10, r.get("handlerIdle.count"), "the broker's pool, not the controller's");
        assertEquals(0.3076016336171721, r.get("networkIdle"));
        assertEquals(1.2099352395E10 + 1.1793372464E10 + 1.2017506955E10, r.get("networkWait.nanos"), 1,
                "the clients' listener only");
        assertEquals(3.0, r.get("networkWait.processors"));
        assertEquals(0.0, r.get("Produce.TotalTimeMs.count"));
        assertEquals(0.0, r.get("Produce.LocalTimeMs.mean"));
        assertNull(r.get("Metadata.TotalTimeMs.mean"), "only the requests kbench reports");
        assertEquals(0.0, r.get("urp"));
        assertEquals(32.0, r.get("logFlush.count"));
        assertEquals(6.56e9, r.get("cpu.nanos"), "the bean's nanoseconds over the collector's 10 ms seconds");
        assertEquals(2.0, r.get("cpu.processors"));
        assertEquals(1.90760448E8, r.get("heap.used"));
    }

    @Test
    void shouldTurnTwoScrapesIntoTheSameFiguresAsJmxWould() {
        String before = """
                kafka_server_BrokerTopicMetrics_Count{name="BytesInPerSec"} 1000000
                kafka_server_BrokerTopicMetrics_Count{name="BytesInPerSec",topic="t"} 999
                kafka_network_RequestMetrics_Count{name="RequestsPerSec",request="Produce",version="11"} 100
                kafka_network_RequestMetrics_Count{name="RequestsPerSec",request="Produce",version="12"} 50
                kafka_network_RequestMetrics_Count{name="TotalTimeMs",request="Produce"} 150
                kafka_network_RequestMetrics_Mean{name="TotalTimeMs",request="Produce"} 2.0
                kafka_server_KafkaRequestHandlerPool_Count{name="RequestHandlerAvgIdlePercent"} 4e9
                kafka_server_socket_server_metrics_io_wait_time_ns_total{listener="PLAINTEXT",networkProcessor="0"} 1e9
                java_lang_OperatingSystem_ProcessCpuTime 1e9
                java_lang_OperatingSystem_AvailableProcessors 4
                """;
        String after = """
                kafka_server_BrokerTopicMetrics_Count{name="BytesInPerSec"} 3000000
                kafka_network_RequestMetrics_Count{name="RequestsPerSec",request="Produce",version="11"} 300
                kafka_network_RequestMetrics_Count{name="RequestsPerSec",request="Produce",version="12"} 150
                kafka_network_RequestMetrics_Count{name="TotalTimeMs",request="Produce"} 450
                kafka_network_RequestMetrics_Mean{name="TotalTimeMs",request="Produce"} 3.0
                kafka_server_KafkaRequestHandlerPool_Count{name="RequestHandlerAvgIdlePercent"} 5.5e9
                kafka_server_socket_server_metrics_io_wait_time_ns_total{listener="PLAINTEXT",networkProcessor="0"} 2.8e9
                java_lang_OperatingSystem_ProcessCpuTime 3e9
                java_lang_OperatingSystem_AvailableProcessors 4
                """;
        Map<String, Double> f = BrokerScraper.figures(PrometheusReading.of(PrometheusText.parse(before)),
                PrometheusReading.of(PrometheusText.parse(after)), 2.0);
        assertEquals(1e6, f.get("bytesInPerSec"), 1e-6, "2 MB in 2 s, the per-topic line left out");
        assertEquals(150, f.get("produceRequestsPerSec"), 1e-9, "summed over request versions");
        assertEquals(3.5, f.get("produceTotalTimeMsMean"), 1e-9, "(450 x 3 - 150 x 2) / 300");
        assertEquals(0.75, f.get("requestHandlerIdle"), 1e-9);
        assertEquals(0.9, f.get("networkProcessorIdle"), 1e-9, "1.8 s of 2 s waiting");
        assertEquals(0.25, f.get("processCpu"), 1e-9, "2 s of CPU in 2 s on 4 processors");
    }

    @Test
    void shouldCountTheBrokersOfTheJvmThatShareOneIdleMeter() {
        // as a kbench broker --nodes 3 with the exporter serves it (recorded): one app-info bean per broker; Kafka's
        // own app-info metrics (client_id) are another thing
        String three = """
                kafka_server_app_info_StartTimeMs{id="1",} 1.795763428631E12
                kafka_server_app_info_StartTimeMs{id="2",} 1.795763428572E12
                kafka_server_app_info_StartTimeMs{id="3",} 1.795763428583E12
                kafka_server_app_info_start_time_ms{client_id="1",} 1.795763428631E12
                kafka_server_KafkaRequestHandlerPool_Count{name="BrokerRequestHandlerAvgIdlePercent",} 4.5E9
                """;
        Map<String, Double> r = PrometheusReading.of(PrometheusText.parse(three));
        assertEquals(3.0, r.get("handlerIdle.pools"));
        assertEquals(3.0, PrometheusReading.of(PrometheusText.parse(three + three)).get("handlerIdle.pools"),
                "the same broker twice is one");
        assertNull(PrometheusReading.of(PrometheusText.parse(
                "kafka_server_KafkaRequestHandlerPool_Count{name=\"BrokerRequestHandlerAvgIdlePercent\",} 4.5E9\n"))
                .get("handlerIdle.pools"), "not exported (Strimzi's rules, an older configuration): one broker is assumed");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            many.append("kafka_server_app_info_StartTimeMs{id=\"").append(i).append("\",} 1\n");
        }
        assertEquals(PrometheusReading.MAX_BROKERS_IN_JVM, PrometheusReading.of(PrometheusText.parse(many.toString()))
                .get("handlerIdle.pools"), "bounded");
    }

    /** Read since 2026-12-01 (after the recording above): in both namings, and absent where it is not exported. */
    @Test
    void shouldReadThePartitionsUnderMinIsrInEitherNaming() {
        assertEquals(3.0, PrometheusReading.of(PrometheusText.parse("""
                kafka_server_ReplicaManager_Value{name="UnderReplicatedPartitions"} 4.0
                kafka_server_ReplicaManager_Value{name="UnderMinIsrPartitionCount"} 3.0
                """)).get("underMinIsr"));
        assertEquals(2.0, PrometheusReading.of(PrometheusText.parse(
                "kafka_server_replicamanager_underminisrpartitioncount 2\n")).get("underMinIsr"));
        assertNull(PrometheusReading.of(PrometheusText.parse(
                "kafka_server_ReplicaManager_Value{name=\"UnderReplicatedPartitions\"} 4.0\n")).get("underMinIsr"));
    }

    @Test
    void shouldReadStrimzisExampleRulesAndLeaveOutWhatTheyDrop() {
        Map<String, Double> r = PrometheusReading.of(PrometheusText.parse("""
                kafka_server_brokertopicmetrics_bytesin_total 5000
                kafka_server_brokertopicmetrics_bytesin_total{topic="t"} 10
                kafka_server_brokertopicmetrics_messagesin_total 50
                kafka_server_replicamanager_underreplicatedpartitions 2
                kafka_server_replicamanager_isrshrinks_total 1
                kafka_network_socketserver_networkprocessoravgidle_percent 0.8
                kafka_server_kafkarequesthandlerpool_requesthandleravgidle_percent 0.9
                process_cpu_seconds_total 12.5
                jvm_memory_used_bytes{area="heap"} 3e8
                """));
        assertTrue(PrometheusReading.looksLikeBroker(r));
        assertEquals(5000, r.get("bytesInPerSec.count"));
        assertEquals(2, r.get("urp"));
        assertEquals(1, r.get("isrShrinks.count"));
        assertEquals(0.8, r.get("networkIdle"));
        assertEquals(12.5e9, r.get("cpu.nanos"));
        assertFalse(r.containsKey("handlerIdle.count"), "an all-time mean rate is not an interval's idle");
        assertFalse(r.containsKey("Produce.TotalTimeMs.mean"), "Strimzi's rules drop the request metrics");
        assertFalse(PrometheusReading.looksLikeBroker(PrometheusReading.of(PrometheusText.parse(
                "jvm_memory_used_bytes{area=\"heap\"} 3e8\nprocess_cpu_seconds_total 1\n"))), "a JVM, not a broker");
    }
}
