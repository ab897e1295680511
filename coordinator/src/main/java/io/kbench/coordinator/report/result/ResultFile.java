package io.kbench.coordinator.report.result;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.kbench.coordinator.merge.CatchUp;
import io.kbench.coordinator.merge.LatencyStats;

/**
 * The types of {@code result.json}: {@code kbench run} writes a {@link Run}, {@code kbench merge} reads runs
 * back into the same types and writes a {@link Merged}. Every key, its type and whether it may be absent
 * is stated here once; docs/results.md and {@code docs/schema/result.schema.json} are checked against these
 * types by tests. Keys appear in the order of the record components.
 *
 * <p>Times ending in {@code Millis} are epoch milliseconds in coordinator time; latencies are microseconds;
 * MB is 1,048,576 bytes.
 *
 * <p>Size: over 400 lines because it is every type of the file, in one place and in the file's order; that is
 * what lets a reader, and the tests, hold it against the schema and docs/results.md object by object.
 */
public final class ResultFile {
    /**
     * Version of this layout: 1 was written before the field existed (kbench merge reads it as 1), 2 adds
     * {@code schemaVersion} itself, 3 adds {@code provenance}. Raise it when a key is added, changes meaning
     * or goes away; 4 adds
     * {@code rateSearch}; 5 adds the search's {@code limitedBy} and {@code confidence} and each trial's
     * {@code cause} and {@code notes}; 6 adds the workers' {@code host} and the intervals' {@code hosts} and
     * {@code brokers}; 7 adds {@code diagnosis} and each trial's {@code limitedBy}; 8 adds the share consumers'
     * {@code share} to the intervals and the summary; 9 the share groups' {@code backlog}; 10 the share groups'
     * per-record check ({@code summary.share.verification}, {@code verified} true when it was made) and the
     * acknowledgement commit latency ({@code share.commitLatencyMicros}, with {@code shareCommit: sync}); 11 the
     * load threads' stalls, how late they woke from their parks ({@code hosts.stallMicrosMax} per interval, {@code
     * host.stallMicrosMaxInterval} per worker); 12 the worker hosts' whole CPU, busy (every process) and stolen by a
     * hypervisor ({@code hosts.hostBusyMax} and {@code hosts.hostStealMax} per interval, {@code host.hostBusyMean},
     * {@code hostBusyMax}, {@code hostStealMean} and {@code hostStealMax} per worker); 13 the {@code network} of
     * the run; 14 {@code provenance.cluster.embeddedBrokerProcesses} and {@code brokerSettings}; 15 the checks that
     * held beside a limit ({@code diagnosis.held}); 16 the limit {@code transactions} ({@code diagnosis.limit})
     * and each interval's commits ({@code publish.transactionCommitMicros}); 17 the workers' JIT compiler threads' CPU
     * ({@code hosts.jitShareMax} per interval, {@code host.jitShareMean} and {@code host.jitShareMax} per worker);
     * 20 a merged result's {@code issues} (measured windows that overlap only in part); 21 a trial's {@code cause}
     * {@code consumers}; 22 the limit {@code cluster-unavailable} ({@code diagnosis.limit}) and the producers'
     * {@code kbench-send-blocked-ratio} (intervals' {@code producerClients}); 23 the producers'
     * {@code kbench-unacked-age-max} (intervals' {@code producerClients}), the brokers' {@code underMinIsrPartitions} and the
     * evidence {@code unackedAgeMs} and {@code underMinIsrPartitions}.
     */
    public static final int SCHEMA_VERSION = 23;

    private ResultFile() { }

