package io.kbench.coordinator.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.plan.Plan;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.coordinator.workload.Profile;
import io.kbench.coordinator.workload.Workload;

/**
 * The prepare step: hands every worker its share and waits until the run can start. The first worker creates
 * (or checks) the topics before any other builds clients for them; the others prepare in parallel; then the
 * workers are polled until every consumer group owns all its partitions, twice in a row, within
 * {@link #READY_TIMEOUT}. Refusals, unreachable workers and a timeout are one-line {@link UserException}s.
 */
final class Preparation {
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    static final Duration POLL_EVERY = Duration.ofMillis(100);

    private final Workload workload;
    private final Profile profile;
    private final long intervalMicros;
    private final CoordinatorClock clock;
    private final Supplier<String> failure;
    private final java.util.function.Consumer<String> note;
    private io.kbench.coordinator.report.result.ResultFile.Cluster cluster;
    private boolean dumpClientMetrics;

    /** @param failure the run's failure so far (Ctrl-C during prepare), or null */
    Preparation(Workload workload, Profile profile, long intervalMicros, CoordinatorClock clock,
                Supplier<String> failure) {
        this(workload, profile, intervalMicros, clock, failure, line -> { });
    }

    /** @param note where progress lines go (topics ready, clients built, consumers joining) */
    Preparation(Workload workload, Profile profile, long intervalMicros, CoordinatorClock clock,
                Supplier<String> failure, java.util.function.Consumer<String> note) {
        this.note = note;
        this.workload = workload;
        this.profile = profile;
        this.intervalMicros = intervalMicros;
        this.clock = clock;
        this.failure = failure;
    }

    /** The broker sources the first worker reads every interval ("local" or JMX HOST:PORT). */
    Preparation brokerSources(List<String> sources) {
        this.brokerSources = List.copyOf(sources);
        return this;
    }

    private List<String> brokerSources = List.of();

    /**
     * Called with the topics' partition counts once the first worker has made or found them, before any other worker
     * prepares (an existing topic's count is known only then); what it throws fails the preparation (every worker is
     * stopped, nothing has run).
     */
    Preparation topicsKnown(java.util.function.Consumer<Map<String, Integer>> check) {
        this.topicsKnown = check;
        return this;
    }

    private java.util.function.Consumer<Map<String, Integer>> topicsKnown = partitions -> { };

    /** Asks every worker for its clients' full metrics in its last snapshot (the tools' --print-metrics). */
    Preparation dumpClientMetrics(boolean dump) {
        this.dumpClientMetrics = dump;
        return this;
    }

    /**
     * @param offsets each worker's clock offset (µs)
     * @return the longest time a consumer took from being built to its first assignment (µs)
     */
    long prepare(Workers workers, Plan plan, List<Long> offsets) {
        List<WorkerClient.Share> shares = shares(plan, offsets, workers.size());
        long started = clock.micros();
        WorkerClient.Readiness first = Workers.setup(() -> workers.get(0).prepare(shares.get(0)));
        cluster = first.cluster();
        Map<String, Integer> topicPartitions = first.topicPartitions();
        int partitions = topicPartitions.values().stream().mapToInt(Integer::intValue).sum();
        note.accept(String.format("prepare: %d topic(s) %s (%,d partitions); worker 1/%d's clients built (%s)",
                topicPartitions.size(), workload.existingTopics() ? "found" : "ready", partitions, workers.size(),
                seconds(clock.micros() - started)));
        topicsKnown.accept(topicPartitions);
        List<CompletableFuture<WorkerClient.Readiness>> rest = new ArrayList<>();
        for (int i = 1; i < workers.size(); i++) {
            int w = i;
            rest.add(CompletableFuture.supplyAsync(() -> workers.get(w).prepare(shares.get(w))));
        }
        for (CompletableFuture<WorkerClient.Readiness> f : rest) {
            Workers.setup(() -> Workers.join(f));
        }
        Map<String, Integer> groups = groupPartitions(plan, topicPartitions);
        if (workers.size() > 1) {
            note.accept(String.format("prepare: clients built on all %d workers (%s)", workers.size(),
                    seconds(clock.micros() - started)));
        }
        long rebalance = awaitAssignments(workers, plan.runId(), groups, started);
        note.accept(String.format("prepare: ready in %s%s", seconds(clock.micros() - started), groups.isEmpty() ? ""
                : groups.size() == 1
                ? String.format(" (1 consumer group owns its %,d partitions; slowest consumer assigned after %s)",
                        groups.values().iterator().next(), seconds(rebalance))
                // each group reads its topics' partitions: the sum counts a partition once per group that reads it
                : String.format(" (%d consumer groups own their topics' partitions, %,d assignments in all; slowest "
                        + "consumer assigned after %s)", groups.size(),
                        groups.values().stream().mapToInt(Integer::intValue).sum(), seconds(rebalance))));
        return rebalance;
    }

