package io.kbench.coordinator.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The settings to turn next for each limit {@link Diagnosis} names, with the run's own values where they matter;
 * the reasoning behind each is in docs/diagnosis.md ("What to turn, and why"). Pure.
 */
final class Suggestions {
    static final List<String> HANDLERS = List.of(
            "num.io.threads (broker; default 8): more request handlers, if the brokers have cores to spare",
            "fewer, larger requests: linger.ms and batch.size on the producers, fetch.min.bytes on the consumers",
            "more brokers, with the topics' partitions spread over them");
    static final List<String> NETWORK = List.of(
            "num.network.threads (broker; default 3)",
            "fewer, larger requests: linger.ms and batch.size on the producers, fetch.min.bytes and "
                    + "fetch.max.wait.ms on the consumers",
            "TLS is paid on the network threads: compare with a PLAINTEXT listener to see its share");
    static final List<String> REPLICATION = List.of(
            "num.replica.fetchers (broker; default 1): more fetcher threads per source broker",
            "replica.fetch.max.bytes and replica.fetch.response.max.bytes (broker): more per follower fetch",
            "replica.fetch.min.bytes and replica.fetch.wait.max.ms (broker; defaults 1 B and 500 ms): a follower "
                    + "fetch waits up to the wait for the minimum, so a remote time near the wait means followers "
                    + "waiting for data, not working",
            "the followers' disks and network: a slow follower holds every acks=all produce",
            "acks=1 (producer) trades durability for this wait: measure both");
    static final List<String> SEND_ERRORS = List.of(
            "the errors of each interval (intervals[].errors, the console's error lines) name the cause: a broker down "
                    + "or restarting, NotEnoughReplicas (fewer in-sync replicas than min.insync.replicas), a quota, a "
                    + "record larger than message.max.bytes",
            "request.timeout.ms and delivery.timeout.ms (producer): how long a record waits for a broker that does not "
                    + "answer before it fails; max.block.ms: how long send() blocks for metadata",
            "the other figures of a window with failures describe a cluster that was not serving: measure again once "
                    + "it is");
    static final List<String> UNAVAILABLE = List.of(
            "check the brokers and the way to them from the worker hosts: the intervals with sends blocked (their "
                    + "producers' kbench-send-blocked-ratio), nothing acknowledged, or a send left waiting "
                    + "(kbench-unacked-age-max) date the outage; a broker's log says why it stopped serving, "
                    + "kafka-topics --describe --unavailable-partitions / --under-min-isr-partitions which partitions "
                    + "had no leader or too few in-sync replicas",
            "for a broker-failure test: replication factor 3 with min.insync.replicas 2 and acks=all keep every "
                    + "partition led and writable while one broker is down; with replication factor 1 a stopped broker's partitions "
                    + "have no leader until it is back",
            "max.block.ms (producer, 60 s by default): how long each send waits for metadata before it fails; "
                    + "delivery.timeout.ms: how long a sent record waits to be acknowledged",
            "the window's latencies and rate include the outage: measure the cluster's capacity again once it serves");
    /** A closed loop's one suggestion: it measures latency, so its rate is no answer to "how much". */
    static final String ROUND_TRIP = "this measures one message's latency, not capacity: for how much the cluster "
            + "takes, run an open-loop workload (producerRate, or kbench run --find-max-rate); for the latency under load, "
            + "run kbench e2e-latency on a topic of its own while that run loads the cluster";
    static final List<String> DISK = List.of(
            "faster disks, or more brokers and partitions to spread the appends over",
            "leave flushing to the OS: log.flush.interval.messages and log.flush.interval.ms unset (Kafka's default)",
            "compression.type on the producers: fewer bytes written");

    /**
     * gzip against the other codecs, measured (docs/diagnosis.md): the embedded default at 50,000 msg/s of 1 KB (half
     * random bytes), one producer and one consumer, a sweep of compression.type after a 20-s priming run.
     */
    static final String COMPRESSION_CPU = ", and gzip costs the most CPU per byte of Kafka's codecs: lz4 or zstd "
            + "(measured on the embedded default at 50,000 msg/s of 1 KB, each in one sweep: the worker's process "
            + "used 92% of its cores with gzip, and fell behind; 48% with lz4, 64% with zstd, 60% uncompressed)";