    /** One run's result. */
    public record Run(int schemaVersion, String kbenchVersion,
                      @JsonProperty(required = true) String runId,
                      @JsonProperty(required = true) String status,
                      String error, String startedAt, long startMillis, long measureStartMillis,
                      long measureEndMillis, long saturationThresholdMicros, JsonNode workload,
                      Map<String, Object> profile, Provenance provenance, List<String> topics, List<Worker> workers,
                      List<LostWorker> lostWorkers, List<Fault> faults, List<Interval> intervals,
                      @JsonProperty(required = true) Summary summary,
                      @JsonProperty(required = true) Map<String, String> histograms, List<String> issues,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Diagnosis diagnosis,
                      @JsonInclude(JsonInclude.Include.NON_NULL) RateSearch rateSearch,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Network network,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Partitions partitions) {
        /** A result without the spread over partitions (a run without producers, or a failed one). */
        public Run(int schemaVersion, String kbenchVersion, String runId, String status, String error, String startedAt,
                   long startMillis, long measureStartMillis, long measureEndMillis, long saturationThresholdMicros,
                   JsonNode workload, Map<String, Object> profile, Provenance provenance, List<String> topics,
                   List<Worker> workers, List<LostWorker> lostWorkers, List<Fault> faults, List<Interval> intervals,
                   Summary summary, Map<String, String> histograms, List<String> issues, Diagnosis diagnosis,
                   RateSearch rateSearch, Network network) {
            this(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, diagnosis, rateSearch, network, null);
        }

        /** A result without the network line (no bandwidth given). */
        public Run(int schemaVersion, String kbenchVersion, String runId, String status, String error, String startedAt,
                   long startMillis, long measureStartMillis, long measureEndMillis, long saturationThresholdMicros,
                   JsonNode workload, Map<String, Object> profile, Provenance provenance, List<String> topics,
                   List<Worker> workers, List<LostWorker> lostWorkers, List<Fault> faults, List<Interval> intervals,
                   Summary summary, Map<String, String> histograms, List<String> issues, Diagnosis diagnosis,
                   RateSearch rateSearch) {
            this(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, diagnosis, rateSearch, null);
        }

        /** This result with {@code list} as its intervals (read back from disk for a long run's page). */
        public Run withIntervals(List<Interval> list) {
            return new Run(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, list, summary, histograms, issues, diagnosis, rateSearch, network, partitions);
        }

        /** This result with a max-rate search's outcome. */
        public Run withRateSearch(RateSearch search) {
            return new Run(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, diagnosis, search, network, partitions);
        }

        /** This result with what limited it. */
        public Run withDiagnosis(Diagnosis d) {
            return new Run(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, d, rateSearch, network, partitions);
        }

        /** This result with how close it came to its brokers' network links. */
        public Run withNetwork(Network n) {
            return new Run(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, diagnosis, rateSearch, n, partitions);
        }

        /** This result with how its messages spread over the partitions. */
        public Run withPartitions(Partitions p) {
            return new Run(schemaVersion, kbenchVersion, runId, status, error, startedAt, startMillis, measureStartMillis,
                    measureEndMillis, saturationThresholdMicros, workload, profile, provenance, topics, workers,
                    lostWorkers, faults, intervals, summary, histograms, issues, diagnosis, rateSearch, network, p);
        }
    }

    /**
     * How the run's acknowledged messages spread over its topics' partitions (schema 18; docs/results.md#partitions):
     * every worker's producers count each acknowledgement by the partition the broker appended it to, over the whole
     * run, warm-up included, and send their counts once, at the end. Absent without producers, or when no worker sent
     * its counts (a run that failed before its workers' last snapshots).
     *
     * @param workers   the workers whose counts are in (fewer than the run's when one was lost)
     * @param acked     topic -> acknowledged messages by partition number (every partition of the topic, 0 for none)
     * @param busiest   the partition with the largest share of its topic's messages, relative to an even spread
     */
    public record Partitions(int workers, Map<String, long[]> acked, Busiest busiest) {
    }

    /**
     * The busiest partition: {@code share} of its topic's acknowledged messages, {@code skew} times an even share
     * (share × partitions; 1: perfectly even).
     */
    public record Busiest(String topic, int partition, long acked, double share, int partitions, double skew) {
    }

