package io.kbench.coordinator.diagnosis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.kbench.coordinator.report.result.ResultFile;

/**
 * What limited a run, named from its measured window's figures ({@link WindowFigures}) by the rules of
 * docs/diagnosis.md: each rule compares a figure with a threshold that is a fact about Kafka or about kbench's own
 * measurement, never a figure tuned to one machine. A rule that fires is a {@link ResultFile.Limit} with the figures
 * that decided it and the settings to turn next; several may fire, strongest first (strength: how far past its
 * threshold the deciding figure is, from 0 at the threshold to 1 at the figure's extreme). No rule firing names
 * {@link #NONE} when the run kept up with its target, {@link #UNKNOWN} when it did not (or had no target). Pure.
 *
 * <p>Size: over 400 lines because the rules are one method ({@link #of}), in the order docs/diagnosis.md gives
 * them: a later rule reads what an earlier one found (a broker limit takes the producers' waits and the
 * consumers' growing lag as its own evidence instead of naming them limits of their own).
 */
public final class Diagnosis {
    public static final String NONE = "none";
    public static final String UNKNOWN = "unknown";
    public static final String GENERATOR = "generator";
    public static final String TRANSACTIONS = "transactions";
    /**
     * The evidence of a {@link #GENERATOR} limit that says the generator fell behind its schedule, not only that it
     * ran as fast as it could (unthrottled) or on busy cores: more than {@link #SATURATED_SHARE} of the window's
     * intervals saturated (and at least {@link #SATURATED_MIN}), the window sent short of its target, or a warm-up that
     * sent late had its backlog acknowledged in the window ({@link #generatorFellBehind}).
     */
    static final String BEHIND_SATURATED = "saturatedShare";
    static final String BEHIND_SENT = "sentRate";
    static final String BEHIND_WARMUP = "ackedRate";
    /** The evidence of a window that acknowledged above its target while it sent on schedule (a `none` caveat). */
    public static final String WINDOW_BACKLOG = "ackedAboveSent";
    public static final String PRODUCER_CLIENT = "producer-client";
    /** The evidence's words when no broker figure was read (a cluster of yours without a broker source). */
    /**
     * Phrases of the evidence and suggestions that name {@code kbench run}'s flags or a workload's keys; a perf-tool
     * command prints its own flags in their place (its reporter's terms).
     */
    public static final String BROKER_FLAGS = "(--broker-jmx, --broker-metrics)";
    public static final String WARMUP_KEY = "(warmupSeconds)";
    public static final String WARMUP_KEYS = "(warmupSeconds, warmupRecords)";
    public static final String PRODUCERS_KEY = "(producersPerTopic";
    public static final String TRANSACTION_MILLIS_KEY = "transactionMillis";
    /** The warm-up suggestion's start, up to its alternative (workers that stay up between runs). */
    public static final String WARM_UP_OR_WORKERS = "a longer warm-up " + WARMUP_KEY + ", or workers";

    static final String BROKERS_UNREAD = "the brokers were not read " + BROKER_FLAGS;
    public static final String REQUEST_HANDLERS = "broker-request-handlers";
    public static final String NETWORK_THREADS = "broker-network-threads";
    public static final String REPLICATION = "replication";
    public static final String DISK = "broker-disk";
    public static final String CONSUMERS = "consumers";
    public static final String SEND_ERRORS = "send-errors";
    public static final String UNAVAILABLE = "cluster-unavailable";
    public static final String ROUND_TRIP = "round-trip";

    /**
     * True when {@code d} names the producers' settings, or consumers with no work of their own to explain it, without
     * having read the brokers: the clients waited for requests, and a broker that served them slowly (too few request
     * handlers or network threads, say) would look the same from their side. The console and the sweep's table say
     * so beside the name.
     */
    public static boolean brokersUnread(ResultFile.Diagnosis d) {
        return d != null && (PRODUCER_CLIENT.equals(d.limit()) || CONSUMERS.equals(d.limit())) && d.evidence().stream()
                .anyMatch(e -> "brokers".equals(e.figure()) && e.text() != null && e.text().startsWith(BROKERS_UNREAD));
    }

    /** Every name a diagnosis can give, in the order ties are broken. */
    public static final List<String> NAMES = List.of(UNAVAILABLE, SEND_ERRORS, TRANSACTIONS, GENERATOR, PRODUCER_CLIENT,
            REQUEST_HANDLERS, NETWORK_THREADS, REPLICATION, DISK, CONSUMERS, ROUND_TRIP, NONE, UNKNOWN);

    /** Request handlers busier than this (idle below it) are near their limit: Kafka operators alert at 20%. */
    public static final double HANDLER_IDLE = 0.2;
    /** Network threads idle below this are near their limit (operators alert at 30%). */
    public static final double NETWORK_IDLE = 0.3;
    /** The producers waited for the cluster: at least this share of the time waiting for buffer room. */
    public static final double WAIT_RATIO = io.kbench.coordinator.capacity.TrialVerdict.CLUSTER_WAIT_RATIO;
    /**
     * A client host whose cores are this busy (the busiest worker's CPU over the window) delays its own threads: at
     * 80% utilisation a thread that becomes ready waits for a core about four times its own work (M/M/1: ρ/(1-ρ)).
     */
    public static final double HOST_CPU = 0.8;
    /** The evidence's figure for the busiest worker's CPU over the window. */
    static final String WORKER_CPU = "workerCpu";
    /** The busiest worker host as a whole, every process on it counted. */
    static final String WORKER_HOST_BUSY = "workerHostBusy";
    /**
     * A worker whose JIT compilers took at least this share of its CPU over the window was still compiling its hot
     * code (a fresh JVM: the embedded default's process spent 30-45% of its CPU compiling through the quickstart's
     * first minute on 2 cores, under 2% after it); a compiled JVM spends well under 1% there (docs/diagnosis.md).
     */
    public static final double JIT_SHARE = 0.1;
    /** The evidence's figure for the JIT compilers' part of the busiest worker's CPU. */
    static final String WORKER_JIT = "workerJit";
    /** A part of the produce request's time that dominates it: at least this share of the total. */
    public static final double TIME_SHARE = 0.5;
    /** The broker's time is what the producers waited for: its produce time at least this share of theirs. */
    public static final double BROKER_SHARE = 0.5;
    /** Handlers busy while their process uses less than this share of its cores are waiting, not computing. */
    public static final double BUSY_CPU = 0.5;
    /**
     * A generator near its limit: more than this share of the window's intervals saturated, and at least
     * {@link #SATURATED_MIN} of them (in a short window one pause is not a pattern).
     */
    public static final double SATURATED_SHARE = 0.1;
    public static final int SATURATED_MIN = 3;
    /**
     * Failed sends at this share of the window's sends or more are the run's limit at full strength (1); fewer
     * are listed with a strength in proportion.
     */
    public static final double FAILED_FULL = 0.01;
    /**
     * The producers' sends blocked not for buffer room — the client waiting for the cluster's metadata — this share of
     * the window or more: the cluster did not serve them ({@code cluster-unavailable}); the same 1% as the waits for
     * room ({@link #WAIT_RATIO}).
     */
    public static final double UNAVAILABLE_MATTERS = WAIT_RATIO;
    /** ... and strength 1 from this share on (3 s of a 30-s window). */
    public static final double UNAVAILABLE_FULL = 0.1;
    /**
     * Failed sends at this share or more make the load generator's shortfall the cluster's doing: a send that
     * blocks for a broker that is down holds the load thread, so the generator rule is not applied then.
     */
    public static final double FAILED_MATTERS = 0.001;
    /**
     * Unthrottled transactional producers that spent at least this share of their time in {@code commitTransaction()}
     * were paced by their commits more than by anything else.
     */
    public static final double COMMIT_BLOCKED = 0.5;