    private Suggestions() { }

    static List<String> consumers(WindowFigures.Consumers c) {
        return consumers(c, Double.NaN);
    }

    /**
     * For consumers whose lag grew; {@code produced}: the msg/s produced when the consumers' work per message explains
     * it (their {@link WindowFigures.Consumers#processingCapacity} below it), else NaN. Then more per poll would not
     * help — each consumer still takes its time on every message — and the consumers needed are counted.
     */
    static List<String> consumers(WindowFigures.Consumers c, double produced) {
        if (!Double.isNaN(produced)) {
            long needed = (long) Math.ceil(produced * c.processingMicros() / 1e6);
            List<String> s = new ArrayList<>();
            if (c.share()) {
                s.add(String.format(Locale.ROOT, "more consumers in the share group: at %.2f ms a message each takes "
                        + "%,.0f msg/s, so %,.0f msg/s needs at least %d (now %d)", c.processingMicros() / 1e3,
                        1e6 / c.processingMicros(), produced, needed, c.count()));
            } else {
                s.add(String.format(Locale.ROOT, "more partitions and a consumer for each: at %.2f ms a message a consumer "
                        + "takes %,.0f msg/s, so %,.0f msg/s needs at least %d reading (now %d consumer(s) for %d "
                        + "partition(s))", c.processingMicros() / 1e3, 1e6 / c.processingMicros(), produced, needed,
                        c.count(), c.partitions()));
                s.add("a share group (shareGroupsPerTopic, consumersPerShareGroup): its consumers share the partitions, "
                        + "so they may outnumber them");
            }
            s.add("less work per message in the consumers (here consumerProcessingMillis), or work on several messages at "
                    + "once; more per poll (max.poll.records) would not help: each message still takes its time");
            return s;
        }
        if (c.share()) {
            return List.of(String.format(Locale.ROOT, "more consumers in the share group: Kafka's simple assignor gives "
                            + "each one partition, by its member id's hash, and spreads the rest (now %d consumer(s) for "
                            + "%d partition(s))", c.count(), c.partitions()),
                    "max.poll.records and fetch.max.bytes: more per poll",
                    "the consumers' own work per record, and their hosts' CPU");
        }
        if (c.count() >= c.partitions()) {
            return List.of(String.format(Locale.ROOT, "more partitions: every partition already has a consumer (%d "
                            + "consumer(s) for %d partition(s)), and a classic group uses at most one per partition",
                            c.count(), c.partitions()),
                    "max.poll.records, fetch.max.bytes and max.partition.fetch.bytes: more per poll",
                    "the consumers' own work per record, and their hosts' CPU",
                    "for consumers slowed by their work per record: a share group (shareGroupsPerTopic, "
                            + "consumersPerShareGroup), whose consumers may outnumber the partitions");
        }
        return List.of(String.format(Locale.ROOT, "more consumers per subscription, up to one per partition (now %d "
                        + "consumer(s) for %d partition(s))", c.count(), c.partitions()),
                "more partitions, when every partition already has its consumer",
                "max.poll.records, fetch.max.bytes and max.partition.fetch.bytes: more per poll",
                "the consumers' own work per record, and their hosts' CPU",
                "for consumers slowed by their work per record: a share group (shareGroupsPerTopic, "
                        + "consumersPerShareGroup), whose consumers may outnumber the partitions");
    }

