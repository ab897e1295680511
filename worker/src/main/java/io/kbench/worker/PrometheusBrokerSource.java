package io.kbench.worker;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * A broker's metrics from its JMX exporter's Prometheus endpoint (the {@code jmx_prometheus_javaagent} that Strimzi and
 * most Prometheus/Grafana setups attach to brokers): one HTTP GET per read, parsed as Prometheus text
 * ({@link PrometheusText}) and mapped to kbench's names ({@link PrometheusReading}). A read waits at most its
 * timeout and reads at most {@link #MAX_BYTES}; credentials in the URL's user part are sent as HTTP basic
 * authentication and never shown (the source is labelled by the URL without them). Not thread-safe.
 */
final class PrometheusBrokerSource implements BrokerScraper.Source {
    /** The longest response read: a broker with tens of thousands of partitions exports a few MB. */
    static final int MAX_BYTES = 32 << 20;

    private final HttpClient client;
    private final HttpRequest request;
    private final String label;

    private PrometheusBrokerSource(HttpClient client, HttpRequest request, String label) {
        this.client = client;
        this.request = request;
        this.label = label;
    }

    /**
     * Opens {@code url} and reads it once, within {@code connectSeconds}.
     *
     * @throws IOException when nothing answers there, it answers with an error, or it serves no Kafka broker figures
     */
    static PrometheusBrokerSource open(String url, long timeoutMillis, int connectSeconds) throws IOException {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IOException("not a URL (" + e.getReason() + ")");
        }
        if (uri.getHost() == null) {
            throw new IOException("not a URL with a host");
        }
        String label;
        try {
            label = new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (URISyntaxException e) {
            throw new IOException("not a URL (" + e.getReason() + ")");
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofMillis(timeoutMillis))
                .header("Accept", "text/plain;version=0.0.4");
        if (uri.getRawUserInfo() != null) {
            b.header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                    java.net.URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8)));
            b.uri(URI.create(label + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())));
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(connectSeconds))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        PrometheusBrokerSource s = new PrometheusBrokerSource(client, b.build(), label);
        Map<String, Double> first;
        try {
            first = s.fetch(Duration.ofSeconds(connectSeconds));
        } catch (IOException e) {
            throw new IOException("no Prometheus endpoint answered there (" + BrokerScraper.describe(e) + ")", e);
        }
        if (!PrometheusReading.looksLikeBroker(first)) {
            throw new IOException("it serves no Kafka broker metrics (no kafka_server BrokerTopicMetrics or "
                    + "ReplicaManager figures); is it a broker's JMX exporter?");
        }
        return s;
    }

    /** The URL without credentials or query, as results show it. */
    String label() {
        return label;
    }

    @Override
    public Map<String, Double> read() throws IOException {
        return fetch(null);
    }

    private Map<String, Double> fetch(Duration timeout) throws IOException {
        HttpRequest r = timeout == null ? request : HttpRequest.newBuilder(request, (k, v) -> true).timeout(timeout).build();
        HttpResponse<InputStream> response;
        try {
            response = client.send(r, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            byte[] body = in.readNBytes(MAX_BYTES + 1);
            if (body.length > MAX_BYTES) {
                throw new IOException("the response is larger than " + (MAX_BYTES >> 20) + " MB");
            }
            return PrometheusReading.of(PrometheusText.parse(new String(body, StandardCharsets.UTF_8)));
        }
    }

    @Override
    public void close() {
        // HttpClient holds no connection that needs closing on Java 17; its threads end when it is unreachable
    }
}