    private Diagnosis() { }

    /**
     * How many of the saturated intervals a load thread woke from a park at least the saturation threshold late
     * in ({@code hosts.stallMicrosMax}): "" when none was saturated or the workers do not measure stalls.
     */
    static String stalled(WindowFigures.Load l, WindowFigures.Hosts h) {
        if (l.saturated() == 0 || h.stallMaxMicros() < 0) {
            return "";
        }
        return String.format(Locale.ROOT, "; in %d of them a load thread woke from a park %d ms or more late (a "
                + "collection paused the worker, or its host gave the thread no core in time%s)", l.saturatedStalled(),
                l.saturationMillis(), hostDuringStalls(h));
    }

    /**
     * "; in those intervals the worker host was 96% busy on average, every process on it counted, and its hypervisor
     * stole up to 3.0%" (the steal only when there was any), as far as the workers measured it; "" when they did not.
     */
    /**
     * ", 34% of it compiling (the JIT: ...)" when the busiest worker's JIT compilers took at least {@link #JIT_SHARE}
     * of its CPU over the window; "" otherwise or when not measured.
     */
    static String jit(WindowFigures.Hosts h) {
        return h.jitShareOfCpu() < JIT_SHARE ? "" : String.format(Locale.ROOT, ", %s of it compiling (the JIT: a JVM "
                + "still compiling its code)", pct(h.jitShareOfCpu()));
    }

    /**
     * "; in 5 of them a transaction commit took 10 ms or more (...)" for transactional producers whose commits held up
     * some of the saturated intervals; "" otherwise. For the lines that do not name the {@code transactions} limit.
     */
    static String committed(WindowFigures.Load l, WindowFigures.Commits c) {
        if (l.saturated() == 0 || c.count() == 0 || c.saturatedByCommit() == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "; in %d of them a transaction commit took %d ms or more "
                + "(commitTransaction() blocks the producer's load thread while its sends fall due)",
                c.saturatedByCommit(), l.saturationMillis());
    }

    static String hostDuringStalls(WindowFigures.Hosts h) {
        if (h.stalledHostBusy() < 0) {
            return "";
        }
        return String.format(Locale.ROOT, "; in those intervals the worker host was %.0f%% busy on average, every "
                + "process on it counted%s", 100 * h.stalledHostBusy(), h.stalledHostSteal() > 0
                ? String.format(Locale.ROOT, ", and its hypervisor stole up to %.1f%%", 100 * h.stalledHostSteal()) : "");
    }

    /**
     * The diagnosis of a closed-loop window ({@code roundTrip}): its pace is its own round trip, by construction — one
     * message in flight, each sent once the last came back — so no cluster or client figure is its limit.
     *
     * @param ackedRate msg/s acknowledged over the window
     * @param endToEnd  the window's round trips (send -> read back), µs
     * @param acked     the window's send -> ack latency, µs
     */
    public static ResultFile.Diagnosis roundTrip(double ackedRate, io.kbench.coordinator.merge.LatencyStats endToEnd,
                                                 io.kbench.coordinator.merge.LatencyStats acked) {
        List<ResultFile.Evidence> e = List.of(
                new ResultFile.Evidence("roundTripMs", round(endToEnd.mean() / 1000), null, null, String.format(Locale.ROOT,
                        "one message in flight (roundTrip): each was sent once the previous one had been read back; "
                                + "a round trip took %.3f ms on average (send -> ack %.3f ms of it)",
                        endToEnd.mean() / 1000, acked.mean() / 1000)),
                new ResultFile.Evidence("ackedRate", round(ackedRate), null, null, String.format(Locale.ROOT,
                        "%,.0f msg/s: one message per %.3f ms, the round trip and the loop's own turn — a latency probe's "
                                + "pace, not the cluster's capacity", ackedRate, ackedRate > 0 ? 1000 / ackedRate : 0)));
        return new ResultFile.Diagnosis(ROUND_TRIP, 1.0, e, List.of(Suggestions.ROUND_TRIP), List.of());
    }