    /**
     * For consumers whose lag grew while one partition took {@link WindowFigures.Spread#hot} a share of the messages;
     * {@code bound}: that partition's rate was more than the consumers on it take (their work per message), so it alone
     * explains the lag, and more partitions would not help.
     */
    static List<String> hotPartition(WindowFigures.Consumers c, WindowFigures.Spread spread, boolean bound,
                                     double produced) {
        String spreadThem = String.format(Locale.ROOT, "spread the messages over the partitions: partition %d of %s took "
                + "%.1f%% of them (%s); every message of a key goes to the partition of its hash, so more partitions do "
                + "not split a hot key's messages — more keys, or a key that spreads them, do",
                spread.partition(), spread.topic(), 100 * spread.share(), spread.keys());
        String needed = "";
        if (bound) {
            long perPartition = (long) Math.ceil(spread.rate() * c.processingMicros() / 1e6);
            needed = String.format(Locale.ROOT, ": at %.2f ms a message the busiest partition needs %d consumers on it "
                    + "(%,.0f msg/s), so about %,d for %d partitions", c.processingMicros() / 1e3, perPartition,
                    spread.rate(), perPartition * c.partitions(), c.partitions());
        }
        String shareGroup = String.format(Locale.ROOT, "%s: Kafka's simple assignor gives each consumer one partition, "
                + "by its member id's hash, so about consumers ÷ partitions of them share one — the busiest too, by the "
                + "hash's luck (now %d consumer(s) for %d partition(s))%s", c.share()
                        ? "more consumers in the share group, several per partition"
                        : "a share group with several consumers per partition (shareGroupsPerTopic, consumersPerShareGroup)",
                c.count(), c.partitions(), needed + (c.share() ? "" : "; a key's messages are then no longer read in order"));
        if (bound) {
            return List.of(spreadThem, shareGroup, String.format(Locale.ROOT, "less work per message in the consumers "
                    + "(here consumerProcessingMillis): the consumers on the busiest partition take at most %,.0f msg/s "
                    + "of the %,.0f it got", c.onePartitionsConsumers() * 1e6 / c.processingMicros(), spread.rate()));
        }
        List<String> s = new ArrayList<>(consumers(c, produced));
        s.add(1, spreadThem);
        return s;
    }

    /**
     * For the generator; {@code cpuBound}: the busiest worker's cores were busy (more threads would not help); most
     * saturated intervals with a load thread late from its park: its host or a pause, not its threads' work, held it up;
     * producers compressing on cores that were the limit: the codec's own CPU first ({@link #COMPRESSION_CPU}).
     */
    static List<String> generator(WindowFigures.Hosts h, WindowFigures.Load l, boolean cpuBound,
                                  WindowFigures.Settings producers) {
        List<String> s = new ArrayList<>();
        String codec = producers.compressionType();
        if (cpuBound && !codec.equals("none") && !codec.isEmpty()) {
            s.add(String.format(Locale.ROOT, "compression.type (now %s): the producers compress on the worker's "
                    + "cores%s", codec, codec.equals("gzip") ? COMPRESSION_CPU : "; lz4 costs the least CPU per byte "
                    + "of Kafka's codecs, gzip the most"));
        }
        if (!h.sharedWith().isEmpty()) {
            s.add("run `kbench worker` on hosts of their own: these workers share their process with the " + h.sharedWith());
        }
        // late wake-ups in half or more of the saturated intervals: the threads waited for a core, so more of them
        // would not help, whatever the window's mean CPU says
        boolean stalled = l.saturated() > 0 && 2 * l.saturatedStalled() >= l.saturated();
        if (stalled) {
            s.add(String.format(Locale.ROOT, "cores the workers do not share: in %d of the %d saturated intervals a "
                    + "load thread woke from a park late (up to %.0f ms): a collection paused the worker or its host gave "
                    + "the thread no core in time (a broker or other busy processes on the same cores, a VM's CPU "
                    + "steal)%s; more producers on the same host would not help", l.saturatedStalled(), l.saturated(),
                    h.stallMaxMicros() / 1e3, Diagnosis.hostDuringStalls(h)));
        }
        if (h.jitShareOfCpu() >= Diagnosis.JIT_SHARE) {
            s.add(warmUp(h));
        }
        s.add("more workers (client hosts), or more cores per worker: the producers' share per worker falls");
        if (!cpuBound && !stalled) {
            s.add("more producers " + Diagnosis.PRODUCERS_KEY + "): each producer is one load thread, and the cores have room");
        }
        if (h.gcMaxMicros() >= 20_000) {
            s.add(String.format(Locale.ROOT, "the workers' heap (KBENCH_JAVA_OPTS=-Xmx...): collections paused them for "
                    + "up to %.0f ms", h.gcMaxMicros() / 1e3));
        }
        return s;
    }