    /**
     * How close the run came to the most its brokers' network links let producers write (schema 13; absent when no
     * bandwidth was given; {@link io.kbench.coordinator.capacity.NetworkCeiling}). MB is 1,048,576 bytes.
     *
     * @param gbps           each broker's link, Gbit/s each way (--network-gbps or the profile's networkGbps)
     * @param brokers        the cluster's brokers
     * @param partitions     the run's partitions over its topics
     * @param groups         consumer and share groups reading every record
     * @param linkMBps       one link, MB/s each way
     * @param ceilingMBps    the most producers can write through the links
     * @param bound          {@code in} or {@code out}: the busiest broker's direction that sets the ceiling
     * @param produceMBps    what this run wrote over the measured window
     * @param produceSource  {@code brokers} (their bytes in, every broker read in every interval) or {@code clients}
     *                       (values acknowledged: keys, headers and record overheads not counted)
     * @param share          produceMBps / ceilingMBps
     * @param busiestBroker  the broker whose link was busiest, by its own figures (absent unless every broker was a
     *                       source of its own in every interval)
     * @param busiestMBps    that link's busier direction: bytes in plus replication in, or bytes out plus replication out
     * @param busiestShare   busiestMBps / linkMBps
     */
    public record Network(double gbps, int brokers, int partitions, int replicationFactor, int groups, double linkMBps,
                          double ceilingMBps, String bound, double produceMBps, String produceSource, double share,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String busiestBroker,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double busiestMBps,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double busiestShare) {
    }

    /**
     * What limited the run (schema 7; docs/diagnosis.md), named from the measured window's figures.
     *
     * @param limit         one of {@code none}, {@code send-errors}, {@code transactions}, {@code generator},
     *                      {@code producer-client}, {@code broker-request-handlers}, {@code broker-network-threads},
     *                      {@code replication}, {@code broker-disk}, {@code consumers}, {@code round-trip},
     *                      {@code unknown}
     * @param strength      how far past its threshold the deciding figure was: 0 at the threshold, 1 at its extreme
     *                      (0 for {@code none} and {@code unknown})
     * @param evidence      the figures that decided it; for {@code none} and {@code unknown} the checks that held
     * @param suggestions   the settings to turn next, with their values in this run
     * @param alsoLimitedBy further limits that held at the same time, strongest first
     * @param held          beside a limit, the checks that held: the figures that ruled the other limits out, each
     *                      with its threshold (schema 15; empty for {@code none} and {@code unknown}, whose evidence
     *                      they are, and in files before it)
     */
    public record Diagnosis(String limit, double strength, List<Evidence> evidence, List<String> suggestions,
                            List<Limit> alsoLimitedBy, List<Evidence> held) {
        public Diagnosis {
            held = held == null ? List.of() : List.copyOf(held);
        }

        public Diagnosis(String limit, double strength, List<Evidence> evidence, List<String> suggestions,
                         List<Limit> alsoLimitedBy) {
            this(limit, strength, evidence, suggestions, alsoLimitedBy, List.of());
        }
    }

    /** One limit: its name, strength, evidence and suggestions, as in {@link Diagnosis}. */
    public record Limit(String limit, double strength, List<Evidence> evidence, List<String> suggestions) {
    }

    /**
     * A figure behind a diagnosis and the threshold it was compared with: {@code value op threshold} held (e.g.
     * {@code requestHandlerIdle 0.12 < 0.2}); {@code value}, {@code op} and {@code threshold} are null for a
     * statement that has no single figure.
     */
    public record Evidence(String figure, Double value, String op, Double threshold, String text) {
    }