    /** The diagnosis of a window. */
    public static ResultFile.Diagnosis of(WindowFigures f) {
        WindowFigures.Load l = f.load();
        WindowFigures.Producers p = f.producers();
        WindowFigures.Brokers b = f.brokers();
        List<ResultFile.Limit> found = new ArrayList<>();
        List<ResultFile.Evidence> held = new ArrayList<>();
        boolean producing = p.count() > 0 && l.targetRate() != 0;
        boolean waited = producing && p.waitRatio() >= WAIT_RATIO;
        double queuedBeyond = producing ? queuedBeyond(p) : Double.NaN;
        boolean queued = queuedBeyond > 0;
        double lagSeconds = lagGrowthSeconds(f);
        // or by the trend of the exact counts: a group that reads a few percent too slowly leaves less than a second
        // unread in a short window, but falls behind without end (TrialVerdict.behindTrend, the same rule)
        io.kbench.coordinator.report.UnreadCount.Trend trend = f.consumers().trend();
        double rate = l.targetRate() > 0 ? l.targetRate() : l.ackedRate();
        boolean behind = trend != null && trend.behind(rate);
        boolean lagGrows = lagSeconds > 1 || behind;
        boolean limited = producing && (l.targetRate() < 0 || !l.keptUp() || waited) || lagGrows;
        // sends that blocked waiting for the cluster's metadata (below): the producers' queue times and waits of such a
        // window are the outage's, not their settings'
        boolean unavailable = f.errors().unavailable() >= UNAVAILABLE_MATTERS || f.errors().unserved().intervals() > 0;

        ResultFile.Evidence target = null;
        if (producing && l.targetRate() > 0) {
            target = ev("ackedRate", l.ackedRate(), ">=", 0.995 * l.targetRate(),
                    String.format(Locale.ROOT, "%,.0f msg/s acknowledged against a target of %,d msg/s%s", l.ackedRate(),
                            l.targetRate(), l.keptUp() ? ", and nothing lost, failed or left unread" : ""));
            if (l.keptUp()) {
                held.add(target);
                if (l.ackedRate() > l.targetRate() / 0.995 && l.sentRate() <= l.targetRate() / 0.995) {
                    // sent on schedule, acknowledged above it: acknowledgements held back before the window (a cold
                    // start's) came in it — its rate is not the cluster's steady one, and its first latencies hold
                    // that wait (a warm-up that sent late is the generator's); said beside any verdict that lists
                    // the target as held
                    held.add(ev(WINDOW_BACKLOG, l.ackedRate(), ">", l.targetRate() / 0.995, String.format(Locale.ROOT,
                            "but the window acknowledged %,.0f msg/s for %,.0f msg/s sent in it: acknowledgements held "
                                    + "back before it (a cold start's backlog) came in it, so its rate is above the "
                                    + "target and its first latencies include that wait; a longer warm-up "
                                    + WARMUP_KEYS + " keeps it out", l.ackedRate(), l.sentRate())));
                }
            } else if (l.ackedRate() < 0.995 * l.targetRate()) {
                target = flip(target);
            } else {
                target = null; // acknowledged in full: what the run missed (lag, losses) is the limit's own evidence
            }
        }
        ResultFile.Evidence waitEv = producing ? ev("producerWaitRatio", p.waitRatio(), ">=", WAIT_RATIO,
                String.format(Locale.ROOT, "the producers waited for buffer room %.1f%% of the time", 100 * p.waitRatio()))
                : null;

        // the brokers
        boolean brokerLimit = false;
        if (b == null) {
            held.add(new ResultFile.Evidence("brokers", null, null, null,
                    BROKERS_UNREAD + ": their side is unknown"));
        } else {
            // a broker reads one request of a connection at a time: the requests behind it wait for it too
            double pipelined = b.produceTotalMs() * p.inFlightPerConnection();
            boolean brokerTimeMatters = pipelined >= BROKER_SHARE * p.requestLatencyMs();
            ResultFile.Evidence pipelinedEv = ev("brokerProduceTimePipelinedMs", pipelined, ">=",
                    BROKER_SHARE * p.requestLatencyMs(), String.format(Locale.ROOT, "%.2f ms at the broker × %.1f "
                            + "request(s) in flight per connection = %.2f ms, against the producers' request latency %.2f "
                            + "ms: the producers waited for the broker", b.produceTotalMs(), p.inFlightPerConnection(),
                            pipelined, p.requestLatencyMs()));
            // the request queue is where a request waits for a free request handler (num.io.threads)
            double queueShare = b.requestQueueMs() / b.produceTotalMs();
            boolean handlersBusy = !Double.isNaN(b.handlerIdle()) && b.handlerIdle() < HANDLER_IDLE;
            boolean handlersQueued = !handlersBusy && waited && brokerTimeMatters && queueShare >= TIME_SHARE;
            ResultFile.Evidence handler = ev("requestHandlerIdle", b.handlerIdle(), "<", HANDLER_IDLE,
                    String.format(Locale.ROOT, "request handlers idle %s (%s, %s)", pct(b.handlerIdle()),
                            b.handlerSource(), b.over()));
            double localShare = b.localMs() / b.produceTotalMs();
            if (handlersBusy) {
                brokerLimit = true;
                double strength = (HANDLER_IDLE - b.handlerIdle()) / HANDLER_IDLE;
                List<ResultFile.Evidence> e = new ArrayList<>(List.of(handler));
                e.add(timeSplit(b));
                if (localShare >= TIME_SHARE && b.processCpu() < BUSY_CPU) {
                    e.add(ev("brokerProcessCpu", b.processCpu(), "<", BUSY_CPU, String.format(Locale.ROOT,
                            "the broker's process used %s of its cores: the busy handlers were waiting on the log, "
                                    + "not computing", pct(b.processCpu()))));
                    if (b.logFlushMs() > 0) {
                        e.add(new ResultFile.Evidence("logFlushMs", round(b.logFlushMs()), null, null, String.format(
                                Locale.ROOT, "log flushes took %.2f ms each (all logs, the metadata log's included)",
                                b.logFlushMs())));
                    }
                    found.add(limit(DISK, strength, e, Suggestions.DISK));
                } else {
                    if (!Double.isNaN(b.processCpu())) {
                        String cpu = String.format(Locale.ROOT, "the broker's process used %s of its cores",
                                pct(b.processCpu()));
                        // below BUSY_CPU (the produce time not mostly local): a figure beside the limit, no comparison
                        e.add(b.processCpu() >= BUSY_CPU ? ev("brokerProcessCpu", b.processCpu(), ">=", BUSY_CPU, cpu)
                                : new ResultFile.Evidence("brokerProcessCpu", round(b.processCpu()), null, null, cpu));
                    }
                    found.add(limit(REQUEST_HANDLERS, strength, e, Suggestions.HANDLERS));
                }
            } else if (handlersQueued) {
                // idle on average, yet the producers' requests waited for a handler longer than they were handled:
                // the handlers could not take the requests as they came
                brokerLimit = true;
                List<ResultFile.Evidence> e = new ArrayList<>();
                e.add(ev("produceRequestQueueTimeShare", queueShare, ">=", TIME_SHARE, String.format(Locale.ROOT,
                        "produce requests waited for a request handler %.2f ms of their %.2f ms at the broker (the "
                                + "request queue)", b.requestQueueMs(), b.produceTotalMs())));
                e.add(pipelinedEv);
                e.add(waitEv);
                e.add(timeSplit(b));
                if (!Double.isNaN(b.handlerIdle())) {
                    // above the threshold: a figure beside the limit, without a comparison
                    e.add(new ResultFile.Evidence("requestHandlerIdle", round(b.handlerIdle()), null, null,
                            String.format(Locale.ROOT, "request handlers idle %s (%s, %s): a queue forms "
                                    + "before a pool is busy all the time", pct(b.handlerIdle()), b.handlerSource(), b.over())));
                }
                if (!Double.isNaN(b.processCpu())) {
                    e.add(new ResultFile.Evidence("brokerProcessCpu", round(b.processCpu()), null, null, String.format(
                            Locale.ROOT, "the broker's process used %s of its cores", pct(b.processCpu()))));
                }
                found.add(limit(REQUEST_HANDLERS, (queueShare - TIME_SHARE) / (1 - TIME_SHARE), e, Suggestions.HANDLERS));
            } else if (!Double.isNaN(b.handlerIdle())) {
                held.add(flip(handler));
            }
            if (!Double.isNaN(b.networkIdle()) && b.networkIdle() < NETWORK_IDLE) {
                brokerLimit = true;
                found.add(limit(NETWORK_THREADS, (NETWORK_IDLE - b.networkIdle()) / NETWORK_IDLE, List.of(
                        ev("networkProcessorIdle", b.networkIdle(), "<", NETWORK_IDLE, String.format(Locale.ROOT,
                                "network threads idle %s (%s, %s)", pct(b.networkIdle()), b.networkSource(), b.over())),
                        timeSplit(b)), Suggestions.NETWORK));
            } else if (!Double.isNaN(b.networkIdle())) {
                held.add(ev("networkProcessorIdle", b.networkIdle(), ">=", NETWORK_IDLE, String.format(Locale.ROOT,
                        "network threads idle %s (%s, %s)", pct(b.networkIdle()), b.networkSource(), b.over())));
            }
            double remoteShare = b.remoteMs() / b.produceTotalMs();
            List<ResultFile.Evidence> repl = new ArrayList<>();
            double replStrength = 0;
            if (b.urpMax() > 0) {
                repl.add(ev("underReplicatedPartitions", b.urpMax(), ">", 0, String.format(Locale.ROOT,
                        "up to %.0f under-replicated partition(s)", b.urpMax())));
                replStrength = 1;
            }
            if (b.isrShrinks() > 0) {
                repl.add(ev("isrShrinks", b.isrShrinks(), ">", 0, String.format(Locale.ROOT,
                        "%.0f ISR shrink(s): a follower fell out of sync", b.isrShrinks())));
                replStrength = 1;
            }
            // remote time is the followers' only where there are followers; a transactional producer's requests also
            // wait there for the transaction coordinator's check of a partition new to the transaction (KIP-890)
            boolean transactional = f.commits().producers() > 0;
            if (waited && brokerTimeMatters && remoteShare >= TIME_SHARE && p.settings().followers()) {
                repl.add(ev("produceRemoteTimeShare", remoteShare, ">=", TIME_SHARE, String.format(Locale.ROOT,
                        "produce requests waited for the followers%s %.2f ms of their %.2f ms (acks=%s)",
                        transactional ? " (and, transactional, for the coordinator's check of each partition new to a "
                                + "transaction)" : "", b.remoteMs(), b.produceTotalMs(), p.settings().acks())));
                repl.add(pipelinedEv);
                repl.add(waitEv);
                replStrength = Math.max(replStrength, (remoteShare - TIME_SHARE) / (1 - TIME_SHARE));
            }
            if (!repl.isEmpty()) {
                brokerLimit = true;
                found.add(limit(REPLICATION, replStrength, repl, Suggestions.REPLICATION));
            } else {
                // brokers not read in some intervals (an embedded broker that stopped takes the shared meters with
                // it): nothing is known of those, so the statement says which it covers
                String read = b.intervalsRead() < b.intervalsAsked() ? String.format(Locale.ROOT, " in the %d of %d "
                        + "measured intervals the brokers were read in (the others' are unknown)", b.intervalsRead(),
                        b.intervalsAsked()) : "";
                held.add(new ResultFile.Evidence("underReplicatedPartitions", b.urpMax(), "<=", 0.0,
                        b.faultUrpMax() > 0 || b.faultIsrShrinks() > 0
                                ? "no under-replicated partition, no ISR shrink beyond the fault kbench injected" + read
                                : "no under-replicated partition, no ISR shrink" + read));
            }
            if (b.faultUrpMax() > 0 || b.faultIsrShrinks() > 0) {
                // a broker kbench stopped leaves its partitions under-replicated until it has caught up again: the
                // fault's effect, which says nothing of what replication could keep up with
                held.add(new ResultFile.Evidence("faultUnderReplicatedPartitions", b.faultUrpMax(), null, null,
                        String.format(Locale.ROOT, "up to %.0f under-replicated partition(s) and %.0f ISR shrink(s) "
                                + "while a broker kbench stopped was down or catching up: the fault's, not a limit",
                                b.faultUrpMax(), b.faultIsrShrinks())));
            }
            if (waited) {
                // the producers' waits are the brokers' limit seen from the client
                for (int i = 0; i < found.size(); i++) {
                    if (!found.get(i).evidence().contains(waitEv)) {
                        found.set(i, with(found.get(i), waitEv));
                    }
                }
            }
        }

        // the producers
        if (limited && (waited || queued) && !brokerLimit && !unavailable) {
            List<ResultFile.Evidence> e = new ArrayList<>();
            double strength = 0;
            if (waited) {
                e.add(waitEv);
                strength = (p.waitRatio() - WAIT_RATIO) / (1 - WAIT_RATIO);
            }
            if (queued) {
                e.add(ev("recordQueueTimeMs", p.queueTimeMs(), ">", p.settings().lingerMs() + p.requestLatencyMs(),
                        String.format(Locale.ROOT, "records waited %.2f ms in the producer, beyond linger.ms (%s) and a "
                                + "request's latency (%.2f ms)", p.queueTimeMs(), Suggestions.num(p.settings().lingerMs()),
                                p.requestLatencyMs())));
                strength = Math.max(strength, queuedBeyond / p.queueTimeMs());
            }
            if (b != null) {
                e.add(new ResultFile.Evidence("brokers", null, null, null,
                        "the brokers had room: no broker figure crossed its threshold (" + room(b) + ")"));
            } else {
                e.add(new ResultFile.Evidence("brokers", null, null, null,
                        BROKERS_UNREAD + ": they may be the cause"));
            }
            List<String> next = new ArrayList<>(Suggestions.producers(f.producers(), b, f.spread()));
            if (f.hosts().jitShareOfCpu() >= JIT_SHARE) {
                // a producer still being compiled (and an embedded broker in its process) takes longer per request: the
                // cheapest thing to rule out before turning its settings (a cold run at 790,000 msg/s held half of it)
                next.add(0, Suggestions.warmUp(f.hosts()));
            }
            found.add(limit(PRODUCER_CLIENT, strength, e, next));
        } else if (producing && !waited && !queued) {
            held.add(flip(waitEv));
        }

        // the consumers
        if (lagGrows) {
            ResultFile.Evidence lag = !(lagSeconds > 1) ? ev("consumerDeficitShare", trend.rate() / rate, ">",
                    1 - io.kbench.coordinator.capacity.TrialVerdict.ACHIEVED, String.format(Locale.ROOT, "a group's consumers fell behind by %,.0f msg/s "
                            + "(%.1f%% of the %,.0f msg/s %s): their unread messages grew from %,.0f to %,.0f (medians "
                            + "of the window's first and last thirds)", trend.rate(), 100 * trend.rate() / rate, rate,
                            l.targetRate() > 0 ? "target" : "acknowledged", trend.first(), trend.last()))
                    : ev("consumerLagGrowthSeconds", lagSeconds, ">", 1, counted(f)
                    ? String.format(Locale.ROOT, "a group's consumers left %,.0f of the messages acknowledged in the "
                            + "window unread (%.1f s of production)", f.consumers().unread(), lagSeconds)
                    : String.format(Locale.ROOT, "consumer lag grew from %,.0f to %,.0f messages over the window (%.1f s "
                            + "of production)", f.consumers().lagFirst(), f.consumers().lagLast(), lagSeconds));
            if (brokerLimit) {
                // the brokers' limit explains it
                for (int i = 0; i < found.size(); i++) {
                    found.set(i, with(found.get(i), lag));
                }
            } else {
                // consumers with work of their own per message: what they can take at most, against the production
                WindowFigures.Consumers c = f.consumers();
                // the rate they must keep up with: the target's (a measured rate a hair above it would ask for one
                // consumer more), else what was acknowledged
                double produced = l.targetRate() > 0 ? l.targetRate() : l.ackedRate();
                boolean processingBound = c.processingCapacity() < 0.995 * produced;
                ResultFile.Evidence capacity = !processingBound ? null : ev("consumerCapacity", c.processingCapacity(),
                        "<", produced, String.format(Locale.ROOT, "each consumer spends %.2f ms on a message "
                                + "(consumerProcessingMillis, mean): at most %,.0f msg/s each, %,.0f msg/s for the %d "
                                + "consumer(s) that read%s, against %,.0f msg/s produced%s", c.processingMicros() / 1e3,
                                1e6 / c.processingMicros(), c.processingCapacity(), c.reading(), c.share() ? ""
                                        : c.count() > c.partitions() ? String.format(Locale.ROOT, " (%d partition(s): a "
                                        + "classic group's consumers beyond them have none)", c.partitions())
                                        : " (one partition each, or more)", produced,
                                l.targetRate() > 0 ? " (the target)" : ""));
                List<ResultFile.Evidence> evidence = new ArrayList<>(List.of(lag));
                if (capacity != null) {
                    evidence.add(capacity);
                }
                // a hot partition: a classic group reads each partition with one consumer, and a share group's simple
                // assignor gives each of its consumers one partition (by its member id's hash, the rest round-robin),
                // so about consumers / partitions of them share one, at least one: a partition that takes more than its
                // share is read no faster than they go
                WindowFigures.Spread spread = f.spread();
                boolean hot = spread.hot();
                double oneConsumer = c.processingMicros() > 0 ? 1e6 / c.processingMicros() : Double.NaN;
                double onIt = c.onePartitionsConsumers();
                boolean hotBound = hot && !processingBound && spread.rate() > 1.005 * onIt * oneConsumer;
                if (hot) {
                    evidence.add(ev("partitionSkew", spread.skew(), ">=", io.kbench.coordinator.merge.PartitionSpread
                            .HOT_SKEW, String.format(Locale.ROOT, "partition %d of %s took %.1f%% of its messages, "
                                    + "%.2fx an even share of its %d partitions (%s)", spread.partition(), spread.topic(),
                            100 * spread.share(), spread.skew(), spread.partitions(), spread.keys())));
                }
                if (hotBound) {
                    evidence.add(ev("busiestPartitionRate", spread.rate(), ">", onIt * oneConsumer, String.format(
                            Locale.ROOT, "that partition took %,.0f msg/s; %s, at %.2f ms a message "
                                    + "(consumerProcessingMillis, mean), take%s at most %,.0f msg/s, while the group as a "
                                    + "whole could take %,.0f", spread.rate(), c.share() ? String.format(Locale.ROOT,
                                    "the share group's consumers on it — about %s (Kafka's simple assignor gives each "
                                    + "consumer one partition, by its member id's hash)", Suggestions.num(onIt))
                                    : "the one consumer of the group that reads it", c.processingMicros() / 1e3,
                            c.share() ? "" : "s", onIt * oneConsumer, c.processingCapacity())));
                }
                if (b == null && !processingBound && !hotBound) {
                    // nothing of the consumers' own explains it, and the brokers' side is unknown: a broker short of
                    // network threads or handlers for the fetches looks the same from the consumers
                    evidence.add(new ResultFile.Evidence("brokers", null, null, null,
                            BROKERS_UNREAD + ": they may be the cause"));
                }
                found.add(limit(CONSUMERS, Math.min(1, Math.max(lagSeconds / Math.max(1, l.seconds()),
                        behind ? trend.rate() / rate : 0)), evidence,
                        hot ? Suggestions.hotPartition(c, spread, hotBound, processingBound ? produced : Double.NaN)
                                : Suggestions.consumers(c, processingBound ? produced : Double.NaN)));
            }
        }

        // failed sends: the cluster refused or timed out records (a broker down, NotEnoughReplicas, a quota); the
        // sends that blocked meanwhile are the cluster's, not the load generator's
        WindowFigures.Errors errors = f.errors();
        double failedShare = (double) errors.failed() / Math.max(1, errors.sent());
        boolean failing = errors.failed() > 0 && failedShare >= FAILED_MATTERS;
        if (errors.failed() > 0) {
            double share = failedShare;
            // strength: 1 from FAILED_FULL of the sends on; a handful of failures in a long run is listed, last
            found.add(limit(SEND_ERRORS, Math.min(1, share / FAILED_FULL), List.of(ev("failedSends", errors.failed(), ">", 0, String.format(Locale.ROOT,
                    "%,d of the %,d sends in the window failed (%.2f%%)%s", errors.failed(), errors.sent(), 100 * share,
                    errors.first().isEmpty() ? "" : "; the first error: " + errors.first()))), Suggestions.SEND_ERRORS));
        }

        // the cluster did not serve the producers: whole intervals without an acknowledgement while they waited on it
        // (a broker down or frozen), or sends that blocked waiting for its metadata (no broker answering, a partition
        // without a leader). Its load threads held in send(), the generator falls behind and its delays and saturated
        // intervals are the cluster's (and, the sends due meanwhile going out at once when it answers again, a window
        // can still have its target acknowledged while the cluster did not serve for seconds)
        // ... or sends left waiting whole intervals while younger ones were acknowledged: a partition not served (no
        // leader, too few in-sync replicas for acks=all). The load threads went on sending, so the generator's figures
        // stay its own, and the producers' rules stand beside it
        io.kbench.coordinator.capacity.TrialVerdict.Unserved u = errors.unserved();
        if (unavailable || u.partly() > 0) {
            List<ResultFile.Evidence> e = new ArrayList<>();
            double strength = 0;
            if (u.intervals() > 0) {
                double share = (double) u.intervals() / Math.max(1, errors.intervals());
                e.add(ev("unservedIntervals", u.intervals(), ">=", 1, String.format(Locale.ROOT, "the cluster "
                        + "acknowledged nothing in %d of the window's %d interval(s), from %.0f s to %.0f s of the run, "
                        + "while the producers had messages outstanding or blocked in send(): it did not serve them",
                        u.intervals(), errors.intervals(), (u.firstStartMicros() - errors.runStartMicros()) / 1e6,
                        (u.lastEndMicros() - errors.runStartMicros()) / 1e6)));
                strength = Math.min(1, share / UNAVAILABLE_FULL);
            }
            if (errors.unavailable() >= UNAVAILABLE_MATTERS) {
                e.add(ev("sendBlockedRatio", errors.unavailable(), ">=", UNAVAILABLE_MATTERS, String.format(Locale.ROOT,
                        "the producers' send() blocked %.1f%% of the window (in %d of %d interval(s) half of the time or "
                                + "more) and not for buffer room (that is %.1f%%): the client waited for the cluster's "
                                + "metadata — no broker answering, or a partition without a leader; each send waits up to "
                                + "max.block.ms", 100 * errors.unavailable(), errors.unavailableIntervals(),
                        errors.intervals(), 100 * p.waitRatio())));
                strength = Math.max(strength, Math.min(1, errors.unavailable() / UNAVAILABLE_FULL));
            }
            if (u.partly() > 0) {
                e.add(ev("unackedAgeMs", u.oldestUnackedMillis(), ">", u.thresholdMillis(), String.format(
                        Locale.ROOT, "in %d of the window's %d interval(s), from %.0f s to %.0f s of the run, a send "
                                + "waited the whole interval unacknowledged while younger ones were acknowledged: one "
                                + "had waited %,.1f s at an interval's end, longer than that interval (%,.0f ms) and its "
                                + "slowest acknowledgement (%,.1f ms) together — part of the cluster did not serve them "
                                + "(a partition without a leader, or without enough in-sync replicas for acks=all; the "
                                + "client retries such a send until delivery.timeout.ms)", u.partly(), errors.intervals(),
                        (u.partlyFirstMicros() - errors.runStartMicros()) / 1e6,
                        (u.partlyLastMicros() - errors.runStartMicros()) / 1e6, u.oldestUnackedMillis() / 1e3,
                        u.intervalMillis(), u.latencyMaxMillis())));
                strength = Math.max(strength, Math.min(1, (double) u.partly() / Math.max(1, errors.intervals())
                        / UNAVAILABLE_FULL));
            }
            if (errors.underMinIsr() > 0) {
                // why, from the brokers' side: partitions whose acks=all writes the leader refuses (NOT_ENOUGH_REPLICAS,
                // retried by the producer until delivery.timeout.ms) — the sends left waiting while the others were served
                e.add(ev("underMinIsrPartitions", errors.underMinIsr(), ">", 0, String.format(Locale.ROOT, "%s led up to "
                        + "%.0f partition(s) with fewer in-sync replicas than min.insync.replicas (the most of any broker "
                        + "source in an interval): it refuses acks=all writes to them with NOT_ENOUGH_REPLICAS, and the "
                        + "producer retries them until delivery.timeout.ms", errors.underMinIsrSource(),
                        errors.underMinIsr())));
            }
            found.add(limit(UNAVAILABLE, strength, e, Suggestions.UNAVAILABLE));
        }

        // the load generator: its threads, or its host's CPU
        if (producing && !failing && !unavailable) {
            double saturatedShare = l.intervals() == 0 ? 0 : (double) l.saturated() / l.intervals();
            WindowFigures.Hosts h = f.hosts();
            List<ResultFile.Evidence> e = new ArrayList<>();
            double strength = -1;
            if (!waited && l.targetRate() < 0) {
                e.add(ev("producerWaitRatio", p.waitRatio(), "<", WAIT_RATIO, String.format(Locale.ROOT,
                        "unthrottled, and the producers waited for the cluster only %.1f%% of the time: they sent "
                                + "%,.0f msg/s as fast as their threads could", 100 * p.waitRatio(), l.sentRate())));
                strength = 1 - p.waitRatio() / WAIT_RATIO;
            } else if (!waited && l.generatorBehind()) {
                e.add(ev(BEHIND_SENT, l.sentRate(), "<", 0.995 * l.targetRate(), l.behindReason()));
                strength = Math.max(0.05, Math.min(1, 1 - l.sentRate() / l.targetRate()));
            } else if (!waited && l.targetRate() > 0 && l.ackedRate() > l.targetRate() / 0.995
                    && l.warmupSentShare() < 0.995) {
                // the window's sends kept their schedule, but the warm-up's came late and were acknowledged in it: the
                // window's rate is above the target and its first latencies include their wait (the sweep's "fell
                // behind" column says so too)
                e.add(ev(BEHIND_WARMUP, l.ackedRate(), ">", l.targetRate() / 0.995, String.format(Locale.ROOT,
                        "%,.0f msg/s acknowledged against a target of %,d msg/s: the warm-up sent %.1f%% of the messages "
                                + "due in it (the load generator ran behind before the window) and what it sent late was "
                                + "acknowledged in the window, whose first latencies include that backlog's wait",
                        l.ackedRate(), l.targetRate(), 100 * l.warmupSentShare())));
                strength = Math.max(0.05, Math.min(1, l.ackedRate() / l.targetRate() - 1));
            }
            if (!waited && saturatedShare > SATURATED_SHARE && l.saturated() >= SATURATED_MIN) {
                e.add(ev(BEHIND_SATURATED, saturatedShare, ">", SATURATED_SHARE, String.format(Locale.ROOT,
                        "%d of %d interval(s) saturated (publish delay p99 above %d ms)%s", l.saturated(), l.intervals(),
                        l.saturationMillis(), stalled(l, h))));
                strength = Math.max(strength, (saturatedShare - SATURATED_SHARE) / (1 - SATURATED_SHARE));
            } else if (l.targetRate() > 0 && saturatedShare > SATURATED_SHARE && waited) {
                // the sends that were late waited for buffer room: the producers' pipeline held them back (a limit above says whose)
                held.add(ev("producerWaitRatio", p.waitRatio(), ">=", WAIT_RATIO, String.format(Locale.ROOT,
                        "%d of %d interval(s) saturated while the producers waited for buffer room %.1f%% of the time: "
                                + "the sends were held back by the producers' pipeline to the brokers (their buffer "
                                + "full), not by the load generator%s%s", l.saturated(), l.intervals(), 100 * p.waitRatio(),
                        stalled(l, h), committed(l, f.commits()))));
            } else if (l.targetRate() > 0 && saturatedShare > SATURATED_SHARE) {
                held.add(new ResultFile.Evidence("saturatedIntervals", (double) l.saturated(), "<", (double) SATURATED_MIN,
                        String.format(Locale.ROOT, "%d of %d interval(s) saturated: fewer than %d, a pause rather than "
                                + "a pattern%s%s", l.saturated(), l.intervals(), SATURATED_MIN, stalled(l, h),
                                committed(l, f.commits()))));
            } else if (l.targetRate() > 0) {
                held.add(ev("saturatedShare", saturatedShare, "<=", SATURATED_SHARE, String.format(Locale.ROOT,
                        "%d of %d interval(s) saturated%s%s", l.saturated(), l.intervals(), stalled(l, h),
                        committed(l, f.commits()))));
            }
            // transactional producers: commitTransaction() blocks the load thread, so the generator's delay is the
            // commits' when they explain it (docs/diagnosis.md, transactions)
            WindowFigures.Commits c = f.commits();
            if (strength >= 0 && c.count() > 0 && (l.targetRate() < 0 ? c.blockedShare() >= COMMIT_BLOCKED
                    : c.saturatedByCommit() > l.saturatedStalled() && 2 * c.saturatedByCommit() >= l.saturated())) {
                List<ResultFile.Evidence> t = new ArrayList<>();
                if (l.targetRate() < 0) {
                    t.add(ev("commitBlockedShare", c.blockedShare(), ">=", COMMIT_BLOCKED, commitText(c, l)));
                } else {
                    t.add(ev("saturatedByCommit", c.saturatedByCommit(), ">", l.saturatedStalled(), String.format(
                            Locale.ROOT, "in %d of the %d saturated interval(s) a commit took %d ms or more (in %d a "
                                    + "load thread woke late from a park)", c.saturatedByCommit(), l.saturated(),
                            l.saturationMillis(), l.saturatedStalled())));
                    t.add(new ResultFile.Evidence("commitBlockedShare", round(c.blockedShare()), null, null,
                            commitText(c, l)));
                }
                t.addAll(e);
                found.add(limit(TRANSACTIONS, strength, t, Suggestions.transactions(c)));
                strength = -1;
                e.clear();
            }
            String commits = committed(l, c);
            if (strength >= 0 && !commits.isEmpty()) {
                // the generator's limit after all: its saturated intervals' long commits are part of the picture
                e.replaceAll(x -> x.figure().equals("saturatedShare")
                        ? new ResultFile.Evidence(x.figure(), x.value(), x.op(), x.threshold(), x.text() + commits) : x);
            }
            String cpuText = Double.isNaN(h.cpu()) ? "" : String.format(Locale.ROOT,
                    "the busiest worker (%s) used %s of its cores%s; its longest collection in an interval %.1f ms",
                    h.worker(), pct(h.cpu()), h.sharedWith().isEmpty() ? "" : ", shared with the " + h.sharedWith(),
                    h.gcMaxMicros() / 1e3);
            if (limited && h.cpu() >= HOST_CPU) {
                // a client host with its cores busy delays every thread that must react: the clients' I/O threads too
                e.add(ev("workerCpu", h.cpu(), ">=", HOST_CPU, cpuText));
                strength = Math.max(strength, (h.cpu() - HOST_CPU) / (1 - HOST_CPU));
            } else if (strength >= 0 && !cpuText.isEmpty()) {
                e.add(new ResultFile.Evidence("workerCpu", round(h.cpu()), null, null, cpuText));
            }
            if (strength >= 0 && h.jitShareOfCpu() >= JIT_SHARE) {
                // the compilers run on the cores the load threads need; a figure beside the CPU, not a limit of its own
                e.add(ev(WORKER_JIT, h.jitShareOfCpu(), ">=", JIT_SHARE, String.format(Locale.ROOT, "the busiest "
                        + "worker's JIT compilers took %s of its CPU over the window (%s of its cores): a JVM still "
                        + "compiling its code, on the cores its load threads need", pct(h.jitShareOfCpu()), pct(h.jit()))));
            }
            if (strength >= 0) {
                found.add(limit(GENERATOR, strength, e, Suggestions.generator(h, l, h.cpu() >= HOST_CPU, p.settings())));
            }
        }

        sharedCores(found, f.hosts());
        found.sort(Comparator.comparingDouble((ResultFile.Limit x) -> -x.strength())
                .thenComparingInt(x -> NAMES.indexOf(x.limit())));
        if (found.isEmpty()) {
            if (producing && l.targetRate() > 0 && l.keptUp()) {
                // the target was met; whether the client host had room for more is a figure the reader checks too
                WindowFigures.Hosts h = f.hosts();
                if (!Double.isNaN(h.cpu())) {
                    held.add(h.cpu() >= HOST_CPU
                            ? ev(WORKER_CPU, h.cpu(), ">=", HOST_CPU, String.format(Locale.ROOT, "but the busiest worker "
                                    + "(%s) used %s of its cores%s%s: near its limit, where a thread that becomes ready "
                                    + "waits for a core about four times its own work; a higher rate may be held "
                                    + "back by it rather than by the cluster", h.worker(), pct(h.cpu()),
                                    h.sharedWith().isEmpty() ? "" : ", shared with the " + h.sharedWith(), jit(h)))
                            : ev(WORKER_CPU, h.cpu(), "<", HOST_CPU, String.format(Locale.ROOT,
                                    "the busiest worker (%s) used %s of its cores%s%s", h.worker(), pct(h.cpu()),
                                    h.sharedWith().isEmpty() ? "" : ", shared with the " + h.sharedWith(), jit(h))));
                    if (h.cpu() < HOST_CPU && h.hostBusy() >= HOST_CPU) {
                        // the worker's own process had room, its host did not: other processes (a broker, other
                        // workers) took the cores its load threads and clients' I/O threads need
                        held.add(ev(WORKER_HOST_BUSY, h.hostBusy(), ">=", HOST_CPU, String.format(Locale.ROOT,
                                "but the busiest worker's host (%s) was %s busy on average, every process on it "
                                        + "counted: near its limit, with other processes on the cores its load threads "
                                        + "need; a higher rate may be held back by it rather than by the cluster",
                                h.busiestHost(), pct(h.hostBusy()))));
                    }
                }
                return new ResultFile.Diagnosis(NONE, 0.0, List.copyOf(held), List.of(), List.of());
            }
            held.add(0, target != null ? target : new ResultFile.Evidence("target", null, null, null,
                    !producing ? "no producers: no target to keep up with"
                            : l.targetRate() < 0 ? "unthrottled: no target to keep up with"
                            : "the target was acknowledged, but the run did not keep up (failed, lost or unread "
                            + "messages: see the run's issues)"));
            held.add(1, new ResultFile.Evidence("thresholds", null, null, null, "no figure crossed its threshold"));
            return new ResultFile.Diagnosis(UNKNOWN, 0.0, List.copyOf(held), List.of(), List.of());
        }
        if (target != null && !l.keptUp()) {
            List<ResultFile.Evidence> e = new ArrayList<>(found.get(0).evidence());
            e.add(0, target);
            found.set(0, new ResultFile.Limit(found.get(0).limit(), found.get(0).strength(), e, found.get(0).suggestions()));
        }
        ResultFile.Limit top = found.get(0);
        return new ResultFile.Diagnosis(top.limit(), top.strength(), top.evidence(), top.suggestions(),
                List.copyOf(found.subList(1, found.size())), held);
    }

