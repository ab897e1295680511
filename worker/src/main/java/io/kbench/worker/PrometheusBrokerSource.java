package io.kbench.worker;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A broker's metrics from its JMX exporter's Prometheus endpoint (the {@code jmx_prometheus_javaagent} that Strimzi and
 * most Prometheus/Grafana setups attach to brokers): one HTTP/1.1 GET per read over a kept-alive connection, parsed as
 * Prometheus text ({@link PrometheusText}) and mapped to kbench's names ({@link PrometheusReading}). A read waits at most
 * its timeout to connect and at most its timeout between two bytes of the answer, and reads at most {@link #MAX_BYTES};
 * credentials in the URL's user part are sent as HTTP basic authentication and never shown (the source is labelled by
 * the URL without them). Redirects are not followed. Not thread-safe.
 *
 * <p>Why {@link HttpURLConnection} and not {@code java.net.http.HttpClient}: a read costs the reader less CPU.
 * {@code benchmarks/broker-read-cost.sh} on the development VM: 1.1 ms per read once compiled against 2.7 ms, 6.5-9.2 ms
 * at one read a second (minutes 2 to 4) against 12.3-15.2 ms, and 100-120 ms to connect against 740-750 ms
 * (docs/performance.md, "What reading the brokers costs").
 */
final class PrometheusBrokerSource implements BrokerScraper.Source {
    /** The longest response read: a broker with tens of thousands of partitions exports a few MB. */
    static final int MAX_BYTES = 32 << 20;

    private final URL url;
    private final String authorization;
    private final String label;
    private final int timeoutMillis;

    private PrometheusBrokerSource(URL url, String authorization, String label, int timeoutMillis) {
        this.url = url;
        this.authorization = authorization;
        this.label = label;
        this.timeoutMillis = timeoutMillis;
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
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IOException("not an http:// or https:// URL");
        }
        String label;
        URL target;
        try {
            label = new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
            target = URI.create(label + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())).toURL();
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("not a URL (" + (e instanceof URISyntaxException u ? u.getReason() : e.getMessage()) + ")");
        }
        String authorization = uri.getRawUserInfo() == null ? null : "Basic " + java.util.Base64.getEncoder().encodeToString(
                java.net.URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
        PrometheusBrokerSource s = new PrometheusBrokerSource(target, authorization, label,
                (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
        Map<String, Double> first;
        try {
            first = s.fetch((int) Math.min(Integer.MAX_VALUE, connectSeconds * 1000L));
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
        return fetch(timeoutMillis);
    }

    private Map<String, Double> fetch(int timeout) throws IOException {
        // never through a proxy the JVM may be configured with (http.proxyHost): the exporter is read directly, as
        // java.net.http.HttpClient did without a ProxySelector
        URLConnection c = url.openConnection(java.net.Proxy.NO_PROXY);
        if (!(c instanceof HttpURLConnection http)) {
            throw new IOException("not an HTTP endpoint");
        }
        http.setConnectTimeout(timeout);
        http.setReadTimeout(timeout);
        http.setInstanceFollowRedirects(false);
        http.setUseCaches(false);
        http.setRequestProperty("Accept", "text/plain;version=0.0.4");
        if (authorization != null) {
            http.setRequestProperty("Authorization", authorization);
        }
        int status = http.getResponseCode();
        if (status != 200) {
            InputStream err = http.getErrorStream();
            if (err != null) {
                err.close();
            }
            throw new IOException("HTTP " + status);
        }
        byte[] body;
        try (InputStream in = http.getInputStream()) {
            // read to the end (when it fits): the connection then goes back to the keep-alive cache
            body = in.readNBytes(MAX_BYTES + 1);
        }
        if (body.length > MAX_BYTES) {
            http.disconnect();
            throw new IOException("the response is larger than " + (MAX_BYTES >> 20) + " MB");
        }
        return PrometheusReading.of(PrometheusText.parse(new String(body, StandardCharsets.UTF_8)));
    }

    @Override
    public void close() {
        // kept-alive connections are the JDK's to close: idle ones after their keep-alive time
    }
}