    /**
     * A longer warm-up, when the busiest worker's JIT compilers took {@link Diagnosis#JIT_SHARE} of its CPU or more in
     * the window: a fresh JVM compiles its hot code over its first minute or so, on the same cores.
     */
    static String warmUp(WindowFigures.Hosts h) {
        return String.format(Locale.ROOT, Diagnosis.WARM_UP_OR_WORKERS + " that stay up between runs "
                + "(`kbench worker`, `--workers`): the busiest worker's JIT compilers took %.0f%% of its CPU in the "
                + "measured window; a fresh JVM compiles its hot code over its first minute or so, on the same cores%s",
                100 * h.jitShareOfCpu(), h.sharedWith().contains("embedded broker")
                        ? " (here the embedded broker's too: it serves each request slower until it is compiled)" : "");
    }

    /** For transactional producers paced by their commits: fewer commits per producer, or cheaper ones. */
    static List<String> transactions(WindowFigures.Commits c) {
        String now = c.transactionRecords() > 0 && c.transactionMillis() > 0
                ? String.format(Locale.ROOT, "now %,d messages or %,d ms", c.transactionRecords(), c.transactionMillis())
                : c.transactionRecords() > 0 ? String.format(Locale.ROOT, "now %,d", c.transactionRecords())
                : String.format(Locale.ROOT, "now %,d ms", c.transactionMillis());
        return List.of(
                String.format(Locale.ROOT, "more messages per transaction (%s, %s): a commit costs about the same "
                        + "whatever its size, so fewer commits block each producer less",
                        c.transactionRecords() > 0 ? "transactionRecords" : Diagnosis.TRANSACTION_MILLIS_KEY, now),
                String.format(Locale.ROOT, "more producers " + Diagnosis.PRODUCERS_KEY + "; now %d in all): each commits only its own "
                        + "transactions, so at the same rate each commits less often — but the cluster serves as many "
                        + "commits a second as before, and more at once may each take longer: check txn commit after",
                        c.producers()),
                "the commit's own time is the cluster's: it writes a marker to every partition the transaction touched "
                        + "and to __transaction_state (transaction.state.log.replication.factor, "
                        + "transaction.state.log.min.isr on the brokers), so fewer partitions per transaction or faster "
                        + "replication make it shorter");
    }

