package io.kbench.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Supplier;

import io.kbench.driver.ConsumerHandle;
import io.kbench.driver.Driver;
import io.kbench.driver.NanoClock;
import io.kbench.driver.ProducerHandle;
import io.kbench.driver.ProducerOptions;
import io.kbench.protocol.ClientMetricsDump;
import io.kbench.protocol.ConsumerTotal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of one run on this worker — its producers and consumers, each with its loop and figures — built
 * from the {@link RunSpec}, and the {@link Runner}s that run them. Consumers start polling (joining their groups)
 * as they are built; producers start with {@link #startProducers}.
 *
 * <p>Threads: built, started and stopped from the run's control threads ({@link LoadRun} serializes them); the
 * figures are read by the snapshot thread.
 */
final class RunClients {
    private static final Logger LOG = LoggerFactory.getLogger(RunClients.class);
    private static final Duration GROUP_TIMEOUT = Duration.ofSeconds(60);
    /** Producer-partition streams one consumer verifies at most (about 6 MB). */
    private static final int MAX_STREAMS = 65_536;
    /** How long stopping waits for the load threads, in all. */
    static final long JOIN_MILLIS = 15_000;

    private final RunSpec spec;
    private final ErrorSlot fatal;
    final List<ProducerLoop> producerLoops = new ArrayList<>();
    final List<ProducerHandle> producerHandles = new ArrayList<>();
    final List<ProducerMetrics> producerMetrics = new ArrayList<>();
    final List<ConsumerLoop> consumerLoops = new ArrayList<>();
    final List<ConsumerMetrics> consumerMetrics = new ArrayList<>();
    /** The share consumers' own figures (their loops are among {@link #consumerLoops}). */
    final List<ShareConsumerMetrics> shareConsumers = new ArrayList<>();
    /** The round trips sampled since the last call (a round-trip run); empty otherwise. */
    List<io.kbench.protocol.RoundTripSample> takeRoundTrips() {
        return roundTrip == null ? List.of() : roundTrip.takeSamples();
    }

    /** Each consumer's records and bytes so far, for the last snapshot; one per consumer, in the spec's order. */
    private final List<Supplier<ConsumerTotal>> consumerTotals = new ArrayList<>();
    private final List<Runner> producerRunners = new ArrayList<>();
    private final List<Runner> consumerRunners = new ArrayList<>();
    /** The closed loop of a round-trip run ({@link RunSpec#roundTrip()}); null otherwise. */
    private final RoundTrip roundTrip;

    /**
     * Builds every client of {@code spec}; consumers start polling at once. A failure closes what was built.
     *
     * @param sendErrors where the producers' send errors go (one per interval travels in the snapshot)
     * @param fatal      where a load thread's failure goes (it ends the run)
     */
    RunClients(RunSpec spec, Driver driver, RunClock clock, ErrorSlot sendErrors, ErrorSlot fatal) {
        this.spec = spec;
        this.fatal = fatal;
        RunSpec.Values values = spec.values();
        Payloads payloads = payloads(spec);
        this.roundTrip = spec.roundTrip() ? new RoundTrip(clock.nanoClock(), fatal) : null;
        // one key table for all of this worker's producers; each producer reads it from its own offset
        Keys workerKeys = keys(spec);
        List<io.kbench.driver.MessageHeader> headers = values.headers().generate(spec.runId().hashCode() * 17L);
        try {
            configureShareGroups(driver, spec);
            for (RunSpec.Consumer c : spec.consumers()) {
                buildConsumer(c, driver, clock);
            }
            for (RunSpec.Producer p : spec.producers()) {
                ProducerMetrics metrics = new ProducerMetrics(clock.nanoClock(), sendErrors, p.ratePerSecond() >= 0);
                ProducerHandle handle = driver.createProducer(new ProducerOptions(p.topic(), clientId("p", p.index()),
                        spec.transactional() ? "kbench-" + spec.runId() + "-p" + p.index() : null,
                        spec.verification() ? SequenceTracker.producerId(spec.runNonce(), p.index())
                                : ProducerOptions.NO_VERIFICATION, spec.stampMessages(), headers), metrics);
                producerHandles.add(handle);
                Keys keys = workerKeys.forProducer(spec.runId().hashCode() * 31L + p.index());
                producerLoops.add(new ProducerLoop("producer " + p.index(), handle, metrics, clock,
                        p.ratePerSecond(), p.recordLimit(), values.monotonicProducers() > 0
                                ? Payloads.monotonic(p.index(), values.monotonicProducers()) : payloads,
                        keys, spec.transactions().records(), spec.transactions().millis(), fatal));
                if (roundTrip != null) {
                    producerLoops.get(producerLoops.size() - 1).closedLoop(roundTrip);
                }
                producerMetrics.add(metrics);
            }
        } catch (RuntimeException e) {
            closeNow();
            throw e;
        }
    }

    /**
     * The values this worker's producers send, shared by them; null when each producer makes its own (monotonic) or
     * the worker has no producer: a consumer-only worker sends nothing, and generated values can be up to 64 MB of
     * random bytes for large messages, made at prepare and held for the run.
     */
    static Payloads payloads(RunSpec spec) {
        RunSpec.Values values = spec.values();
        if (values.monotonicProducers() > 0 || spec.producers().isEmpty()) {
            return null;
        }
        // producers that compress get enough distinct values that a batch does not repeat one (the codec would find it)
        String codec = spec.driverConfig().producer().getOrDefault("compression.type",
                spec.driverConfig().common().getOrDefault("compression.type", "none")).trim();
        long distinct = codec.isEmpty() || codec.equalsIgnoreCase("none") ? 0 : Payloads.COMPRESSED_DISTINCT_BYTES;
        return values.payloads().isEmpty()
                ? Payloads.generate(values.messageSize(), values.randomBytesRatio(), spec.runId().hashCode(), distinct)
                : Payloads.of(values.payloads());
    }

    /** The key table of this worker's producers; none for a worker without producers. */
    static Keys keys(RunSpec spec) {
        if (spec.producers().isEmpty()) {
            return Keys.NONE;
        }
        return spec.keys().distribution() == Keys.Distribution.NONE && spec.keys().size() > 0
                ? Keys.sized(spec.keys().size(), spec.runId().hashCode())
                : Keys.of(spec.keys().distribution(), spec.keys().count(), spec.keys().zipfExponent(), spec.runId().hashCode());
    }

    private void buildConsumer(RunSpec.Consumer c, Driver driver, RunClock clock) {
        // share consumers are not verified here but at the coordinator (their records spread over consumers and
        // workers): they send what they were delivered (ShareDeliveryLog)
        ConsumerMetrics metrics = c.share() ? ConsumerMetrics.ofShareConsumer(clock) // its figures: its own below
                : new ConsumerMetrics(clock, spec.verification() ? new SequenceTracker(spec.runNonce(), MAX_STREAMS) : null,
                        spec.processing(c.index()));
        long created = clock.nanoClock().nanoTime();
        ConsumerHandle handle;
        if (c.share()) {
            RunSpec.Share s = spec.share();
            ShareConsumerMetrics shareMetrics = new ShareConsumerMetrics(clock, spec.processing(c.index()),
                    s.releasePpm(), s.rejectPpm(), spec.runNonce() * 31L + c.index());
            if (spec.verification()) {
                // checked at the coordinator, where every worker's deliveries of the group meet
                shareMetrics.verifyInto(new ShareDeliveryLog(c.group(), spec.runNonce()));
            }
            String id = clientId("s", c.index());
            handle = new ShareConsumerAdapter(driver.createShareConsumer(c.topic(), c.group(), id,
                    s.explicit(), s.commitSync()), shareMetrics);
            if (spec.consumerStart().fromBeginning()) {
                handle.hold(ConsumerHandle.Start.BEGINNING); // reads what is there: from the start on
            }
            shareConsumers.add(shareMetrics);
            consumerTotals.add(() -> new ConsumerTotal(c.index(), true,
                    shareMetrics.delivered.get(), shareMetrics.deliveredBytes.get(), id));
        } else {
            String id = clientId("c", c.index());
            handle = driver.createConsumer(c.topic(), c.group(), id);
            consumerTotals.add(() -> new ConsumerTotal(c.index(), false,
                    metrics.received.get(), metrics.receivedBytes.get(), id));
            handle.hold(spec.consumerStart().fromCommitted() ? ConsumerHandle.Start.COMMITTED
                    : spec.consumerStart().fromBeginning() ? ConsumerHandle.Start.BEGINNING : ConsumerHandle.Start.END);
        }
        if (roundTrip != null) {
            metrics.closedLoop(roundTrip);
        }
        ConsumerLoop loop = new ConsumerLoop("consumer " + c.index(), handle, metrics, fatal, created, clock.nanoClock());
        if (spec.dumpClientMetrics()) {
            loop.dumpMetricsOnClose();
        }
        consumerLoops.add(loop);
        consumerMetrics.add(metrics);
        // polling (joining the group) starts now, while the other clients are still being built: the group's
        // join then overlaps the producers' construction instead of following it
        consumerRunners.add(Runner.start("kbench-consumer-" + c.index(), loop, fatal::offer));
    }

    /**
     * With share consumers here: checks that the cluster has share groups, and sets the groups' configs, before any
     * of the consumers is built.
     */
    private static void configureShareGroups(Driver driver, RunSpec spec) {
        List<String> groups = spec.consumers().stream().filter(RunSpec.Consumer::share).map(RunSpec.Consumer::group)
                .distinct().toList();
        if (groups.isEmpty()) {
            return;
        }
        driver.checkShareGroups(GROUP_TIMEOUT);
        if (!spec.share().groupConfigs().isEmpty()) {
            driver.configureShareGroups(groups, spec.share().groupConfigs(), GROUP_TIMEOUT);
        }
        String reset = spec.share().groupConfigs().get("share.auto.offset.reset");
        if (reset != null) {
            // started now, the groups get their partitions on their consumers' first heartbeat, not one heartbeat
            // interval (5 s by default) after it: the wait of a group's first use stays out of the measurement
            Map<String, String> groupTopics = new java.util.LinkedHashMap<>();
            spec.consumers().stream().filter(RunSpec.Consumer::share).forEach(c -> groupTopics.putIfAbsent(c.group(), c.topic()));
            List<String> started = driver.startShareGroups(groupTopics, reset, GROUP_TIMEOUT);
            if (!started.isEmpty()) {
                LOG.info("run {}: share groups started at the {} offsets: {}", spec.runId(), reset, started);
            }
        }
    }

    private String clientId(String kind, int index) {
        return clientIdPrefix(spec.runId()) + kind + index;
    }

    /** What every client id of run {@code runId} starts with. */
    static String clientIdPrefix(String runId) {
        return "kbench-" + runId + "-";
    }

    /** Every consumer's readiness, in the spec's order. */
    List<PrepareStatus.Consumer> consumerStatus() {
        List<PrepareStatus.Consumer> cs = new ArrayList<>();
        for (int i = 0; i < consumerLoops.size(); i++) {
            ConsumerHandle h = consumerLoops.get(i).handle();
            RunSpec.Consumer c = spec.consumers().get(i);
            cs.add(new PrepareStatus.Consumer(c.index(), c.group(), h.assignedPartitions(), h.joined(),
                    consumerLoops.get(i).metrics().joinMicros));
        }
        return cs;
    }

    /**
     * Starts the producers' threads; each waits for {@code startNanos}, sends until {@code endNanos}, and counts
     * from {@code measureNanos} on (the end of the warm-up).
     */
    void startProducers(long startNanos, long measureNanos, long endNanos) {
        for (int i = 0; i < producerLoops.size(); i++) {
            producerLoops.get(i).window(startNanos, measureNanos, endNanos);
        }
        for (int i = 0; i < producerLoops.size(); i++) {
            producerRunners.add(Runner.start("kbench-producer-" + spec.producers().get(i).index(),
                    producerLoops.get(i), fatal::offer));
        }
    }

    /** Releases the held consumers at {@code nanoTime} (the run's start, or now). */
    void releaseConsumers(long nanoTime) {
        consumerLoops.forEach(c -> c.releaseAt(nanoTime));
    }

    /**
     * Consumers that read what is produced now count end-to-end latency from {@code measureStartCoordinatorMicros}
     * on: the window's figure is its own messages'.
     */
    void measureConsumersFrom(long measureStartCoordinatorMicros) {
        consumerLoops.forEach(c -> c.metrics().measureFrom(measureStartCoordinatorMicros));
        shareConsumers.forEach(c -> c.measureFrom(measureStartCoordinatorMicros));
    }

    boolean producersDone() {
        for (ProducerLoop p : producerLoops) {
            if (!p.done()) {
                return false;
            }
        }
        return true;
    }

    /** {@link NanoClock} time at which the last producer finished; {@link Long#MIN_VALUE} while any runs or none. */
    long producersDoneNanos() {
        long last = Long.MIN_VALUE;
        for (ProducerLoop p : producerLoops) {
            if (!p.done()) {
                return Long.MIN_VALUE;
            }
            last = Math.max(last, p.doneNanos());
        }
        return last;
    }

    /**
     * Stops the producers and waits for their threads. {@code atOnce}: their clients are closed first and their
     * threads interrupted (one blocked in send() on a full buffer ends), what they had not sent is dropped.
     */
    void stopProducers(boolean atOnce) {
        producerRunners.forEach(Runner::stop);
        if (atOnce) {
            closeProducersNow();
            producerRunners.forEach(Runner::interrupt);
        }
        Runner.joinAll(producerRunners, JOIN_MILLIS);
    }

    /**
     * After {@link #stopProducers}: flushes each producer, reads its metrics when the spec asks for them (as the
     * Kafka tool does: after every send completed, before close), and closes it.
     *
     * @return the metrics read, in the spec's order
     */
    List<ClientMetricsDump> flushAndCloseProducers() {
        List<ClientMetricsDump> dumps = new ArrayList<>();
        for (int i = 0; i < producerHandles.size(); i++) {
            ProducerHandle h = producerHandles.get(i);
            if (spec.dumpClientMetrics()) {
                // a client that cannot flush (interrupted, closed) prints nothing but is still closed below
                try {
                    h.flush();
                    dumps.add(new ClientMetricsDump("producer", spec.producers().get(i).index(), h.metricsDump()));
                } catch (RuntimeException e) {
                    LOG.warn("run {}: no metrics of producer {}: {}", spec.runId(), spec.producers().get(i).index(),
                            e.toString());
                }
            }
            closeQuietly(() -> h.close(Duration.ofSeconds(5)));
        }
        return dumps;
    }

    /** Stops the consumers (each closes its client on its thread) and waits for their threads. */
    void stopConsumers() {
        signalConsumers();
        awaitConsumers();
    }

    /** Tells every consumer loop to end: each stops polling at once, then closes its consumer on its own thread. */
    void signalConsumers() {
        consumerRunners.forEach(Runner::stop);
    }

    /** Waits for the consumer loops told to end ({@link #signalConsumers}), their consumers closed. */
    void awaitConsumers() {
        Runner.joinAll(consumerRunners, JOIN_MILLIS);
    }

    /** The metrics each stopped consumer read before closing, when the spec asks for them; in the spec's order. */
    List<ClientMetricsDump> consumerDumps() {
        List<ClientMetricsDump> dumps = new ArrayList<>();
        for (int i = 0; i < consumerLoops.size(); i++) {
            SortedMap<String, String> d = consumerLoops.get(i).metricsDump();
            if (d != null) {
                dumps.add(new ClientMetricsDump("consumer", spec.consumers().get(i).index(), d));
            }
        }
        return dumps;
    }

    /** Each consumer's records and bytes so far, in the spec's order; empty without consumers. */
    /**
     * What this worker's producers had acknowledged so far per topic and partition (for the last snapshot): one entry
     * per topic they produced to, their counts added up; none without producers.
     */
    List<io.kbench.protocol.PartitionAcks> partitionAcks() {
        java.util.Map<String, long[]> byTopic = new java.util.TreeMap<>();
        for (int i = 0; i < producerMetrics.size(); i++) {
            long[] counts = producerMetrics.get(i).partitions.get();
            byTopic.merge(spec.producers().get(i).topic(), counts, (a, b) -> {
                long[] sum = java.util.Arrays.copyOf(a, Math.max(a.length, b.length));
                for (int p = 0; p < b.length; p++) {
                    sum[p] += b[p];
                }
                return sum;
            });
        }
        return byTopic.entrySet().stream().map(e -> new io.kbench.protocol.PartitionAcks(e.getKey(), e.getValue()))
                .toList();
    }

    List<ConsumerTotal> consumerTotals() {
        return consumerTotals.stream().map(Supplier::get).toList();
    }

    /** A failed build: started consumer loops close their own consumers on their threads; producers here. */
    private void closeNow() {
        consumerRunners.forEach(Runner::stop);
        closeProducersNow();
        Runner.joinAll(consumerRunners, JOIN_MILLIS);
    }

    private void closeProducersNow() {
        for (ProducerHandle h : producerHandles) {
            closeQuietly(() -> h.close(Duration.ZERO));
        }
    }

    static void closeQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("while closing: {}", ErrorSlot.describe(e));
        }
    }
}