    /**
     * What {@code kbench run --find-max-rate} found: the highest target rate whose trial passed, and every trial.
     * Present only in the result.json of a search's output directory (which is the passing trial's own result).
     *
     * @param maxSustainableRate the highest rate that passed (msg/s), or null when none did
     * @param converged          true when a failing rate lies within {@code precision} above it
     * @param precision          the search's stopping width, a fraction (0.02: 2%)
     * @param maxTrials          the bound on trials, the probe included
     * @param slos               the service-level objectives every trial had to meet, as given
     * @param outcome            why the search stopped, in words
     * @param limitedBy          what stopped the rate from going higher: {@code generator} (the trials above it
     *                           failed because the load generator fell behind without waiting for the cluster:
     *                           the answer is a lower bound of the cluster's capacity), {@code cluster}, or
     *                           {@code none} (no rate failed)
     * @param confidence         the trials behind the answer, in words: how often the rate found passed and the
     *                           lowest rate ruled out failed
     */
    public record RateSearch(Long maxSustainableRate, boolean converged, double precision, int maxTrials,
                             List<String> slos, String outcome, String limitedBy, String confidence,
                             List<Trial> trials) {
    }

    /**
     * One trial of a max-rate search.
     *
     * @param number       1-based, in the order run
     * @param phase        {@code probe} (unthrottled, to find a starting point), {@code bracket} or {@code bisect}
     * @param targetRate   msg/s, -1 for the unthrottled probe
     * @param achievedRate acknowledged msg/s over the measured window
     * @param passed       met every criterion (a probe never passes: it has no target)
     * @param cause        why it failed: {@code none} (it passed), {@code generator}, {@code cluster} or
     *                     {@code run} (see docs/capacity.md)
     * @param reasons      why it failed, one line each; empty when it passed
     * @param notes        what was seen but decided nothing (saturated intervals, intervals sent short)
     * @param slos         each objective's figure in this trial
     * @param result       its own result.json, relative to the search's directory (null if not written)
     * @param limitedBy    what limited the trial's run ({@link Diagnosis#limit}; null when it was not diagnosed)
     */
    public record Trial(int number, String phase, long targetRate, double achievedRate, boolean passed, String cause,
                       List<String> reasons, List<String> notes, List<SloFigure> slos, String result, Summary summary,
                       String limitedBy) {
    }

    /**
     * An objective's figure in one trial.
     *
     * @param valueMicros the measured quantile (end-to-end: plus the clock bound)
     * @param limitMicros the objective's limit
     */
    public record SloFigure(String slo, long valueMicros, long limitMicros, boolean held) {
    }

    /**
     * Where a run's figures came from: the kbench build, the exact command line, the coordinator's and every
     * worker's host and JVM, and the cluster as the driver described it. Null in results written before
     * schema version 3 (and in a live dashboard's partial result).
     *
     * @param commandLine the arguments kbench was started with, after {@code kbench}
     */
    public record Provenance(String kbenchVersion, String kbenchCommit, List<String> commandLine, Host coordinator,
                             List<WorkerHost> workers, Cluster cluster) {
    }

    /** A host and its JVM; {@code memoryBytes} 0 when the JVM could not tell. */
    public record Host(String hostName, int cores, long memoryBytes, String os, String jvm, long maxHeapBytes) {
    }

    /** A worker's build and host; {@code drivers}: the drivers it can load, by name, with their client library. */
    public record WorkerHost(String id, String kbenchVersion, String kbenchCommit, Map<String, String> drivers,
                             Host host) {
    }

    /**
     * The cluster: whether kbench started it (embedded, with that many brokers, each in a JVM of its own or all in
     * kbench's: schema 14), the broker settings kbench applied to it for the run (a sweep combination's
     * {@code broker.*}, schema 14), and what the driver read:
     * cluster id, finalized feature levels ({@code metadata.version} names the brokers' release), brokers and
     * the run's topics with their configs; {@code error} says what could not be read (null when nothing).
     */
    public record Cluster(boolean embedded, int embeddedBrokers, boolean embeddedBrokerProcesses,
                          Map<String, String> brokerSettings, String clusterId,
                          Map<String, Integer> features, List<Broker> brokers, Map<String, Topic> topics, String error) {
        public Cluster {
            brokerSettings = brokerSettings == null ? Map.of() : new java.util.TreeMap<>(brokerSettings);
        }
    }

