package io.kbench.worker;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns one scrape of a broker's JMX exporter ({@code io.prometheus.jmx:jmx_prometheus_javaagent}) into the running
 * totals and gauges {@link BrokerScraper#figures} reads, under the two namings production setups use:
 * <ul>
 *   <li>the exporter's <b>default</b> naming (no rules, or a catch-all {@code pattern: ".*"}): {@code
 *       kafka_server_BrokerTopicMetrics_Count{name="BytesInPerSec"}} — domain, the bean's {@code type}, the
 *       attribute; the bean's other keys as labels. Every figure kbench reads over JMX is there;</li>
 *   <li><b>Strimzi</b>'s example rules ({@code kafka-metrics.yaml}): {@code kafka_server_brokertopicmetrics_bytesin_total},
 *       gauges as {@code kafka_server_replicamanager_underreplicatedpartitions}, idle gauges as {@code
 *       kafka_network_socketserver_networkprocessoravgidle_percent}. Those rules drop Kafka's request metrics and
 *       export the request handlers' idle only as its all-time mean, so the produce request's time and the
 *       handlers' idle are absent from such a source.</li>
 * </ul>
 * Names are compared without case (the exporter's {@code lowercaseOutputName}). The process's CPU comes from the
 * {@code java.lang:type=OperatingSystem} bean where the rules export it ({@code ProcessCpuTime}, {@code
 * AvailableProcessors}), else from the exporter's JVM collector ({@code process_cpu_seconds_total}; without the
 * processors the CPU share is absent); the heap from {@code jvm_memory_used_bytes{area="heap"}} (or the older {@code
 * jvm_memory_bytes_used}). Pure.
 */
final class PrometheusReading {
    private static final Map<String, String> METERS = Map.of(
            "bytesinpersec", "bytesInPerSec", "bytesoutpersec", "bytesOutPerSec", "messagesinpersec", "messagesInPerSec",
            "replicationbytesinpersec", "replicationBytesInPerSec",
            "replicationbytesoutpersec", "replicationBytesOutPerSec");
    private static final List<String> REQUESTS = List.of("Produce", "FetchConsumer", "FetchFollower");
    private static final List<String> TIMES = List.of("TotalTimeMs", "RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs",
            "ResponseQueueTimeMs", "ResponseSendTimeMs");

    private PrometheusReading() { }

    /** True when the scrape holds any Kafka broker figure kbench reads (else it is not a broker's exporter). */
    static boolean looksLikeBroker(Map<String, Double> reading) {
        return reading.keySet().stream().anyMatch(k -> k.endsWith("PerSec.count") || k.equals("urp"));
    }

    /** Most brokers one JVM is counted as hosting (an endpoint's nonsense stays bounded). */
    static final int MAX_BROKERS_IN_JVM = 1_000;