    /** How many ms records waited in the producer beyond linger.ms and one request latency (≤ 0: not beyond). */
    static double queuedBeyond(WindowFigures.Producers p) {
        if (Double.isNaN(p.queueTimeMs()) || Double.isNaN(p.requestLatencyMs())) {
            return Double.NaN;
        }
        return p.queueTimeMs() - p.settings().lingerMs() - p.requestLatencyMs();
    }

    /**
     * Lag growth over the window in seconds of production: the larger of the sampled lag's growth and the messages
     * left unread by the window's counts (NaN: unknown or no production to measure it by).
     */
    static double lagGrowthSeconds(WindowFigures f) {
        WindowFigures.Consumers c = f.consumers();
        double rate = f.load().targetRate() > 0 ? f.load().targetRate() : f.load().ackedRate();
        if (c.count() == 0 || rate <= 0 || Double.isNaN(c.lagFirst()) && Double.isNaN(c.unread())) {
            return Double.NaN;
        }
        double sampled = Double.isNaN(c.lagFirst()) ? Double.NEGATIVE_INFINITY : (c.lagLast() - c.lagFirst()) / rate;
        double counted = Double.isNaN(c.unread()) ? Double.NEGATIVE_INFINITY : c.unread() / rate;
        return Math.max(sampled, counted);
    }

