package io.kbench.worker.rpc;

import java.util.ArrayDeque;
import java.util.function.Consumer;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.rpc.Snapshot;
import io.kbench.protocol.rpc.SnapshotMessages;
import io.kbench.worker.SnapshotSink;

/**
 * The open Run stream as a {@link SnapshotSink}, respecting gRPC's flow control: a snapshot is sent only while
 * the transport is ready ({@code isReady}); until then it waits in a queue of at most {@code maxPending}
 * snapshots, which the transport's on-ready callback drains. A snapshot is never dropped: a coordinator that
 * reads none for that many intervals has lost the run, which is then stopped as when its stream breaks
 * ({@code onOverflow}), instead of buffering without bound inside gRPC. The end (or abort) is sent after every
 * queued snapshot. A closed or cancelled stream is ignored.
 *
 * <p>Threads: the snapshot thread, the thread that stops the run and gRPC's callback thread; calls are serialized.
 */
final class SnapshotStream implements SnapshotSink {
    /** Snapshots a worker keeps for a coordinator that does not read: a minute of 1-s intervals. */
    static final int MAX_PENDING = 60;

    private final ServerCallStreamObserver<Snapshot> call;
    private final int maxPending;
    private final Consumer<String> onOverflow;
    private final ArrayDeque<Snapshot> pending = new ArrayDeque<>();
    private boolean closed;
    /** Set when the run ended: null while running; "" for a normal end; the reason for an abort. */
    private String ending;

    /**
     * @param onOverflow called once, on a thread of its own, with the reason, when the coordinator fell
     *                   {@code maxPending} snapshots behind
     */
    SnapshotStream(ServerCallStreamObserver<Snapshot> call, int maxPending, Consumer<String> onOverflow) {
        this.call = call;
        this.maxPending = maxPending;
        this.onOverflow = onOverflow;
        call.setOnReadyHandler(this::drain);
    }

    @Override
    public synchronized void onSnapshot(IntervalSnapshot s) {
        if (closed || ending != null || call.isCancelled()) {
            return;
        }
        pending.add(SnapshotMessages.toProto(s));
        drain();
        if (!closed && pending.size() > maxPending) {
            String reason = "the coordinator read no snapshot for " + maxPending + " intervals (its stream is not "
                    + "draining): the worker stopped its load";
            fail(Status.RESOURCE_EXHAUSTED.withDescription(reason));
            Thread t = new Thread(() -> onOverflow.accept(reason), "kbench-stream-overflow");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Snapshots waiting for the transport (for tests). */
    synchronized int pending() {
        return pending.size();
    }

    /** Sends what the transport takes now; completes the stream once the run ended and nothing waits. */
    synchronized void drain() {
        if (closed) {
            return;
        }
        try {
            while (!pending.isEmpty() && call.isReady()) {
                call.onNext(pending.poll());
            }
            if (ending != null && pending.isEmpty()) {
                closed = true;
                if (ending.isEmpty()) {
                    call.onCompleted();
                } else {
                    call.onError(Status.ABORTED.withDescription(ending).asRuntimeException());
                }
            }
        } catch (StatusRuntimeException | IllegalStateException e) {
            closed = true; // the coordinator went away just now
        }
    }

    @Override
    public synchronized void onEnd() {
        end("");
    }

    @Override
    public synchronized void onAbort(String reason) {
        end(reason);
    }

    private void end(String how) {
        if (closed || ending != null || call.isCancelled()) {
            return;
        }
        ending = how;
        drain();
    }

    private void fail(Status status) {
        closed = true;
        pending.clear();
        try {
            call.onError(status.asRuntimeException());
        } catch (StatusRuntimeException | IllegalStateException ignored) {
            // the coordinator went away just now
        }
    }
}
