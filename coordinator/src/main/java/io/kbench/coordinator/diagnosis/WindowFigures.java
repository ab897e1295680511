package io.kbench.coordinator.diagnosis;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kbench.coordinator.capacity.TrialVerdict;
import io.kbench.coordinator.merge.BrokerWindow;
import io.kbench.coordinator.merge.MergedInterval;
import io.kbench.coordinator.report.result.ResultFile;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;

/**
 * The measured window's figures that {@link Diagnosis} reads, reduced from a run's intervals, its workers and its
 * settings: a handful of numbers, whatever the run's length or worker count. Unknown figures are NaN. Built by
 * {@link #of}; the diagnosis's unit tests build them directly, as recorded figures.
 *
 * @param load      what was asked and what happened
 * @param producers the producers' own metrics and settings
 * @param hosts     the busiest worker's process
 * @param consumers the consumers' lag
 * @param brokers   the brokers' figures, null when no broker source was read
 * @param errors    the sends that failed
 * @param commits   the transactional producers' commits ({@link Commits#NONE} when the run is not transactional)
 * @param spread    the busiest partition ({@link Spread#NONE} when not known)
 */
public record WindowFigures(Load load, Producers producers, Hosts hosts, Consumers consumers, Brokers brokers,
                            Errors errors, Commits commits, Spread spread) {
    public WindowFigures {
        commits = commits == null ? Commits.NONE : commits;
        spread = spread == null ? Spread.NONE : spread;
    }

    /** Figures without the spread over partitions. */
    public WindowFigures(Load load, Producers producers, Hosts hosts, Consumers consumers, Brokers brokers,
                         Errors errors, Commits commits) {
        this(load, producers, hosts, consumers, brokers, errors, commits, Spread.NONE);
    }

    /**
     * The busiest partition of the run ({@link io.kbench.coordinator.merge.PartitionSpread}): {@code share} of its
     * topic's acknowledged messages, {@code skew} times an even share; {@code rate}: the msg/s it took over the window
     * (its part of everything acknowledged, times the rate the consumers must keep up with); {@code keys}: how the
     * messages were keyed, for the text.
     */
    public record Spread(String topic, int partition, double share, int partitions, double skew, double rate,
                         String keys) {
        public static final Spread NONE = new Spread("", -1, Double.NaN, 0, Double.NaN, Double.NaN, "");

        /** A partition with {@link io.kbench.coordinator.merge.PartitionSpread#HOT_SKEW} times an even share or more. */
        public boolean hot() {
            return io.kbench.coordinator.merge.PartitionSpread.hot(partitions, skew);
        }
    }

    /** Figures of a window without transactions. */
    public WindowFigures(Load load, Producers producers, Hosts hosts, Consumers consumers, Brokers brokers,
                         Errors errors) {
        this(load, producers, hosts, consumers, brokers, errors, Commits.NONE);
    }

    /** Figures of a window without transactions in which no send failed. */
    public WindowFigures(Load load, Producers producers, Hosts hosts, Consumers consumers, Brokers brokers) {
        this(load, producers, hosts, consumers, brokers, Errors.NONE);
    }

    /**
     * The transactional producers' commits over the window: {@code commitTransaction()} blocks its producer's load
     * thread until the transaction is committed, and the sends due meanwhile wait.
     *
     * @param producers          the run's producers (each commits its own transactions)
     * @param transactionRecords the workload's messages per transaction (0: not set)
     * @param transactionMillis  the workload's longest a transaction stays open, ms (0: not set)
     * @param count              commits in the window
     * @param meanMicros         their mean duration
     * @param maxMicros          the longest
     * @param blockedShare       the producers' time spent committing: count × mean over producers × the window's seconds
     * @param saturatedByCommit  of the saturated intervals, those in which a commit took at least the saturation
     *                           threshold: the load thread was blocked that long while sends fell due
     */
    public record Commits(int producers, long transactionRecords, long transactionMillis, long count, double meanMicros,
                          long maxMicros, double blockedShare, int saturatedByCommit) {
        public static final Commits NONE = new Commits(0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * The window's failed sends.
     *
     * @param failed sends that failed in the window
     * @param sent   sends in the window
     * @param first  the first error a worker reported in the window ("" when none was)
     * @param unavailable          the share of the window the producers' sends blocked not for buffer room: the
     *                             client waited for the cluster's metadata ({@link TrialVerdict#unavailableRatio})
     * @param unavailableIntervals the window's intervals in which that was half the time or more
     * @param intervals            the window's intervals
     * @param unserved             the window's intervals in which the cluster acknowledged nothing while the producers
     *                             waited on it ({@link TrialVerdict#unserved})
     * @param runStartMicros       the run's start (its first interval's), for the instants in the evidence
     * @param underMinIsr          the most partitions under {@code min.insync.replicas} a broker source reported in an
     *                             interval of the window (NaN: no source reported the figure), and which source
     */
    public record Errors(long failed, long sent, String first, double unavailable, int unavailableIntervals,
                         int intervals, TrialVerdict.Unserved unserved, long runStartMicros, double underMinIsr,
                         String underMinIsrSource) {
        public static final Errors NONE = new Errors(0, 0, "");

        public Errors {
            unserved = unserved == null ? TrialVerdict.Unserved.NONE : unserved;
            underMinIsrSource = underMinIsrSource == null ? "" : underMinIsrSource;
        }

        /** Without the brokers' partitions under min.insync.replicas. */
        public Errors(long failed, long sent, String first, double unavailable, int unavailableIntervals,
                      int intervals, TrialVerdict.Unserved unserved, long runStartMicros) {
            this(failed, sent, first, unavailable, unavailableIntervals, intervals, unserved, runStartMicros, Double.NaN,
                    "");
        }

        /** Failed sends, in a window the cluster served throughout. */
        public Errors(long failed, long sent, String first) {
            this(failed, sent, first, 0, 0, 0, TrialVerdict.Unserved.NONE, 0);
        }
    }

    /**
     * @param targetRate      msg/s; -1 unthrottled; 0 when the run has no producers
     * @param seconds         the measured window's length
     * @param sentRate        msg/s sent over the window
     * @param ackedRate       msg/s acknowledged over the window
     * @param keptUp          a throttled run sent and had acknowledged its target (within 0.5%), lost and failed
     *                        nothing, and its consumers kept up ({@link TrialVerdict} without objectives)
     * @param generatorBehind the load generator fell behind its schedule without waiting for the cluster
     *                        ({@link TrialVerdict.Cause#generator})
     * @param behindReason    how it fell behind, in words ("" when it did not)
     * @param intervals       measured intervals
     * @param saturated       those whose publish delay p99 was above the saturation threshold
     * @param saturationMillis that threshold
     * @param saturatedStalled of the saturated intervals, those in which a load thread woke from a park at least
     *                        that threshold late ({@code hosts.stallMicrosMax}): held up by its host or a pause, not
     *                        by its own work
     * @param warmupSentShare what a timed warm-up at a target rate sent of the messages due in it, when it fell behind
     *                        ({@link #warmupBehind}; NaN otherwise, or without one): the generator ran behind before
     *                        the window, and what it sent late may be acknowledged in it
     */
    public record Load(long targetRate, double seconds, double sentRate, double ackedRate, boolean keptUp,
                       boolean generatorBehind, String behindReason, int intervals, int saturated,
                       long saturationMillis, int saturatedStalled, double warmupSentShare) {
        /** Figures without a warm-up's. */
        public Load(long targetRate, double seconds, double sentRate, double ackedRate, boolean keptUp,
                    boolean generatorBehind, String behindReason, int intervals, int saturated, long saturationMillis,
                    int saturatedStalled) {
            this(targetRate, seconds, sentRate, ackedRate, keptUp, generatorBehind, behindReason, intervals, saturated,
                    saturationMillis, saturatedStalled, Double.NaN);
        }

        /** Figures of workers that do not measure their stalls. */
        public Load(long targetRate, double seconds, double sentRate, double ackedRate, boolean keptUp,
                    boolean generatorBehind, String behindReason, int intervals, int saturated, long saturationMillis) {
            this(targetRate, seconds, sentRate, ackedRate, keptUp, generatorBehind, behindReason, intervals, saturated,
                    saturationMillis, 0);
        }
    }

    /**
     * Means over the window of the producers' client metrics, and the settings they ran with.
     *
     * @param count            producers
     * @param waitRatio        share of the time the load threads waited for buffer room (kbench's flow control and
     *                         the client's buffer pool, {@link TrialVerdict#waitRatio})
     * @param queueTimeMs      {@code record-queue-time-avg}
     * @param requestLatencyMs {@code request-latency-avg}
     * @param inFlight         {@code requests-in-flight}
     * @param batchBytes       {@code batch-size-avg}
     * @param connections      the most broker connections a producer writes over: its topic's partitions, or the
     *                         cluster's brokers when fewer (a kbench producer writes every partition of its topic)
     */
    public record Producers(int count, double waitRatio, double queueTimeMs, double requestLatencyMs,
                            double inFlight, double batchBytes, Settings settings, int connections) {
        /**
         * Requests in flight per connection, at least 1: a broker reads one request of a connection at a time and
         * the ones behind it wait their turn, so a producer's request latency is about this many broker times.
         */
        public double inFlightPerConnection() {
            return Double.isNaN(inFlight) ? 1 : Math.max(1, inFlight / Math.max(1, connections));
        }
    }

    /**
     * The producer settings in force (the profile's, else Kafka 4.3's defaults) and the topics' replication factor
     * (0: not known — topics that existed before the run keep their own).
     */
    public record Settings(String acks, double lingerMs, long batchSize, long bufferMemory, int maxInFlight,
                           int replicationFactor, String compressionType) {
        /** These settings for topics whose replication factor kbench did not set. */
        public Settings withReplicationUnknown() {
            return new Settings(acks, lingerMs, batchSize, bufferMemory, maxInFlight, 0, compressionType);
        }

        /** True unless the topics are known to have no followers (replication factor 1). */
        public boolean followers() {
            return replicationFactor != 1;
        }

        /** Kafka 4.3's producer defaults (linger.ms 5 since KIP-1030), replication factor 1. */
        public static final Settings DEFAULTS = new Settings("all", 5, 16_384, 33_554_432, 5, 1, "none");

        /** Without a compression type: Kafka's default, none. */
        public Settings(String acks, double lingerMs, long batchSize, long bufferMemory, int maxInFlight,
                        int replicationFactor) {
            this(acks, lingerMs, batchSize, bufferMemory, maxInFlight, replicationFactor, "none");
        }
    }

    /**
     * The busiest worker over the window.
     *
     * @param cpu        its process's CPU, share of its processors (NaN: no worker sent host figures)
     * @param worker     its id
     * @param gcMaxMicros the longest collection time of any worker in one interval
     * @param sharedWith what shares its process ("" for a worker of its own)
     * @param stallMaxMicros the longest a load thread of any worker woke late from a park (-1: not measured)
     * @param stalledHostBusy over the intervals saturated with a load thread that late ({@link
     *                       MergedInterval#saturatedByStall}), the mean of the busiest worker host's share of CPU time
     *                       spent running, by every process on it (-1: no such interval, or not measured)
     * @param stalledHostSteal over the same intervals, the most CPU a worker host's hypervisor stole, as a share (-1:
     *                       no such interval, or not measured)
     * @param jit        the busiest worker's JIT compiler threads' CPU over the window, as a share of its processors (part
     *                   of {@code cpu}; -1: not measured)
     */
    public record Hosts(double cpu, String worker, long gcMaxMicros, String sharedWith, long stallMaxMicros,
                        double stalledHostBusy, double stalledHostSteal, double jit, double hostBusy, String busiestHost) {
        public static final Hosts UNKNOWN = new Hosts(Double.NaN, "", 0, "", -1, -1, -1, -1);

        /** Figures of workers that do not read their hosts' whole CPU. */
        public Hosts(double cpu, String worker, long gcMaxMicros, String sharedWith, long stallMaxMicros,
                     double stalledHostBusy, double stalledHostSteal, double jit) {
            this(cpu, worker, gcMaxMicros, sharedWith, stallMaxMicros, stalledHostBusy, stalledHostSteal, jit, -1, "");
        }

        /** Figures of workers that do not measure their stalls. */
        public Hosts(double cpu, String worker, long gcMaxMicros, String sharedWith) {
            this(cpu, worker, gcMaxMicros, sharedWith, -1, -1, -1, -1);
        }

        /** Figures of workers that do not read their host's CPU. */
        public Hosts(double cpu, String worker, long gcMaxMicros, String sharedWith, long stallMaxMicros) {
            this(cpu, worker, gcMaxMicros, sharedWith, stallMaxMicros, -1, -1, -1);
        }

        /** Figures of workers that do not tell their JIT compiler threads' CPU. */
        public Hosts(double cpu, String worker, long gcMaxMicros, String sharedWith, long stallMaxMicros,
                     double stalledHostBusy, double stalledHostSteal) {
            this(cpu, worker, gcMaxMicros, sharedWith, stallMaxMicros, stalledHostBusy, stalledHostSteal, -1);
        }

        /** The JIT compilers' part of the busiest worker's CPU (0..1); -1 when not measured or no CPU. */
        public double jitShareOfCpu() {
            return jit < 0 || !(cpu > 0) ? -1 : Math.min(1.0, jit / cpu);
        }
    }

    /**
     * @param count      consumers of one group over the run's topics (a classic subscription's, or without one a
     *                   share group's)
     * @param partitions partitions of the run's topics
     * @param lagFirst   mean lag over the window's first third (NaN: unknown)
     * @param lagLast    mean lag over its last third
     * @param unread     messages acknowledged in the window that one group did not read in it, for the slower kind
     *                   (per classic subscription, or per share group: accepted or rejected): the backlog's growth
     *                   from the exact counts, which a sampled lag can miss (a consumer busy with a batch reports its
     *                   lag late); NaN: unknown
     * @param processingMicros the time each consumer spends on a message it receives, mean (the workload's
     *                   {@code consumerProcessingMillis}); 0 for none
     * @param share      the group is a share group (its consumers may outnumber the partitions)
     */
    public record Consumers(int count, int partitions, double lagFirst, double lagLast, double unread,
                            double processingMicros, boolean share,
                            io.kbench.coordinator.report.UnreadCount.Trend trend) {
        /** Consumers whose exact counts' trend is not known. */
        public Consumers(int count, int partitions, double lagFirst, double lagLast, double unread,
                         double processingMicros, boolean share) {
            this(count, partitions, lagFirst, lagLast, unread, processingMicros, share, null);
        }

        /** Consumers known by their sampled lag only. */
        public Consumers(int count, int partitions, double lagFirst, double lagLast) {
            this(count, partitions, lagFirst, lagLast, Double.NaN);
        }

        /** Consumers without work of their own per message. */
        public Consumers(int count, int partitions, double lagFirst, double lagLast, double unread) {
            this(count, partitions, lagFirst, lagLast, unread, 0, false);
        }

        /** Consumers that read: a classic group's consumers beyond its partitions have none assigned. */
        public int reading() {
            return share ? count : Math.min(count, partitions);
        }

        /**
         * The consumers that read one partition: a classic group's one; a share group's about consumers / partitions,
         * at least one — Kafka's simple assignor gives each share consumer one partition, by its member id's hash,
         * and the partitions no consumer hashed to one each, round-robin.
         */
        public double onePartitionsConsumers() {
            return share && partitions > 0 ? Math.max(1, (double) count / partitions) : 1;
        }

        /**
         * The most messages a second the group's consumers can take when each spends {@link #processingMicros} on
         * every message (its reading consumers, each one message at a time); NaN without work per message.
         */
        public double processingCapacity() {
            return processingMicros > 0 ? reading() * 1e6 / processingMicros : Double.NaN;
        }
    }

    /**
     * The brokers over the window: the worst source for each figure (the lowest idle, the most under-replicated
     * partitions), and the produce request's time and its parts as the source with the longest total time saw
     * them (means of the interval means, ms); the process CPU (share of its cores) of the source whose handlers
     * were the least idle. {@code urpMax} and {@code isrShrinks} leave out the intervals a fault kbench injected
     * explains (a broker it stopped down, or catching up after), whose own are {@code faultUrpMax} and
     * {@code faultIsrShrinks} ({@link io.kbench.coordinator.merge.BrokerWindow}). {@code intervalsRead} of the
     * {@code intervalsAsked} measured intervals had every answering source's figures: the others' are not in any of
     * them (both 0: not counted, taken as whole).
     */
    public record Brokers(double handlerIdle, String handlerSource, double networkIdle, String networkSource,
                          String timeSource, double produceTotalMs, double requestQueueMs, double localMs,
                          double remoteMs, double responseQueueMs, double responseSendMs, double urpMax,
                          double isrShrinks, double logFlushMs, double processCpu, double faultUrpMax,
                          double faultIsrShrinks, int intervalsRead, int intervalsAsked) {
        /** Read in every measured interval. */
        public Brokers(double handlerIdle, String handlerSource, double networkIdle, String networkSource,
                       String timeSource, double produceTotalMs, double requestQueueMs, double localMs,
                       double remoteMs, double responseQueueMs, double responseSendMs, double urpMax,
                       double isrShrinks, double logFlushMs, double processCpu, double faultUrpMax,
                       double faultIsrShrinks) {
            this(handlerIdle, handlerSource, networkIdle, networkSource, timeSource, produceTotalMs, requestQueueMs,
                    localMs, remoteMs, responseQueueMs, responseSendMs, urpMax, isrShrinks, logFlushMs, processCpu,
                    faultUrpMax, faultIsrShrinks, 0, 0);
        }

        /**
         * Words for a figure over the window when the brokers were not read in all of it ("window mean" otherwise):
         * {@code mean of the 7 of 20 measured intervals they were read in}.
         */
        public String over() {
            return intervalsRead < intervalsAsked ? String.format(Locale.ROOT, "mean of the %d of %d measured intervals "
                    + "they were read in", intervalsRead, intervalsAsked) : "window mean";
        }

        /** Without an injected fault: {@code urpMax} and {@code isrShrinks} are the whole window's. */
        public Brokers(double handlerIdle, String handlerSource, double networkIdle, String networkSource,
                       String timeSource, double produceTotalMs, double requestQueueMs, double localMs,
                       double remoteMs, double responseQueueMs, double responseSendMs, double urpMax,
                       double isrShrinks, double logFlushMs, double processCpu) {
            this(handlerIdle, handlerSource, networkIdle, networkSource, timeSource, produceTotalMs, requestQueueMs,
                    localMs, remoteMs, responseQueueMs, responseSendMs, urpMax, isrShrinks, logFlushMs, processCpu, 0, 0);
        }
    }

    /**
     * What a timed warm-up at a target rate sent, from the intervals before the window; -1 for a run without one
     * (unthrottled, by record count, no warm-up). The messages due in it: {@code producerRate × warmupSeconds}.
     */
    public static long warmupSent(Workload workload, List<MergedInterval> intervals, long measureStartMicros) {
        if (workload.warmupSeconds() <= 0 || workload.producerRate() <= 0 || workload.numRecords() > 0) {
            return -1;
        }
        long sent = 0;
        for (MergedInterval i : intervals) {
            if (i.startMicros() < measureStartMicros) {
                sent += i.counters().sent();
            }
        }
        return sent;
    }

    /**
     * True when a warm-up that sent {@code sent} fell short of what was due: by more than 0.5%, and more than one
     * message per producer (the run's issue and the diagnosis judge it alike).
     */
    public static boolean warmupBehind(Workload workload, long sent) {
        return sent >= 0 && sent < 0.995 * workload.producerRate() * workload.warmupSeconds() - workload.producerCount();
    }

    /** {@link #warmupSent} as a share of what was due when the warm-up fell behind ({@link #warmupBehind}); else NaN. */
    static double warmupSentShare(Workload workload, List<MergedInterval> intervals, long measureStartMicros) {
        long sent = warmupSent(workload, intervals, measureStartMicros);
        return warmupBehind(workload, sent) ? sent / (double) (workload.producerRate() * workload.warmupSeconds())
                : Double.NaN;
    }

    /** The figures of a run's measured window; {@code clusterBrokers}: the cluster's brokers, 0 when not known. */
    public static WindowFigures of(Workload workload, Profile profile, List<MergedInterval> intervals,
                                   long measureStartMicros, long measureEndMicros, TrialVerdict verdict,
                                   List<ResultFile.Worker> workers, BrokerWindow brokers, int clusterBrokers) {
        return of(workload, profile, intervals, measureStartMicros, measureEndMicros, verdict, workers, brokers,
                clusterBrokers, null);
    }

    /** As above, with how the messages spread over the partitions ({@code spread}; null when not known). */
    public static WindowFigures of(Workload workload, Profile profile, List<MergedInterval> intervals,
                                   long measureStartMicros, long measureEndMicros, TrialVerdict verdict,
                                   List<ResultFile.Worker> workers, BrokerWindow brokers, int clusterBrokers,
                                   io.kbench.coordinator.merge.PartitionSpread.Result spread) {
        List<MergedInterval> window = MergedInterval.window(intervals, measureStartMicros, measureEndMicros);
        double seconds = 0;
        long sent = 0;
        long acked = 0;
        long failed = 0;
        long received = 0;
        long settled = 0;
        String firstError = "";
        int saturated = 0;
        int stalled = 0;
        long commitCount = 0;
        double commitMicros = 0;
        long commitMax = 0;
        int byCommit = 0;
        long thresholdMicros = workload.saturationDelayMillis() * 1000;
        for (MergedInterval i : window) {
            io.kbench.coordinator.merge.LatencyStats commit = i.stats(io.kbench.protocol.Metric.TRANSACTION_COMMIT);
            commitCount += commit.count();
            commitMicros += commit.count() * commit.mean();
            commitMax = Math.max(commitMax, commit.max());
            if (i.saturated(thresholdMicros) && commit.count() > 0 && commit.max() >= thresholdMicros) {
                byCommit++;
            }
            seconds += i.secondsWithin(measureStartMicros, measureEndMicros); // the summary's window, to the stop
            sent += i.counters().sent();
            acked += i.counters().acked();
            failed += i.counters().failed();
            received += i.counters().received();
            settled += i.counters().shareAccepted() + i.counters().shareRejected();
            if (firstError.isEmpty() && !i.errors().isEmpty()) {
                firstError = i.errors().get(0);
            }
            if (i.saturated(thresholdMicros)) {
                saturated++;
            }
            if (i.saturatedByStall(thresholdMicros)) {
                stalled++;
            }
        }
        long target = workload.producerCount() == 0 ? 0 : workload.producerRate();
        boolean behind = verdict != null && verdict.cause() == TrialVerdict.Cause.generator;
        String behindReason = behind ? String.join("; ", verdict.generatorReasons()) : "";
        Load load = new Load(target, seconds, seconds > 0 ? sent / seconds : 0, seconds > 0 ? acked / seconds : 0,
                verdict != null && verdict.passed(), behind, behindReason, window.size(), saturated,
                workload.saturationDelayMillis(), stalled, warmupSentShare(workload, intervals, measureStartMicros));
        Producers producers = new Producers(workload.producerCount(), TrialVerdict.waitRatio(window),
                meanOf(window, "record-queue-time-avg"), meanOf(window, "request-latency-avg"),
                meanOf(window, "requests-in-flight"), meanOf(window, "batch-size-avg"),
                workload.existingTopics() ? settings(profile).withReplicationUnknown() : settings(profile),
                clusterBrokers > 0 ? Math.min(workload.partitionsPerTopic(), clusterBrokers) : workload.partitionsPerTopic());
        double[] lag = MergedInterval.thirds(window, i -> i.unread() >= 0, MergedInterval::unread);
        double lagFirst = lag[0];
        double lagLast = lag[1];
        int subscriptions = workload.subscriptionsPerTopic();
        // the counts where they tell it (NaN for a backlog run, existing topics, no group): the same as a trial's
        double unread = io.kbench.coordinator.report.UnreadCount.inWindow(workload, acked, received, settled);
        if (workload.consumerBacklogRecords() > 0) {
            // a backlog run holds its consumers until the backlog is built: their lag grows by design, not for want of
            // consumers (the summary's catch-up line is their rate)
            lagFirst = Double.NaN;
            lagLast = Double.NaN;
        }
        // one group's consumers over the topics (a classic subscription's when there are any: the suggestions speak
        // of consumers per partition), against the topics' partitions
        Consumers consumers = new Consumers(workload.topics() * (subscriptions > 0 ? workload.consumersPerSubscription()
                : workload.shareGroups().consumersPerGroup()),
                workload.topics() * workload.partitionsPerTopic(), lagFirst, lagLast, unread,
                workload.consumerProcessing().meanMicros(), subscriptions == 0,
                workload.consumerBacklogRecords() > 0 ? null : io.kbench.coordinator.report.UnreadCount.trend(workload,
                        window));
        Commits commits = !workload.transactional() ? Commits.NONE : new Commits(workload.producerCount(),
                workload.transactions().transactionRecords(), workload.transactions().transactionMillis(), commitCount,
                commitCount == 0 ? 0 : commitMicros / commitCount, commitMax,
                seconds > 0 && workload.producerCount() > 0 ? commitMicros / 1e6 / (workload.producerCount() * seconds) : 0,
                byCommit);
        java.util.Map.Entry<String, Double> underMinIsr = brokers == null ? null : brokers.underMinIsrMax();
        return new WindowFigures(load, producers, hosts(workers, window, thresholdMicros), consumers, brokers(brokers),
                new Errors(failed, sent, firstError, TrialVerdict.unavailableRatio(window),
                        TrialVerdict.unavailableIntervals(window), window.size(),
                        TrialVerdict.unserved(intervals, measureStartMicros, measureEndMicros),
                        intervals.isEmpty() ? 0 : intervals.get(0).startMicros(),
                        underMinIsr == null ? Double.NaN : underMinIsr.getValue(),
                        underMinIsr == null ? "" : underMinIsr.getKey()), commits, spread(spread, workload, load));
    }

    /** How {@code workload}'s messages are keyed, in words (what decides their partition). */
    public static String keys(Workload workload) {
        io.kbench.coordinator.workload.Messages m = workload.messages();
        return switch (m.keyDistribution()) {
            case none -> m.keysAndHeaders().keySize() > 0 ? String.format(Locale.ROOT, "keySize %,d: at most 26 "
                    + "distinct keys (one capital letter repeated, as Kafka's EndToEndLatency)", m.keysAndHeaders().keySize())
                    : "no keys: the producers' partitioner chose";
            case roundRobin -> String.format(Locale.ROOT, "%,d keys in turn", m.keys());
            case random -> String.format(Locale.ROOT, "%,d keys drawn at random", m.keys());
            case zipf -> String.format(Locale.ROOT, "%,d keys drawn by Zipf, exponent %s: key-0 the most frequent",
                    m.keys(), Suggestions.num(m.zipfExponent()));
        };
    }

    /** The busiest partition, its rate the share of every message it took times the rate to keep up with. */
    static Spread spread(io.kbench.coordinator.merge.PartitionSpread.Result r, Workload workload, Load load) {
        if (r == null) {
            return Spread.NONE;
        }
        long all = r.acked().values().stream().mapToLong(a -> java.util.Arrays.stream(a).sum()).sum();
        double produced = load.targetRate() > 0 ? load.targetRate() : load.ackedRate();
        return new Spread(r.topic(), r.partition(), r.share(), r.partitions(), r.skew(),
                all == 0 ? Double.NaN : produced * r.busiestAcked() / all, keys(workload));
    }

    /** The producer settings from {@code profile} (its producer section over common), Kafka's defaults else. */
    static Settings settings(Profile profile) {
        Settings d = Settings.DEFAULTS;
        if (profile == null) {
            return d;
        }
        Map<String, String> p = new java.util.HashMap<>(profile.common());
        p.putAll(profile.producer());
        return new Settings(p.getOrDefault("acks", d.acks()).strip().equals("-1") ? "all" : p.getOrDefault("acks", d.acks()).strip(),
                number(p.get("linger.ms"), d.lingerMs()), (long) number(p.get("batch.size"), d.batchSize()),
                (long) number(p.get("buffer.memory"), d.bufferMemory()),
                (int) number(p.get("max.in.flight.requests.per.connection"), d.maxInFlight()),
                Math.max(1, profile.replicationFactor()),
                p.getOrDefault("compression.type", d.compressionType()).strip().toLowerCase(java.util.Locale.ROOT));
    }

    private static double number(String v, double otherwise) {
        if (v == null) {
            return otherwise;
        }
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            return otherwise; // the client refuses it at start; nothing to diagnose with
        }
    }

    private static double meanOf(List<MergedInterval> window, String metric) {
        double sum = 0;
        int n = 0;
        for (MergedInterval i : window) {
            Double v = i.producerClients().values().get(metric);
            if (v != null && Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    static Hosts hosts(List<ResultFile.Worker> workers, List<MergedInterval> window, long thresholdMicros) {
        ResultFile.Worker busiest = null;
        for (ResultFile.Worker w : workers) {
            if (w.host() != null && (busiest == null || w.host().cpuMean() > busiest.host().cpuMean())) {
                busiest = w;
            }
        }
        if (busiest == null) {
            return Hosts.UNKNOWN;
        }
        long gcMax = 0;
        long stallMax = -1;
        double steal = -1;
        for (MergedInterval i : window) {
            gcMax = Math.max(gcMax, i.hosts().gcMicrosMax());
            stallMax = Math.max(stallMax, i.hosts().stallMicrosMax());
            if (i.saturatedByStall(thresholdMicros)) {
                steal = Math.max(steal, i.hosts().hostStealMax());
            }
        }
        // the busiest host as a whole (every process on it): other processes take the cores a worker's threads need
        ResultFile.Worker busiestHost = null;
        for (ResultFile.Worker w : workers) {
            if (w.host() != null && w.host().hostBusyMean() != null && (busiestHost == null
                    || w.host().hostBusyMean() > busiestHost.host().hostBusyMean())) {
                busiestHost = w;
            }
        }
        return new Hosts(busiest.host().cpuMean(), busiest.id(), gcMax,
                busiest.host().sharedWith() == null ? "" : busiest.host().sharedWith(), stallMax,
                MergedInterval.stalledHostBusy(window, thresholdMicros), steal,
                busiest.host().jitShareMean() == null ? -1 : busiest.host().jitShareMean(),
                busiestHost == null ? -1 : busiestHost.host().hostBusyMean(), busiestHost == null ? "" : busiestHost.id());
    }

    /** The worst source per figure of the brokers' window ({@link BrokerWindow}); null when no source answered. */
    static Brokers brokers(BrokerWindow w) {
        if (w == null || w.answered().isEmpty()) {
            return null;
        }
        double handler = Double.NaN;
        String handlerSource = "";
        double network = Double.NaN;
        String networkSource = "";
        String timeSource = "";
        double total = Double.NaN;
        double urpMax = 0;
        double isr = 0;
        double faultUrp = 0;
        double faultIsr = 0;
        double flush = Double.NaN;
        double cpu = Double.NaN;
        for (String src : w.answered()) {
            double h = w.mean(src, "requestHandlerIdle");
            if (h < handler || Double.isNaN(handler) && !Double.isNaN(h)) {
                handler = h;
                handlerSource = src;
                cpu = w.mean(src, "processCpu");
            }
            double n = w.mean(src, "networkProcessorIdle");
            if (n < network || Double.isNaN(network) && !Double.isNaN(n)) {
                network = n;
                networkSource = src;
            }
            double t = w.mean(src, "produceTotalTimeMsMean");
            if (t > total || Double.isNaN(total) && !Double.isNaN(t)) {
                total = t;
                timeSource = src;
            }
            double f = w.mean(src, "logFlushMsMean");
            if (f > flush || Double.isNaN(flush) && !Double.isNaN(f)) {
                flush = f;
            }
            urpMax = Math.max(urpMax, w.urpMaxBeyondFaults(src));
            isr += w.isrShrinksBeyondFaults(src);
            faultUrp = Math.max(faultUrp, w.urpMaxInFaults(src));
            faultIsr += w.isrShrinksInFaults(src);
        }
        String t = timeSource;
        int[] coverage = w.coverage();
        return new Brokers(handler, handlerSource, network, networkSource, timeSource, total,
                w.mean(t, "produceRequestQueueTimeMsMean"), w.mean(t, "produceLocalTimeMsMean"),
                w.mean(t, "produceRemoteTimeMsMean"), w.mean(t, "produceResponseQueueTimeMsMean"),
                w.mean(t, "produceResponseSendTimeMsMean"), urpMax, isr, flush, cpu, faultUrp, faultIsr,
                coverage[0], coverage[1]);
    }
}