    /** True when the window's counts, not the sampled lag, give {@link #lagGrowthSeconds}. */
    private static boolean counted(WindowFigures f) {
        WindowFigures.Consumers c = f.consumers();
        return !Double.isNaN(c.unread()) && (Double.isNaN(c.lagFirst()) || c.unread() > c.lagLast() - c.lagFirst());
    }

    private static ResultFile.Evidence timeSplit(WindowFigures.Brokers b) {
        return new ResultFile.Evidence("produceTotalTimeMs", round(b.produceTotalMs()), null, null,
                Double.isNaN(b.produceTotalMs()) ? "no produce request times"
                        : String.format(Locale.ROOT, "produce requests took %.2f ms (%s): request queue %.2f, local %.2f, "
                                + "remote %.2f, response queue %.2f, send %.2f", b.produceTotalMs(), b.timeSource(),
                        b.requestQueueMs(), b.localMs(), b.remoteMs(), b.responseQueueMs(), b.responseSendMs()));
    }

    /** The commits in words: how many, how long, and what share of the producers' time they blocked. */
    private static String commitText(WindowFigures.Commits c, WindowFigures.Load l) {
        return String.format(Locale.ROOT, "%,d commit(s) in the window (%,.0f/s), %.2f ms on average, the longest "
                        + "%.1f ms: the %d producer(s) spent %.0f%% of their time in commitTransaction(), which blocks the "
                        + "sends due meanwhile", c.count(), l.seconds() > 0 ? c.count() / l.seconds() : 0, c.meanMicros() / 1e3,
                c.maxMicros() / 1e3, c.producers(), 100 * c.blockedShare());
    }