    /** One broker: id, endpoint, rack (empty when none), and its benchmark-relevant and explicitly set configs. */
    public record Broker(int id, String endpoint, String rack, Map<String, String> configs) {
    }

    /** One topic: partitions, replication factor, and its benchmark-relevant and explicitly set configs. */
    public record Topic(int partitions, int replicationFactor, Map<String, String> configs) {
    }

    /** Several runs combined by {@code kbench merge}. */
    public record Merged(int schemaVersion, String kbenchVersion, List<Source> merged, String status,
                         List<Worker> workers, Summary summary, Map<String, String> histograms,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Partitions partitions,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> issues) {
        public Merged {
            issues = issues == null ? List.of() : List.copyOf(issues);
        }

        /** Runs merged without counts per partition. */
        public Merged(int schemaVersion, String kbenchVersion, List<Source> merged, String status,
                      List<Worker> workers, Summary summary, Map<String, String> histograms) {
            this(schemaVersion, kbenchVersion, merged, status, workers, summary, histograms, null, List.of());
        }
    }

    /** A run that went into a merge. */
    public record Source(String path, String runId, String status, String workload) {
    }

    /**
     * One worker: its share (producers, consumers, target rate in msg/s, -1 unthrottled), its clock (offset
     * to the coordinator as first estimated, the bound on the error of every offset in effect, how far
     * re-estimation moved it, estimates taken and corrections made), and its whole-run counts.
     */
    public record Worker(String id, String address, long clockOffsetMicros, long clockUncertaintyMicros,
                         long clockDriftMicros, int clockEstimates, int clockCorrections, int producers,
                         int consumers, long targetRate, long sent, long acked, long failed, long received,
                         @JsonInclude(JsonInclude.Include.NON_NULL) HostUse host) {
    }

    /**
     * A worker's process over the measured intervals (schema 6; absent when the worker sent no host figures):
     * CPU as a share of the processors it may use (mean: CPU time over wall time; max: the busiest interval),
     * garbage-collection time in all and in the worst interval, the fullest heap after a collection; {@code
     * sharedWith} what else ran in its process and is included (absent for a worker of its own); {@code
     * stallMicrosMaxInterval} (schema 11) the longest one of its load threads woke late from a park (absent: not
     * measured); (schema 12) its whole host's share of CPU time spent running by every process on it, mean over the
     * measured intervals and the busiest interval ({@code hostBusyMean}, {@code hostBusyMax}), and the share its
     * hypervisor stole ({@code hostStealMean}, {@code hostStealMax}); absent where the worker cannot read them;
     * (schema 17) the CPU its JIT compiler threads used, as a share of its processors (comparable with {@code
     * cpuMean}: part of it), over the measured intervals and in the worst ({@code jitShareMean}, {@code jitShareMax});
     * absent where the platform does not tell (not Linux).
     */
    public record HostUse(int intervals, int processors, double cpuMean, double cpuMax, long gcMicros,
                          long gcMicrosMaxInterval, long gcCount, long heapAfterGcMaxBytes, long heapMaxBytes,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String sharedWith,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long stallMicrosMaxInterval,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double hostBusyMean,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double hostBusyMax,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double hostStealMean,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double hostStealMax,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double jitShareMean,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Double jitShareMax) {
    }

    /**
     * A worker whose connection broke during the run.
     *
     * @param lastInterval the last interval it reported (-1: none)
     */
    public record LostWorker(String id, String address, String reason, long lastInterval) {
    }

    /** A fault as carried out on the embedded cluster; {@code doneMillis} and {@code error} may be null. */
    public record Fault(String action, int broker, long atSeconds, long requestedMillis, Long doneMillis,
                        String error) {
    }