    /**
     * For producers held back by their own settings. Which cap bound them decides the order: records that waited in
     * the producer beyond {@code linger.ms} and a request's latency ({@link Diagnosis#queuedBeyond}) waited for a
     * request to carry them — the requests in flight were the cap, and {@code buffer.memory} only held the queue, so
     * more of it would lengthen the wait, not raise the rate; records that did not, while the producers waited for
     * buffer room, were held at the buffer: its bytes over the request latency was the cap. When the broker's time
     * per produce request, times the requests in flight per connection, makes up the producers' request latency
     * ({@link Diagnosis#BROKER_SHARE}), the broker served each connection's requests one after another: more in flight
     * would wait there too, and more bytes per request or more connections are what carry more.
     */
    static List<String> producers(WindowFigures.Producers p, WindowFigures.Brokers b, WindowFigures.Spread spread) {
        WindowFigures.Settings s = p.settings();
        List<String> out = new ArrayList<>();
        boolean waited = p.waitRatio() >= Diagnosis.WAIT_RATIO;
        double beyond = Diagnosis.queuedBeyond(p);
        boolean queued = beyond > 0;
        double perConnection = p.inFlightPerConnection();
        boolean serial = b != null && !Double.isNaN(b.produceTotalMs()) && !Double.isNaN(p.requestLatencyMs())
                && b.produceTotalMs() * perConnection >= Diagnosis.BROKER_SHARE * p.requestLatencyMs();
        if (waited && !queued) {
            out.add(String.format(Locale.ROOT, "buffer.memory (now %s; kbench holds a producer at half of it): the "
                    + "bytes in flight are capped there, so throughput is at most that over the request latency",
                    bytes(s.bufferMemory())));
        }
        String perRequest = queued ? String.format(Locale.ROOT, ": a request carries at most one batch per partition, "
                + "and records waited %.1f ms for a request to carry them", p.queueTimeMs()) : "";
        if (!Double.isNaN(p.batchBytes()) && p.batchBytes() >= 0.9 * s.batchSize()) {
            out.add(String.format(Locale.ROOT, "batch.size (now %s; batches averaged %s: full): larger batches carry "
                    + "more per request%s", bytes(s.batchSize()), bytes(Math.round(p.batchBytes())), perRequest));
        } else if (queued && !Double.isNaN(p.batchBytes())) {
            // the records waited for a request far beyond linger.ms: linger.ms did not hold them, so a longer one does
            // not fill a batch; the producers waited for buffer room, which makes every part-filled batch ready at once
            // (Kafka's RecordAccumulator), so requests carry them as they are. A hot partition's batches fill first.
            String hot = spread != null && spread.hot() ? String.format(Locale.ROOT, "partition %d of %s took %.1f%% of "
                    + "the acknowledged messages, so its batches are the first to fill while the others' go out "
                    + "part-empty with them (", spread.partition(), spread.topic(), 100 * spread.share()) : "";
            out.add(String.format(Locale.ROOT, "batch.size (now %s): %sbatches averaged %s%s%s; a larger batch.size lets a "
                    + "request carry more — not a longer linger.ms (now %s), which the records already waited far beyond",
                    bytes(s.batchSize()), hot, bytes(Math.round(p.batchBytes())), hot.isEmpty() ? "" : ")", perRequest,
                    num(s.lingerMs())));
        } else {
            out.add(String.format(Locale.ROOT, "batch.size (now %s) and linger.ms (now %s)%s%s", bytes(s.batchSize()),
                    num(s.lingerMs()), Double.isNaN(p.batchBytes()) ? ""
                            : String.format(Locale.ROOT, ": batches averaged %s", bytes(Math.round(p.batchBytes()))),
                    perRequest));
        }
        String inFlight = Double.isNaN(p.inFlight()) ? ""
                : String.format(Locale.ROOT, "; %.1f request(s) in flight per producer on average", p.inFlight());
        if (queued && serial) {
            out.add(String.format(Locale.ROOT, "more connections rather than max.in.flight.requests.per.connection (now "
                    + "%d%s): a broker serves a connection's requests one at a time, and %.2f ms each at the broker × "
                    + "%.1f per connection = %.2f ms of the producers' %.2f ms request latency, so more in flight would wait "
                    + "there; more producers, or the partitions' leaders on more brokers, add connections%s",
                    s.maxInFlight(), inFlight, b.produceTotalMs(), perConnection, b.produceTotalMs() * perConnection,
                    p.requestLatencyMs(),
                    Double.isNaN(b.handlerIdle()) ? "" : String.format(Locale.ROOT, " (the request handlers were idle %.0f%% "
                            + "of the time: what more connections can use)", 100 * b.handlerIdle())));
        } else {
            out.add(String.format(Locale.ROOT, "max.in.flight.requests.per.connection (now %d%s)", s.maxInFlight(), inFlight));
            out.add("more producers or partitions: each producer has its own buffer and connections");
        }
        if (waited && queued) {
            out.add(String.format(Locale.ROOT, "not buffer.memory (now %s): it held records waiting for a request (%.1f "
                    + "ms on average); more of it lengthens that wait, not the rate", bytes(s.bufferMemory()),
                    p.queueTimeMs()));
        }
        return out;
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    static String bytes(long b) {
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        return b >= 1024 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024.0) : b + " B";
    }
}
