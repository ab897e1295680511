package io.kbench.worker.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.kbench.protocol.Counters;
import io.kbench.protocol.IntervalSnapshot;
import io.kbench.protocol.rpc.Snapshot;
import org.junit.jupiter.api.Test;

class SnapshotStreamTest {
    /** A Run call whose transport is ready or not as the test says, recording what was sent. */
    private static final class FakeCall extends ServerCallStreamObserver<Snapshot> {
        boolean ready = true;
        Runnable onReady;
        final List<Long> sent = new ArrayList<>();
        boolean completed;
        Status error;

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setOnReadyHandler(Runnable handler) {
            onReady = handler;
        }

        @Override
        public void onNext(Snapshot value) {
            if (completed || error != null) {
                throw new IllegalStateException("call already closed");
            }
            sent.add(value.getSequence());
        }

        @Override
        public void onError(Throwable t) {
            error = Status.fromThrowable(t);
        }

        @Override
        public void onCompleted() {
            completed = true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public void setOnCancelHandler(Runnable handler) {
        }

        @Override
        public void setCompression(String compression) {
        }

        @Override
        public void disableAutoInboundFlowControl() {
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void setMessageCompression(boolean enable) {
        }
    }

    private static IntervalSnapshot snapshot(long seq) {
        byte[] none = new byte[0];
        return new IntervalSnapshot("w", seq, seq * 1_000_000L, (seq + 1) * 1_000_000L, Counters.ZERO, none, none, none,
                none, none, false, 0, 0, false, "");
    }

    @Test
    void shouldHoldSnapshotsWhileTheTransportIsNotReadyAndSendThemInOrderWhenItIs() {
        FakeCall call = new FakeCall();
        SnapshotStream stream = new SnapshotStream(call, 5, reason -> { });
        stream.onSnapshot(snapshot(0));
        call.ready = false; // the coordinator reads slowly: gRPC's window is full
        stream.onSnapshot(snapshot(1));
        stream.onSnapshot(snapshot(2));
        assertEquals(List.of(0L), call.sent, "nothing is pushed into a transport that is not ready");
        assertEquals(2, stream.pending());
        stream.onEnd(); // the run ends while two wait: the end goes after them
        assertTrue(!call.completed);
        call.ready = true;
        call.onReady.run();
        assertEquals(List.of(0L, 1L, 2L), call.sent, "every snapshot, in order, none lost");
        assertTrue(call.completed, "then the end");
    }

    @Test
    void shouldStopTheRunWhenTheCoordinatorReadsNothingForMaxPendingIntervals() throws Exception {
        FakeCall call = new FakeCall();
        CompletableFuture<String> stopped = new CompletableFuture<>();
        SnapshotStream stream = new SnapshotStream(call, 5, stopped::complete);
        call.ready = false;
        for (long seq = 0; seq < 6; seq++) {
            stream.onSnapshot(snapshot(seq));
        }
        String reason = stopped.get(10, TimeUnit.SECONDS);
        assertEquals("the coordinator read no snapshot for 5 intervals (its stream is not draining): the worker "
                + "stopped its load", reason);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, call.error.getCode());
        assertEquals(0, stream.pending(), "nothing held after the stream failed");
        stream.onSnapshot(snapshot(6)); // the run's last snapshot on its way down: ignored, no exception
        stream.onAbort("aborted");
        assertEquals(List.of(), call.sent);
    }
}
