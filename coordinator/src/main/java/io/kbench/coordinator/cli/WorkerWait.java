package io.kbench.coordinator.cli;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kbench.coordinator.UserException;

/**
 * {@code run --wait DURATION [--min-workers N]}: waits until the workers are there before the run begins, instead of
 * failing at once — what a Kubernetes Job applied together with its worker StatefulSet needs (the headless Service
 * has no address until a worker pod is ready). Once a second it resolves the workers again ({@code dns:///} names
 * give one address per ready pod) and checks that each accepts a TCP connection; it returns the addresses once at
 * least {@code minWorkers} are listed and every one answers, and says what it waits for every 10 s. At the deadline
 * it gives up with one line: what was missing (exit code 3, unreachable); a problem that waiting cannot fix (a
 * malformed address) is reported at once.
 */
final class WorkerWait {
    /** How often the workers are looked up again. */
    static final long POLL_MILLIS = 1_000;
    /** How often the wait says where it stands. */
    static final long SAY_MILLIS = 10_000;

    /** The clock and the pause, injected for tests. */
    interface Time {
        long millis();

        void sleep(long millis) throws InterruptedException;
    }

    static final Time SYSTEM = new Time() {
        @Override
        public long millis() {
            return System.currentTimeMillis();
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    private WorkerWait() { }

    /**
     * @param expand     the workers as given, resolved now (throws {@link UserException} when a name does not resolve)
     * @param answers    whether a worker address accepts a connection now
     * @param minWorkers the fewest workers the run needs (at least 1)
     * @param waitMillis how long to wait at most
     * @param say        where progress lines go
     * @return the workers, every one answering, at least {@code minWorkers}
     * @throws UserException unreachable when they are not all there by the deadline
     */
    static List<String> await(Supplier<List<String>> expand, Predicate<String> answers, int minWorkers, long waitMillis,
                              Consumer<String> say, Time time) throws InterruptedException {
        long start = time.millis();
        long nextSay = start + SAY_MILLIS;
        while (true) {
            String missing = "no worker is listed";
            List<String> workers;
            try {
                workers = expand.get();
            } catch (UserException e) {
                if (!e.getMessage().contains("does not resolve")) {
                    throw e; // a malformed address: waiting does not fix it
                }
                workers = List.of();
                missing = e.getMessage();
            }
            if (!workers.isEmpty()) {
                List<String> silent = workers.stream().filter(answers.negate()).toList();
                if (workers.size() >= minWorkers && silent.isEmpty()) {
                    return workers;
                }
                missing = workers.size() < minWorkers
                        ? workers.size() + " of the " + minWorkers + " workers needed are listed (" + String.join(", ",
                                workers) + ")"
                        : silent.size() + " of " + workers.size() + " workers do not answer yet (" + String.join(", ",
                                silent.subList(0, Math.min(5, silent.size()))) + (silent.size() > 5 ? ", ..." : "") + ")";
            }
            long now = time.millis();
            if (now - start >= waitMillis) {
                throw UserException.unreachable("the workers were not all there after --wait " + waitMillis / 1000
                        + " s: " + missing);
            }
            if (now >= nextSay) {
                say.accept("waiting for workers (" + (now - start) / 1000 + " s of " + waitMillis / 1000 + " s): "
                        + missing);
                nextSay = now + SAY_MILLIS;
            }
            time.sleep(Math.min(POLL_MILLIS, Math.max(1, start + waitMillis - now)));
        }
    }

    /** True when {@code hostPort} accepts a TCP connection within {@code timeoutMillis}. */
    static boolean accepts(String hostPort, int timeoutMillis) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(host, port), timeoutMillis);
            return true;
        } catch (java.io.IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A duration as {@code --wait} takes it: a whole number with s, m or h ({@code 90s}, {@code 5m}, {@code 1h}), at
     * most a day.
     *
     * @throws UserException what is wrong and what is allowed
     */
    static long parseMillis(String text) {
        String t = text.strip();
        // a unit is required here: "--wait 90" reads as a count of something, not as a time
        Long seconds = t.isEmpty() || Character.isDigit(t.charAt(t.length() - 1)) ? null : SecondsConverter.seconds(t);
        if (seconds == null || seconds < 0) {
            throw new UserException("--wait '" + text + "': a whole number of seconds, minutes or hours, e.g. 90s, 5m, "
                    + "1h");
        }
        if (seconds < 1 || seconds > 86_400) {
            throw new UserException("--wait '" + text + "': 1 s to 24 h");
        }
        return seconds * 1_000;
    }
}
