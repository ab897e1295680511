package io.kbench.coordinator.report.files;

import static io.kbench.coordinator.report.files.ChartSeries.BROKER_IDLE;
import static io.kbench.coordinator.report.files.ChartSeries.BROKER_RATES;
import static io.kbench.coordinator.report.files.ChartSeries.BROKER_TIMES;
import static io.kbench.coordinator.report.files.ChartSeries.METRICS;
import static io.kbench.coordinator.report.files.ChartSeries.QUANTILES;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.kbench.coordinator.merge.LatencyStats;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.protocol.Metric;

/** One bucket of a {@link ChartSeries}: sums and worsts of its intervals. Not thread-safe. */
final class ChartPoint {
    int n;
    long startMillis;
    long endMillis;
    double publishSum;
    double consumeSum;
    /** Intervals with share consumers' figures, and their rates summed. */
    int shareN;
    double shareDeliverSum;
    double shareAcceptSum;
    long lag = -1;
    /** The most messages acknowledged and not yet received by a classic group at an interval's end; -1: not counted. */
    long unread = -1;
    long shareBacklog = -1;
    /** Per metric, per quantile: the worst in the bucket in µs, -1 while none had samples. */
    final long[] latency = new long[METRICS.length * QUANTILES.size()];
    final double[] clientSum;
    final int[] clientN;
    boolean warmup;
    boolean saturated;
    boolean brokerDown;
    /** Some interval of the bucket had nothing acknowledged while messages were outstanding ({@link ChartSeries#add}). */
    boolean unserved;
    /** Some interval of the bucket left a send waiting while younger ones were acknowledged ({@link ChartSeries#add}). */
    boolean leftWaiting;
    /** Intervals with worker host figures: their mean CPU shares summed; the worst CPU, GC and heap. */
    int hostN;
    double cpuMeanSum;
    double cpuMax;
    long gcMicrosMax;
    double heapMax = -1;
    long stallMicrosMax = -1;
    double hostBusyMax = -1;
    double hostStealMax = -1;
    double jitShareMax = -1;
    /** Intervals with brokers' figures: rates summed over sources and intervals; idle at its lowest; times worst. */
    int brokerN;
    final double[] brokerRates = new double[BROKER_RATES.size()];
    final double[] brokerIdle = {Double.NaN, Double.NaN};
    final double[] brokerTimes = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};

    ChartPoint(int clientKeys) {
        Arrays.fill(latency, -1);
        clientSum = new double[clientKeys];
        clientN = new int[clientKeys];
    }

    void add(ResultFile.Interval i, List<String> clientKeys) {
        if (n == 0) {
            startMillis = i.startMillis();
        }
        n++;
        endMillis = i.endMillis();
        publishSum += i.publish().rate();
        consumeSum += i.consume().rate();
        if (i.share() != null) {
            shareN++;
            shareDeliverSum += i.share().rate();
            shareAcceptSum += i.share().acceptRate();
            if (i.share().backlog() != null) {
                shareBacklog = Math.max(shareBacklog, i.share().backlog());
            }
        }
        if (i.consume().lag() != null) {
            lag = Math.max(lag, i.consume().lag());
        }
        for (int m = 0; m < METRICS.length; m++) {
            LatencyStats s = stats(i, METRICS[m]);
            if (s != null && s.count() > 0) {
                int at = m * QUANTILES.size();
                latency[at] = Math.max(latency[at], s.p50());
                latency[at + 1] = Math.max(latency[at + 1], s.p99());
                latency[at + 2] = Math.max(latency[at + 2], s.p999());
                latency[at + 3] = Math.max(latency[at + 3], s.max());
            }
        }
        Map<String, Double> producer = i.client() == null ? null : i.client().producer();
        if (producer != null) {
            for (int c = 0; c < clientKeys.size(); c++) {
                Double v = producer.get(clientKeys.get(c));
                if (v != null) {
                    clientSum[c] += v;
                    clientN[c]++;
                }
            }
        }
        warmup |= i.warmup();
        saturated |= i.saturated();
        brokerDown |= i.faults() != null && !i.faults().isEmpty();
        if (i.brokers() != null && !i.brokers().isEmpty()) {
            boolean any = false;
            for (ResultFile.BrokerFigures b : i.brokers()) {
                if (b.figures() == null || b.figures().isEmpty()) {
                    continue;
                }
                any = true;
                for (int k = 0; k < BROKER_RATES.size(); k++) {
                    brokerRates[k] += b.figures().getOrDefault(BROKER_RATES.get(k), 0.0);
                }
                for (int k = 0; k < BROKER_IDLE.size(); k++) {
                    brokerIdle[k] = worst(brokerIdle[k], b.figures().get(BROKER_IDLE.get(k)), false);
                }
                for (int k = 0; k < BROKER_TIMES.size(); k++) {
                    brokerTimes[k] = worst(brokerTimes[k], b.figures().get(BROKER_TIMES.get(k)), true);
                }
            }
            brokerN += any ? 1 : 0;
        }
        ResultFile.Hosts h = i.hosts();
        if (h != null) {
            hostN++;
            cpuMeanSum += h.cpuMean();
            cpuMax = Math.max(cpuMax, h.cpuMax());
            gcMicrosMax = Math.max(gcMicrosMax, h.gcMicrosMax());
            if (h.heapAfterGcMax() != null) {
                heapMax = Math.max(heapMax, h.heapAfterGcMax());
            }
            if (h.stallMicrosMax() != null) {
                stallMicrosMax = Math.max(stallMicrosMax, h.stallMicrosMax());
            }
            if (h.hostBusyMax() != null) {
                hostBusyMax = Math.max(hostBusyMax, h.hostBusyMax());
            }
            if (h.hostStealMax() != null) {
                hostStealMax = Math.max(hostStealMax, h.hostStealMax());
            }
            if (h.jitShareMax() != null) {
                jitShareMax = Math.max(jitShareMax, h.jitShareMax());
            }
        }
    }

    ChartPoint copy() {
        ChartPoint c = new ChartPoint(clientSum.length);
        c.merge(this);
        c.startMillis = startMillis;
        return c;
    }

    /** Takes in the next bucket {@code b}. */
    void merge(ChartPoint b) {
        n += b.n;
        endMillis = b.endMillis;
        publishSum += b.publishSum;
        consumeSum += b.consumeSum;
        shareN += b.shareN;
        shareDeliverSum += b.shareDeliverSum;
        shareAcceptSum += b.shareAcceptSum;
        lag = Math.max(lag, b.lag);
        unread = Math.max(unread, b.unread);
        shareBacklog = Math.max(shareBacklog, b.shareBacklog);
        for (int k = 0; k < latency.length; k++) {
            latency[k] = Math.max(latency[k], b.latency[k]);
        }
        for (int c = 0; c < clientSum.length; c++) {
            clientSum[c] += b.clientSum[c];
            clientN[c] += b.clientN[c];
        }
        warmup |= b.warmup;
        saturated |= b.saturated;
        brokerDown |= b.brokerDown;
        unserved |= b.unserved;
        leftWaiting |= b.leftWaiting;
        brokerN += b.brokerN;
        for (int k = 0; k < brokerRates.length; k++) {
            brokerRates[k] += b.brokerRates[k];
        }
        for (int k = 0; k < brokerIdle.length; k++) {
            brokerIdle[k] = worst(brokerIdle[k], Double.isNaN(b.brokerIdle[k]) ? null : b.brokerIdle[k], false);
        }
        for (int k = 0; k < brokerTimes.length; k++) {
            brokerTimes[k] = worst(brokerTimes[k], Double.isNaN(b.brokerTimes[k]) ? null : b.brokerTimes[k], true);
        }
        hostN += b.hostN;
        cpuMeanSum += b.cpuMeanSum;
        cpuMax = Math.max(cpuMax, b.cpuMax);
        gcMicrosMax = Math.max(gcMicrosMax, b.gcMicrosMax);
        heapMax = Math.max(heapMax, b.heapMax);
        stallMicrosMax = Math.max(stallMicrosMax, b.stallMicrosMax);
        hostBusyMax = Math.max(hostBusyMax, b.hostBusyMax);
        hostStealMax = Math.max(hostStealMax, b.hostStealMax);
        jitShareMax = Math.max(jitShareMax, b.jitShareMax);
    }

    /** The worse of {@code current} (NaN: none yet) and {@code v} (null: none): the higher, or the lower. */
    private static double worst(double current, Double v, boolean higher) {
        if (v == null) {
            return current;
        }
        return Double.isNaN(current) ? v : higher ? Math.max(current, v) : Math.min(current, v);
    }

    private static LatencyStats stats(ResultFile.Interval i, Metric m) {
        return switch (m) {
            case PUBLISH_LATENCY -> i.publish().latencyMicros();
            case PUBLISH_RESPONSE -> i.publish().responseMicros();
            case PUBLISH_DELAY -> i.publish().delayMicros();
            case END_TO_END -> i.consume().endToEndLatencyMicros();
            case TRANSACTION_COMMIT -> i.publish().transactionCommitMicros(); // schema 16; null before
            case SHARE_DELIVERY -> i.share() == null ? null : i.share().deliveryLatencyMicros();
            case SHARE_ACCEPT -> i.share() == null ? null : i.share().acceptLatencyMicros();
            case SHARE_COMMIT -> i.share() == null ? null : i.share().commitLatencyMicros();
        };
    }
}