    /** One reporting interval, merged across workers. */
    public record Interval(long index, long startMillis, long endMillis, boolean warmup, boolean saturated,
                           int workers, Publish publish, Consume consume,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Verification verification,
                           long clamped, long negativeEndToEnd, Client client, List<String> errors,
                           List<String> faults, @JsonInclude(JsonInclude.Include.NON_NULL) Hosts hosts,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<BrokerFigures> brokers,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Share share) {
        /** An interval without share consumers. */
        public Interval(long index, long startMillis, long endMillis, boolean warmup, boolean saturated, int workers,
                        Publish publish, Consume consume, Verification verification, long clamped,
                        long negativeEndToEnd, Client client, List<String> errors, List<String> faults, Hosts hosts,
                        List<BrokerFigures> brokers) {
            this(index, startMillis, endMillis, warmup, saturated, workers, publish, consume, verification, clamped,
                    negativeEndToEnd, client, errors, faults, hosts, brokers, null);
        }
    }

    /**
     * The share consumers' figures (schema 8; absent without share groups), of an interval or of the run: every
     * delivery counted ({@code delivered}, {@code bytes}; {@code redelivered} those of records delivered before),
     * how they were acknowledged ({@code accepted}, {@code released}, {@code rejected}), deliveries and acceptances
     * per second and MB/s delivered (the measured window's in the summary), and the latencies from the intended
     * send to the record's first delivery and to its acceptance. In the summary {@code unsettled} is what the share
     * groups had not accepted or rejected of what was acknowledged (acked × share groups per topic minus
     * accepted and rejected, at least 0), {@code verified} says whether the share groups were checked per record
     * (schema 10: with the workload's verification; {@code verification} then has what the check found), and
     * {@code perConsumer} says how evenly the deliveries spread over the share consumers. {@code backlog} (schema 9):
     * {@code commitLatencyMicros} (schema 10, with {@code shareCommit: sync} only): each poll's acknowledgement commit,
     * sent to confirmed. {@code backlog}:
     * the share groups' backlog as the brokers count it (Admin API, their lag per share-partition, summed), at the
     * interval's end, or in the summary at the end of the run's last interval that read it; {@code backlogMax} (summary
     * only) the most at the end of a measured interval. Absent when not read.
     */
    public record Share(long delivered, long bytes, long redelivered, long accepted, long released, long rejected,
                        double rate, @JsonProperty("MBps") double mbps, double acceptRate,
                        LatencyStats deliveryLatencyMicros, LatencyStats acceptLatencyMicros,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Long unsettled,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean verified,
                        @JsonInclude(JsonInclude.Include.NON_NULL) PerConsumer perConsumer,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Long backlog,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Long backlogMax,
                        @JsonInclude(JsonInclude.Include.NON_NULL) ShareVerification verification,
                        @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats commitLatencyMicros) {
        /** Figures without the acknowledgement commit latency. */
        public Share(long delivered, long bytes, long redelivered, long accepted, long released, long rejected,
                     double rate, double mbps, double acceptRate, LatencyStats deliveryLatencyMicros,
                     LatencyStats acceptLatencyMicros, Long unsettled, Boolean verified, PerConsumer perConsumer,
                     Long backlog, Long backlogMax, ShareVerification verification) {
            this(delivered, bytes, redelivered, accepted, released, rejected, rate, mbps, acceptRate,
                    deliveryLatencyMicros, acceptLatencyMicros, unsettled, verified, perConsumer, backlog, backlogMax,
                    verification, null);
        }

        /** Figures without the per-record check. */
        public Share(long delivered, long bytes, long redelivered, long accepted, long released, long rejected,
                     double rate, double mbps, double acceptRate, LatencyStats deliveryLatencyMicros,
                     LatencyStats acceptLatencyMicros, Long unsettled, Boolean verified, PerConsumer perConsumer,
                     Long backlog, Long backlogMax) {
            this(delivered, bytes, redelivered, accepted, released, rejected, rate, mbps, acceptRate,
                    deliveryLatencyMicros, acceptLatencyMicros, unsettled, verified, perConsumer, backlog, backlogMax,
                    null);
        }

        /** Figures without the backlog. */
        public Share(long delivered, long bytes, long redelivered, long accepted, long released, long rejected,
                     double rate, double mbps, double acceptRate, LatencyStats deliveryLatencyMicros,
                     LatencyStats acceptLatencyMicros, Long unsettled, Boolean verified, PerConsumer perConsumer) {
            this(delivered, bytes, redelivered, accepted, released, rejected, rate, mbps, acceptRate,
                    deliveryLatencyMicros, acceptLatencyMicros, unsettled, verified, perConsumer, null, null);
        }
    }