    private static ResultFile.Limit limit(String name, double strength, List<ResultFile.Evidence> evidence,
                                          List<String> suggestions) {
        return new ResultFile.Limit(name, round(Math.max(0, Math.min(1, strength))),
                evidence.stream().filter(java.util.Objects::nonNull).toList(), suggestions);
    }

    /**
     * A broker thread pool named busy while the broker ran in the busiest worker's own process on a host near its
     * limit (the embedded default): its threads waited for cores the clients were using as much as for work, so
     * the limit says so and asks for brokers on cores of their own before more threads — which on the same cores
     * take CPU from the clients, whatever {@code num.io.threads} says. (The 100-topic embedded run: handlers idle
     * 5%, 200 clients on the same 2 cores.)
     */
    static void sharedCores(List<ResultFile.Limit> found, WindowFigures.Hosts h) {
        double busy = Math.max(Double.isNaN(h.cpu()) ? -1 : h.cpu(), h.hostBusy());
        if (!h.sharedWith().contains("embedded broker") || busy < HOST_CPU) {
            return;
        }
        for (int i = 0; i < found.size(); i++) {
            ResultFile.Limit l = found.get(i);
            if (!REQUEST_HANDLERS.equals(l.limit()) && !NETWORK_THREADS.equals(l.limit())) {
                continue;
            }
            boolean whole = h.hostBusy() >= h.cpu() || Double.isNaN(h.cpu());
            ResultFile.Evidence e = ev(whole ? WORKER_HOST_BUSY : "workerCpu", busy, ">=", HOST_CPU, String.format(
                    Locale.ROOT, "the broker ran in the process of worker %s, whose %s %s busy over the window: its "
                            + "threads waited for cores the clients used as well as for work", h.worker(),
                    whole ? "host was" : "process kept its cores", pct(busy)));
            List<String> next = new ArrayList<>();
            next.add("brokers on cores of their own (a cluster given with --bootstrap-servers, on hosts without "
                    + "workers) before more broker threads: more threads on the same cores take the clients' CPU");
            next.addAll(l.suggestions());
            found.set(i, new ResultFile.Limit(l.limit(), l.strength(), with(l, e).evidence(), next));
        }
    }

