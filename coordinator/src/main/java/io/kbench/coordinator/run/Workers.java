package io.kbench.coordinator.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.kbench.coordinator.UserException;
import io.kbench.coordinator.rpc.WorkerCallException;
import io.kbench.coordinator.rpc.WorkerClient;
import io.kbench.protocol.Versions;

/**
 * The run's workers, in the order given: their clients, and the calls made to all of them at once
 * (identify, release held consumers, stop). Closing closes every client.
 */
public final class Workers implements AutoCloseable {
    private final List<WorkerClient> clients;

    private Workers(List<WorkerClient> clients) {
        this.clients = List.copyOf(clients);
    }

    /**
     * A client per address; nothing is called yet.
     *
     * @param connect builds the client of one address (the network one, or an in-process one in tests)
     */
    public static Workers connect(List<String> addresses, Function<String, WorkerClient> connect) {
        List<WorkerClient> made = new ArrayList<>();
        try {
            for (String a : addresses) {
                made.add(connect.apply(a));
            }
        } catch (RuntimeException e) {
            made.forEach(WorkerClient::close);
            throw e;
        }
        return new Workers(made);
    }

    public int size() {
        return clients.size();
    }

    public WorkerClient get(int index) {
        return clients.get(index);
    }

    public List<WorkerClient> all() {
        return clients;
    }

    /**
     * Asks every worker who it is. Refuses (one line) a worker that is busy with another run, that answers
     * for an id already seen (listed twice), or that cannot be reached; notes a different kbench version.
     */
    public List<WorkerClient.Identity> identify(Consumer<String> note) {
        List<WorkerClient.Identity> ids = new ArrayList<>();
        java.util.Map<String, String> seen = new java.util.HashMap<>();
        for (WorkerClient c : clients) {
            WorkerClient.Identity id = setup(c::identify);
            if (!id.busyRunId().isEmpty()) {
                throw new UserException("worker " + c.address() + " is busy with run " + id.busyRunId()
                        + " of the coordinator at " + id.busyCoordinator() + "; wait for it to end or stop that coordinator");
            }
            if (!id.version().equals(Versions.kbench())) {
                note.accept("note: worker " + c.address() + " runs kbench " + id.version() + ", this coordinator "
                        + Versions.kbench() + " (same protocol " + Versions.PROTOCOL + ")");
            }
            String problem = WorkerIds.problem(id.id());
            if (problem != null) {
                throw new UserException("worker " + c.address() + " answers with an id kbench cannot use ('"
                        + io.kbench.coordinator.workload.ConfigError.excerpt(id.id()) + "': " + problem
                        + "); start it with another --id");
            }
            String earlier = seen.putIfAbsent(id.id(), c.address());
            if (earlier != null) {
                // one worker reached twice (a host name and its address), or two started with the same --id: their
                // figures would be merged as one worker's
                throw new UserException("workers " + earlier + " and " + c.address() + " both answer as worker "
                        + id.id() + ": list each worker once, and give workers on one host their own --id");
            }
            ids.add(id);
        }
        return ids;
    }

    /**
     * Releases every worker's held consumers (a backlog run), in parallel.
     *
     * @return the first failure, or null
     */
    public String releaseConsumers(String runId) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (WorkerClient c : clients) {
            calls.add(CompletableFuture.runAsync(() -> c.startConsumers(runId)));
        }
        String failure = null;
        for (CompletableFuture<Void> f : calls) {
            try {
                join(f);
            } catch (WorkerCallException e) {
                failure = failure == null ? e.getMessage() : failure;
            }
        }
        return failure;
    }

    /**
     * Stops the run on every worker not in {@code lost} (their connection is gone; their lease ends the load),
     * in parallel; the first reachable worker deletes {@code deleteTopics}.
     *
     * @param runFailed the workers stop at once instead of letting consumers drain
     * @return a line per worker that failed to stop, unless it was lost meanwhile (then it is reported as lost)
     */
    public List<String> stopAll(String runId, List<String> deleteTopics, boolean runFailed, Set<Integer> lost) {
        List<String> issues = new ArrayList<>();
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        List<Integer> stopped = new ArrayList<>();
        boolean deleting = false;
        for (int i = 0; i < clients.size(); i++) {
            if (lost.contains(i)) {
                continue;
            }
            WorkerClient c = clients.get(i);
            List<String> delete = deleting ? List.of() : deleteTopics;
            deleting = true;
            stops.add(CompletableFuture.runAsync(() -> c.stop(runId, delete, runFailed)));
            stopped.add(i);
        }
        for (int i = 0; i < stops.size(); i++) {
            try {
                join(stops.get(i));
            } catch (WorkerCallException e) {
                if (!lost.contains(stopped.get(i))) {
                    issues.add(e.getMessage());
                }
            }
        }
        return issues;
    }

    /** One worker's live counts of a run: whether its producers are done, and its running totals. */
    public record Progress(boolean producersDone, io.kbench.protocol.Counters totals) { }

    /**
     * Every worker's live counts of the run ({@code Progress}), asked of all at once: one per worker, in order, or
     * null when a worker did not answer within {@code timeout}, does not hold the run (any more) or failed the call;
     * {@code unknownCall} runs when a worker does not know the call (an older build).
     */
    public List<Progress> progress(String runId, java.time.Duration timeout, Runnable unknownCall) {
        List<CompletableFuture<io.kbench.protocol.rpc.ProgressResponse>> calls = new ArrayList<>();
        for (WorkerClient c : clients) {
            calls.add(c.progress(runId, timeout));
        }
        List<Progress> out = new ArrayList<>();
        for (var call : calls) {
            io.kbench.protocol.rpc.ProgressResponse p;
            try {
                // the call's own deadline completes it; the bound here only guards against a transport that never does
                p = call.get(timeout.toMillis() + 1_000, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (io.grpc.Status.fromThrowable(e.getCause()).getCode() == io.grpc.Status.Code.UNIMPLEMENTED) {
                    unknownCall.run();
                }
                return null;
            } catch (java.util.concurrent.TimeoutException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            if (!p.getRunning()) {
                return null;
            }
            out.add(new Progress(p.getProducersDone(), io.kbench.protocol.rpc.SnapshotMessages.counters(p.getTotals())));
        }
        return out;
    }

    /** Closes every run stream from this side (their workers abort). */
    public void cancelRuns() {
        clients.forEach(WorkerClient::cancelRun);
    }

    @Override
    public void close() {
        clients.forEach(WorkerClient::close);
    }

    /** Waits for {@code f}; a failure comes out as the exception the call threw. */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Runs a setup call; a worker's refusal or unreachability becomes a one-line {@link UserException}, an unreachable
     * one ({@link UserException#unreachable}) when the worker or its Kafka cluster did not answer.
     */
    public static <T> T setup(Supplier<T> call) {
        try {
            return call.get();
        } catch (WorkerCallException e) {
            boolean unreachable = e.kind() == WorkerCallException.Kind.UNREACHABLE
                    || e.kind() == WorkerCallException.Kind.CLUSTER_UNREACHABLE;
            throw unreachable ? UserException.unreachable(e.getMessage(), e) : new UserException(e.getMessage(), e);
        }
    }
}
