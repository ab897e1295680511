package io.kbench.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.kbench.coordinator.UserException;
import org.junit.jupiter.api.Test;

/** {@code run --wait}: on a manual clock, the workers appearing as a StatefulSet's pods become ready. */
class WorkerWaitTest {
    /** A clock that moves only when the wait sleeps. */
    private static final class Manual implements WorkerWait.Time {
        long now;

        @Override
        public long millis() {
            return now;
        }

        @Override
        public void sleep(long millis) {
            now += millis;
        }
    }

    @Test
    void waitsUntilEnoughWorkersAreListedAndAnswerThenSaysWhatItWaitedFor() throws Exception {
        Manual time = new Manual();
        List<String> said = new ArrayList<>();
        // no address for 12 s (no pod ready), then one, then three; the third answers 3 s after it is listed
        List<String> workers = WorkerWait.await(() -> {
            if (time.now < 12_000) {
                throw new UserException("--workers: dns:///w.ns.svc:7070: w.ns.svc does not resolve (no such host)");
            }
            return time.now < 20_000 ? List.of("10.0.0.1:7070") : List.of("10.0.0.1:7070", "10.0.0.2:7070",
                    "10.0.0.3:7070");
        }, a -> !a.equals("10.0.0.3:7070") || time.now >= 23_000, 3, 60_000, said::add, time);
        assertEquals(3, workers.size());
        assertEquals(23_000, time.now, "returned at the first look that found them all answering");
        assertEquals(2, said.size(), "a line every 10 s: " + said);
        assertTrue(said.get(0).startsWith("waiting for workers (10 s of 60 s): --workers: dns:///w.ns.svc:7070: w.ns.svc "
                + "does not resolve"), said.get(0));
        assertTrue(said.get(1).startsWith("waiting for workers (20 s of 60 s): 1 of 3 workers do not answer yet "
                + "(10.0.0.3:7070)"), said.get(1));
    }

    @Test
    void givesUpAtTheDeadlineWithOneUnreachableLine() {
        Manual time = new Manual();
        UserException e = assertThrows(UserException.class, () -> WorkerWait.await(() -> List.of("10.0.0.1:7070"),
                a -> true, 2, 30_000, s -> { }, time));
        assertTrue(e.unreachable(), "exit code 3");
        assertEquals("the workers were not all there after --wait 30 s: 1 of the 2 workers needed are listed "
                + "(10.0.0.1:7070)", e.getMessage());
        assertEquals(30_000, time.now, "not a second longer");
    }

    @Test
    void aProblemWaitingCannotFixIsReportedAtOnce() {
        Manual time = new Manual();
        UserException e = assertThrows(UserException.class, () -> WorkerWait.await(() -> {
            throw new UserException("--workers: 'x:y': not HOST:PORT");
        }, a -> true, 1, 30_000, s -> { }, time));
        assertTrue(!e.unreachable() && time.now == 0, e.getMessage());
    }

    @Test
    void readsDurationsAndRefusesTheRest() {
        assertEquals(90_000, WorkerWait.parseMillis("90s"));
        assertEquals(300_000, WorkerWait.parseMillis("5m"));
        assertEquals(3_600_000, WorkerWait.parseMillis("1h"));
        for (String bad : Set.of("", "5", "-5m", "5 min", "0s", "25h", "9999999s", "1.5m")) {
            assertThrows(UserException.class, () -> WorkerWait.parseMillis(bad), bad);
        }
        // too long is said as too long, however many digits, not as a format error
        for (String tooLong : List.of("25h", "999999999h", "99999999999999999999999s")) {
            assertEquals("--wait '" + tooLong + "': 1 s to 24 h",
                    assertThrows(UserException.class, () -> WorkerWait.parseMillis(tooLong)).getMessage());
        }
    }

    @Test
    void aWorkerAnswersWhenItAcceptsAConnection() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertTrue(WorkerWait.accepts("127.0.0.1:" + s.getLocalPort(), 1_000));
        }
        assertTrue(!WorkerWait.accepts("127.0.0.1:1", 1_000), "nothing listens on port 1");
    }
}