    static Map<String, Double> of(List<PrometheusText.Sample> samples) {
        Map<String, Double> r = new HashMap<>();
        double wait = 0;
        int processors = 0;
        java.util.Set<String> brokerIds = new java.util.HashSet<>();
        for (PrometheusText.Sample s : samples) {
            if (!Double.isFinite(s.value())) {
                continue;
            }
            String name = s.name().toLowerCase(Locale.ROOT);
            Map<String, String> l = lower(s.labels());
            String bean = l.getOrDefault("name", "").toLowerCase(Locale.ROOT);
            String request = l.get("request");
            if (l.containsKey("topic")) {
                continue; // per topic: the all-topics figure is the one read
            }
            switch (name) {
                // the default naming
                case "kafka_server_brokertopicmetrics_count" -> {
                    String key = METERS.get(bean);
                    if (key != null) {
                        r.put(key + ".count", s.value());
                    }
                }
                case "kafka_network_requestmetrics_count" -> {
                    if (request != null && REQUESTS.contains(request)) {
                        if (bean.equals("requestspersec")) {
                            r.merge(request + ".requests.count", s.value(), Double::sum); // summed over versions
                        } else {
                            time(r, request, bean, "count", s.value());
                        }
                    }
                }
                case "kafka_network_requestmetrics_mean" -> time(r, request, bean, "mean", s.value());
                case "kafka_network_requestmetrics_99thpercentile" -> {
                    if (bean.equals("totaltimems") && request != null) {
                        r.put(request + ".TotalTimeMs.p99", s.value());
                    }
                }
                case "kafka_server_kafkarequesthandlerpool_count" -> {
                    if (bean.equals("brokerrequesthandleravgidlepercent")) {
                        r.put("handlerIdle.count", s.value());
                    } else if (bean.equals("requesthandleravgidlepercent")) {
                        r.putIfAbsent("handlerIdle.count.any", s.value());
                    }
                }
                case "kafka_network_socketserver_value" -> {
                    if (bean.equals("networkprocessoravgidlepercent")) {
                        r.put("networkIdle", s.value());
                    }
                }
                // io-wait-time-ns-total: the exporter's client library drops the _total of a name it does not type
                case "kafka_server_socket_server_metrics_io_wait_time_ns_total",
                        "kafka_server_socket_server_metrics_io_wait_time_ns" -> {
                    String listener = l.getOrDefault("listener", "");
                    if (l.containsKey("networkprocessor") && !listener.toUpperCase(Locale.ROOT).contains("CONTROLLER")) {
                        wait += s.value();
                        processors++;
                    }
                }
                case "kafka_server_replicamanager_value" -> {
                    if (bean.equals("underreplicatedpartitions")) {
                        r.put("urp", s.value());
                    } else if (bean.equals("underminisrpartitioncount")) {
                        r.put("underMinIsr", s.value());
                    }
                }
                case "kafka_server_replicamanager_count" -> {
                    if (bean.equals("isrshrinkspersec")) {
                        r.put("isrShrinks.count", s.value());
                    } else if (bean.equals("isrexpandspersec")) {
                        r.put("isrExpands.count", s.value());
                    }
                }
                // one per broker in the JVM (kafka.server:type=app-info,id=N): several brokers in one JVM (kbench
                // broker --nodes N) share one metrics registry, so their request handler pools mark one idle meter
                case "kafka_server_app_info_starttimems" -> {
                    String id = l.get("id");
                    if (id != null && brokerIds.size() < MAX_BROKERS_IN_JVM) {
                        brokerIds.add(id);
                    }
                }
                case "kafka_log_logflushstats_count" -> r.put("logFlush.count", s.value());
                case "kafka_log_logflushstats_mean" -> r.put("logFlush.mean", s.value());
                // Strimzi's example rules
                case "kafka_server_brokertopicmetrics_bytesin_total" -> r.put("bytesInPerSec.count", s.value());
                case "kafka_server_brokertopicmetrics_bytesout_total" -> r.put("bytesOutPerSec.count", s.value());
                case "kafka_server_brokertopicmetrics_messagesin_total" -> r.put("messagesInPerSec.count", s.value());
                case "kafka_server_brokertopicmetrics_replicationbytesin_total" ->
                        r.put("replicationBytesInPerSec.count", s.value());
                case "kafka_server_brokertopicmetrics_replicationbytesout_total" ->
                        r.put("replicationBytesOutPerSec.count", s.value());
                case "kafka_server_replicamanager_underreplicatedpartitions" -> r.put("urp", s.value());
                case "kafka_server_replicamanager_underminisrpartitioncount" -> r.put("underMinIsr", s.value());
                case "kafka_server_replicamanager_isrshrinks_total" -> r.put("isrShrinks.count", s.value());
                case "kafka_server_replicamanager_isrexpands_total" -> r.put("isrExpands.count", s.value());
                case "kafka_network_socketserver_networkprocessoravgidle_percent" -> r.put("networkIdle", s.value());
                case "kafka_log_logflushstats_logflushrateandtimems_count" -> r.put("logFlush.count", s.value());
                // the exporter's JVM collectors
                case "process_cpu_seconds_total" -> r.putIfAbsent("cpu.seconds", s.value());
                case "jvm_memory_used_bytes", "jvm_memory_bytes_used" -> {
                    if ("heap".equals(l.get("area"))) {
                        r.put("heap.used", s.value());
                    }
                }
                case "java_lang_operatingsystem_processcputime" -> r.put("cpu.nanos", s.value());
                case "java_lang_operatingsystem_availableprocessors" -> r.put("cpu.processors", s.value());
                default -> { }
            }
        }
        Double seconds = r.remove("cpu.seconds");
        if (seconds != null) {
            r.putIfAbsent("cpu.nanos", seconds * 1e9); // the JVM collector's, where the bean's is not exported
        }
        // a combined broker+controller has a pool each; the broker's is what clients load
        Double any = r.remove("handlerIdle.count.any");
        if (any != null) {
            r.putIfAbsent("handlerIdle.count", any);
        }
        if (!brokerIds.isEmpty()) {
            r.put("handlerIdle.pools", (double) brokerIds.size()); // their mean, as the JMX source reads it
        }
        if (processors > 0) {
            r.put("networkWait.nanos", wait);
            r.put("networkWait.processors", (double) processors);
        }
        return r;
    }

    private static void time(Map<String, Double> r, String request, String bean, String what, double value) {
        if (request == null || !REQUESTS.contains(request)) {
            return;
        }
        for (String t : TIMES) {
            if (t.toLowerCase(Locale.ROOT).equals(bean)) {
                r.put(request + "." + t + "." + what, value);
            }
        }
    }

    private static Map<String, String> lower(Map<String, String> labels) {
        Map<String, String> out = new HashMap<>();
        labels.forEach((k, v) -> out.put(k.toLowerCase(Locale.ROOT), v));
        return out;
    }
}