    /**
     * What the share groups' per-record check found over the run (summary only, schema 10): {@code lost}
     * acknowledged messages a group never delivered (per group), {@code duplicated} records a group delivered as
     * new a second time (redeliveries are not duplicates), {@code untracked} deliveries beyond the check's bounds
     * (not checked; absent when 0); {@code orderChecked} is always false: a share group does not keep the order.
     */
    public record ShareVerification(long lost, long duplicated,
                                    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long untracked,
                                    boolean orderChecked) {
    }

    /**
     * Deliveries per share consumer over the whole run (summary only): how many consumers reported, the fewest and
     * the most one of them had, and the mean.
     */
    public record PerConsumer(int consumers, long min, long max, double mean) {
    }

    /**
     * One broker source's figures over an interval (schema 6; {@code brokers} is absent when no source is read):
     * {@code source} ("embedded", "embedded-N" for node N of an embedded cluster of several, a JMX HOST:PORT or an
     * exporter URL), {@code figures} (name to value, docs/metrics.md#broker-figures;
     * what the source did not give is absent) and {@code error} (why it gave nothing this interval; absent when it
     * answered).
     */
    public record BrokerFigures(String source, Map<String, Double> figures,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String error) {
    }

    /**
     * The client hosts in one interval (schema 6; absent when no worker sent host figures): workers that reported,
     * mean and busiest CPU share of a worker's processors and which worker, the most collection time of one
     * worker in the interval, the fullest heap after a collection as a share of its maximum (null: unknown); {@code
     * stallMicrosMax} (schema 11) the longest a load thread of any worker woke late from a park in the interval, µs
     * (absent: none measured it); {@code hostBusyMax} and {@code hostStealMax} (schema 12) the busiest worker host's
     * share of CPU time spent running, by every process on it, and the most stolen by a hypervisor from one (absent:
     * none measured them); {@code jitShareMax} (schema 17) the most CPU one worker's JIT compiler threads used,
     * as a share of its processors (absent: none measured it).
     */
    public record Hosts(int workers, double cpuMean, double cpuMax, String busiest, long gcMicrosMax,
                        Double heapAfterGcMax, @JsonInclude(JsonInclude.Include.NON_NULL) Long stallMicrosMax,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double hostBusyMax,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double hostStealMax,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double jitShareMax) {
    }

    /**
     * An interval's publishing; {@code transactionCommitMicros} (schema 16) the transactional producers' commits that
     * completed in it (absent when none did).
     */
    public record Publish(long sent, long acked, long failed, long bytes, double rate,
                          @JsonProperty("MBps") double mbps, LatencyStats latencyMicros,
                          LatencyStats responseMicros, LatencyStats delayMicros,
                          @JsonInclude(JsonInclude.Include.NON_NULL) LatencyStats transactionCommitMicros) {
        /** An interval without commits. */
        public Publish(long sent, long acked, long failed, long bytes, double rate, double mbps,
                       LatencyStats latencyMicros, LatencyStats responseMicros, LatencyStats delayMicros) {
            this(sent, acked, failed, bytes, rate, mbps, latencyMicros, responseMicros, delayMicros, null);
        }
    }

    /** An interval's consuming; {@code lag} is null when unknown. */
    public record Consume(long received, long bytes, double rate, @JsonProperty("MBps") double mbps,
                          LatencyStats endToEndLatencyMicros, Long lag) {
    }

