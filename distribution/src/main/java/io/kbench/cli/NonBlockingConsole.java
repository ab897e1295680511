package io.kbench.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A console stream that never blocks its writers: bytes go into a bounded buffer that one daemon thread
 * writes out to the real stdout or stderr. A console nobody reads (stdout piped into a process that stopped
 * reading, a terminal paused with Ctrl-S) then costs console lines, never the run: the snapshot path, the
 * merge and the result files do not wait for it. Bytes that do not fit are dropped and counted, and a line
 * saying how many is written once the console reads again.
 *
 * <p>Threads: any thread writes (serialized by this object's lock); the drainer thread alone writes to the
 * target. {@link #awaitDrained} lets the command's last lines out before the JVM exits, for a bounded time.
 */
final class NonBlockingConsole extends OutputStream {
    /** Console output kept while the console does not read: about 5,000 progress lines. */
    static final int CAPACITY = 1 << 20;

    private final OutputStream target;
    private final byte[] ring;
    private long written;   // bytes put into the ring, ever
    private long drained;   // bytes taken out of the ring, ever
    private long dropped;   // bytes dropped since the last notice
    private final Thread drainer;

    NonBlockingConsole(OutputStream target, String name) {
        this(target, name, CAPACITY);
    }

    NonBlockingConsole(OutputStream target, String name, int capacity) {
        this.target = target;
        this.ring = new byte[capacity];
        this.drainer = new Thread(this::drain, "kbench-console-" + name);
        drainer.setDaemon(true);
        drainer.start();
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        if (len > ring.length - (written - drained)) {
            dropped += len; // all or nothing: a line is shown whole or not at all
            return;
        }
        put(b, off, len);
        notifyAll();
    }

    private void put(byte[] b, int off, int len) {
        int at = (int) (written % ring.length);
        int first = Math.min(len, ring.length - at);
        System.arraycopy(b, off, ring, at, first);
        System.arraycopy(b, off + first, ring, 0, len - first);
        written += len;
    }

    /** Flushing is the drainer's job: a writer never waits for the console. */
    @Override
    public void flush() {
    }

    /** Bytes dropped since the last notice (for tests). */
    synchronized long dropped() {
        return dropped;
    }

    /**
     * Waits until everything written so far reached the target, at most {@code millis}.
     *
     * @return true when drained
     */
    synchronized boolean awaitDrained(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        long goal = written;
        while (drained < goal) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    private void drain() {
        byte[] chunk = new byte[64 * 1024];
        while (true) {
            int n;
            synchronized (this) {
                while (written == drained) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                int at = (int) (drained % ring.length);
                n = (int) Math.min(Math.min(written - drained, chunk.length), ring.length - at);
                System.arraycopy(ring, at, chunk, 0, n);
            }
            try {
                target.write(chunk, 0, n);
                target.flush();
            } catch (IOException e) {
                // a closed console: what was written to it is gone, as it would be with a blocking stream
            }
            synchronized (this) {
                drained += n;
                if (dropped > 0 && written == drained) {
                    byte[] notice = String.format("[kbench: %,d bytes of console output dropped: the console did not read "
                            + "them in time; every figure is in the run's files]%n", dropped).getBytes(StandardCharsets.UTF_8);
                    if (notice.length <= ring.length) {
                        put(notice, 0, notice.length);
                        dropped = 0;
                    }
                }
                notifyAll();
            }
        }
    }
}