    private static String seconds(long micros) {
        return String.format("%.1f s", micros / 1e6);
    }

    /** The cluster as the worker that created or checked the topics described it; null before or without. */
    io.kbench.coordinator.report.result.ResultFile.Cluster cluster() {
        return cluster;
    }

    private List<WorkerClient.Share> shares(Plan plan, List<Long> offsets, int workers) {
        List<byte[]> payloads = workload.messages().payloadValues();
        List<String> names = plan.topics().stream().map(Plan.Topic::name).toList();
        // the share groups' backlog is read by one worker: the first that runs share consumers (it has their settings)
        Map<String, String> shareGroups = plan.shareGroupTopics();
        int backlogReader = plan.firstShareWorker();
        List<WorkerClient.Share> shares = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            boolean first = i == 0;
            shares.add(new WorkerClient.Share(plan.runId(), offsets.get(i), profile,
                    first && !workload.existingTopics() ? plan.topics() : List.of(),
                    first && workload.existingTopics() ? names : List.of(),
                    plan.workers().get(i), plan.clients(), workload, payloads, intervalMicros, dumpClientMetrics,
                    first ? brokerSources : List.of(), i == backlogReader ? shareGroups : Map.of()));
        }
        return shares;
    }

    /**
     * Partitions each classic consumer group must own: its topic's, as created or found. A share group is ready
     * when its consumers have joined (the workers' readiness says so).
     */
    private Map<String, Integer> groupPartitions(Plan plan, Map<String, Integer> topicPartitions) {
        // a group may read several topics (consumer-perf --include, or --group over several): all of theirs
        Map<String, java.util.Set<String>> topics = new HashMap<>();
        for (Plan.WorkerAssignment a : plan.workers()) {
            for (Plan.ConsumerTask c : a.consumers()) {
                if (!c.share()) { // a share group's partitions are shared by its consumers: none owns any
                    topics.computeIfAbsent(c.group(), g -> new java.util.HashSet<>()).add(c.topic());
                }
            }
        }
        Map<String, Integer> groups = new HashMap<>();
        topics.forEach((g, ts) -> groups.put(g, ts.stream()
                .mapToInt(t -> topicPartitions.getOrDefault(t, workload.partitionsPerTopic())).sum()));
        return groups;
    }

    private long awaitAssignments(Workers workers, String runId, Map<String, Integer> groupPartitions, long started) {
        long deadline = clock.micros() + READY_TIMEOUT.toNanos() / 1000;
        long rebalanceMicros = 0;
        int stableChecks = 0;
        long lastNote = clock.micros();
        String lastProgress = "";
        int wanted = groupPartitions.values().stream().mapToInt(Integer::intValue).sum();
        while (true) {
            Map<String, Integer> assigned = new HashMap<>();
            boolean allJoined = true;
            int consumers = 0;
            int joined = 0;
            for (WorkerClient client : workers.all()) {
                WorkerClient.Readiness r = Workers.setup(() -> client.prepareStatus(runId));
                allJoined &= r.ready();
                for (WorkerClient.ConsumerReadiness c : r.consumers()) {
                    assigned.merge(c.group(), c.assignedPartitions(), Integer::sum);
                    rebalanceMicros = Math.max(rebalanceMicros, c.joinMicros());
                    consumers++;
                    joined += c.joined() ? 1 : 0;
                }
            }
            // a line when the picture changed, at most every 2 s: a slow group join is visible, not silent
            String progress = String.format("prepare: consumers joined %d/%d, partitions assigned %,d/%,d", joined,
                    consumers, assigned.values().stream().mapToInt(Integer::intValue).sum(), wanted);
            if (consumers > 0 && !progress.equals(lastProgress) && clock.micros() - lastNote >= 2_000_000) {
                note.accept(progress + " (" + seconds(clock.micros() - started) + ")");
                lastNote = clock.micros();
                lastProgress = progress;
            }
            boolean complete = allJoined && groupPartitions.entrySet().stream()
                    .allMatch(g -> assigned.getOrDefault(g.getKey(), 0).intValue() == g.getValue());
            if (failure.get() != null) {
                throw new UserException(failure.get());
            }
            stableChecks = complete ? stableChecks + 1 : 0;
            if (stableChecks >= 2) {
                return rebalanceMicros;
            }
            if (clock.micros() > deadline) {
                throw new UserException("consumers did not get their partitions within " + READY_TIMEOUT.toSeconds()
                        + " s (assigned per group: " + assigned + ", partitions per group: " + groupPartitions + ")");
            }
            try {
                clock.sleep(POLL_EVERY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserException("interrupted while waiting for consumers to get their partitions");
            }
        }
    }
}