    /** The clients' own metrics at an interval's end; null when there are no such clients. */
    public record Client(Map<String, Double> producer, Map<String, Double> consumer) {
    }

    /** Verification counts; {@code untracked} only when there were any. */
    public record Verification(long lost, long duplicated, long outOfOrder,
                               @JsonInclude(JsonInclude.Include.NON_DEFAULT) long untracked) {
    }

    /** The end-to-end latency object: a latency object with the clock error bound of its samples. */
    public record EndToEnd(long count, double mean, long p50, long p75, long p95, long p99, long p999, long p9999,
                           long max, long uncertaintyMicros) {
        public static EndToEnd of(LatencyStats s, long uncertaintyMicros) {
            return new EndToEnd(s.count(), s.mean(), s.p50(), s.p75(), s.p95(), s.p99(), s.p999(), s.p9999(),
                    s.max(), uncertaintyMicros);
        }
    }

    /** What kafka-consumer-perf-test prints, for the measured window. */
    public record ConsumeSummary(@JsonProperty("MB") double mb, long messages, @JsonProperty("MBps") double mbps,
                                 double messagesPerSecond, long rebalanceTimeMs, long fetchTimeMs,
                                 @JsonProperty("fetchMBps") double fetchMbps, double fetchMessagesPerSecond) {
    }

    /**
     * The run's figures. {@code consume} is absent from merged results, {@code verification} when the
     * workload does not verify, {@code catchUp} except in backlog runs.
     */
    public record Summary(@JsonProperty(required = true) Long sent,
                          @JsonProperty(required = true) Long acked,
                          @JsonProperty(required = true) Long failed,
                          @JsonProperty(required = true) Long received,
                          @JsonProperty(required = true) Double measuredSeconds,
                          @JsonProperty(required = true) Double publishRate,
                          @JsonProperty(required = true) Double publishMBps,
                          @JsonProperty(required = true) Double consumeRate,
                          @JsonProperty(required = true) Double consumeMBps,
                          LatencyStats publishLatencyMicros, LatencyStats publishResponseMicros,
                          LatencyStats publishDelayMicros, EndToEnd endToEndLatencyMicros,
                          LatencyStats transactionCommitMicros, long saturatedIntervals,
                          @JsonInclude(JsonInclude.Include.NON_NULL) ConsumeSummary consume,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Verification verification,
                          long clamped, long negativeEndToEnd,
                          @JsonInclude(JsonInclude.Include.NON_NULL) CatchUp catchUp,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Share share) {
        /** A summary without share consumers. */
        public Summary(Long sent, Long acked, Long failed, Long received, Double measuredSeconds, Double publishRate,
                       Double publishMBps, Double consumeRate, Double consumeMBps, LatencyStats publishLatencyMicros,
                       LatencyStats publishResponseMicros, LatencyStats publishDelayMicros,
                       EndToEnd endToEndLatencyMicros, LatencyStats transactionCommitMicros, long saturatedIntervals,
                       ConsumeSummary consume, Verification verification, long clamped, long negativeEndToEnd,
                       CatchUp catchUp) {
            this(sent, acked, failed, received, measuredSeconds, publishRate, publishMBps, consumeRate, consumeMBps,
                    publishLatencyMicros, publishResponseMicros, publishDelayMicros, endToEndLatencyMicros,
                    transactionCommitMicros, saturatedIntervals, consume, verification, clamped, negativeEndToEnd,
                    catchUp, null);
        }

        /** This summary with the share groups' figures {@code s}. */
        public Summary withShare(Share s) {
            return new Summary(sent, acked, failed, received, measuredSeconds, publishRate, publishMBps, consumeRate,
                    consumeMBps, publishLatencyMicros, publishResponseMicros, publishDelayMicros, endToEndLatencyMicros,
                    transactionCommitMicros, saturatedIntervals, consume, verification, clamped, negativeEndToEnd,
                    catchUp, s);
        }
    }
}