    private static ResultFile.Limit with(ResultFile.Limit l, ResultFile.Evidence e) {
        List<ResultFile.Evidence> all = new ArrayList<>(l.evidence());
        all.add(e);
        return new ResultFile.Limit(l.limit(), l.strength(), all, l.suggestions());
    }

    /** The broker figures a "had room" verdict rests on, as they were: request handler and network thread idle. */
    private static String room(WindowFigures.Brokers b) {
        List<String> parts = new ArrayList<>();
        if (!Double.isNaN(b.handlerIdle())) {
            parts.add("request handlers idle " + pct(b.handlerIdle()));
        }
        if (!Double.isNaN(b.networkIdle())) {
            parts.add("network threads idle " + pct(b.networkIdle()));
        }
        if (!Double.isNaN(b.produceTotalMs())) {
            parts.add(String.format(Locale.ROOT, "produce requests %.2f ms at the broker", b.produceTotalMs()));
        }
        return parts.isEmpty() ? "no idle figure was read" : String.join(", ", parts);
    }

    /**
     * The evidence by which a result's diagnosis says its load generator fell behind its schedule — a {@link #GENERATOR}
     * limit, first or among the others, with {@link #BEHIND_SATURATED}, {@link #BEHIND_SENT} or {@link #BEHIND_WARMUP}
     * — or null when it does not (none of those; a generator named only for running unthrottled or on busy cores kept
     * whatever schedule it had). Such a run's latencies include the generator's own backlog: a measure of its host as
     * much as of the cluster.
     */
    public static ResultFile.Evidence generatorFellBehind(ResultFile.Diagnosis d) {
        if (d == null) {
            return null;
        }
        List<ResultFile.Limit> limits = new ArrayList<>();
        limits.add(new ResultFile.Limit(d.limit(), d.strength(), d.evidence(), d.suggestions()));
        if (d.alsoLimitedBy() != null) {
            limits.addAll(d.alsoLimitedBy());
        }
        for (ResultFile.Limit l : limits) {
            if (GENERATOR.equals(l.limit()) && l.evidence() != null) {
                for (ResultFile.Evidence e : l.evidence()) {
                    // each with the side of its threshold the rule wrote: a limit's first evidence may be the same
                    // figure seen otherwise (the window's acknowledged rate short of its target)
                    if (e != null && e.figure() != null && (e.figure().equals(BEHIND_SATURATED) && ">".equals(e.op())
                            || e.figure().equals(BEHIND_SENT) && "<".equals(e.op())
                            || e.figure().equals(BEHIND_WARMUP) && ">".equals(e.op()))) {
                        return e;
                    }
                }
            }
        }
        return null;
    }

    private static ResultFile.Evidence ev(String figure, double value, String op, double threshold, String text) {
        return new ResultFile.Evidence(figure, round(value), op, round(threshold), text);
    }

    /** The same figure seen on the side of its threshold that held. */
    private static ResultFile.Evidence flip(ResultFile.Evidence e) {
        String op = switch (e.op()) {
            case "<" -> ">=";
            case ">=" -> "<";
            case ">" -> "<=";
            default -> ">";
        };
        return new ResultFile.Evidence(e.figure(), e.value(), op, e.threshold(), e.text());
    }

    private static Double round(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v * 1000) / 1000.0;
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }
}
